"""Redis key names of the WeChat edge — defined in :mod:`runtime.keys`, the one place for key names."""

from runtime.keys import *  # noqa: F403
from runtime.keys import PREFIX  # noqa: F401
