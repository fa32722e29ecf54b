"""Redis key names of the WeChat edge — defined in :mod:`runtime.keys`, the one place for key names.

The two drain-scheduling keys below are the edge's own (to be moved into :mod:`runtime.keys` by its
owner); they use the same prefix.
"""

from runtime.keys import *  # noqa: F403
from runtime.keys import PREFIX


def ready_users() -> str:
    """List: users whose mailbox has work and who wait for a drainer (a user may appear twice)."""
    return f"{PREFIX}:ready"


def drainers() -> str:
    """Sorted set: live drainer tokens, score = expiry in epoch ms (the cap on concurrent drainers)."""
    return f"{PREFIX}:drainers"


def replies_channel() -> str:
    """Pub/sub channel: ``user|message_key`` of a hand-off whose state just left ``waiting``."""
    return f"{PREFIX}:replies"
