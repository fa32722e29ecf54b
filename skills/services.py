"""What skill actions may use besides their inputs: the SQL engine and the ports they need."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Engine


@dataclass(frozen=True)
class Services:
    """Passed by keyword into every action; built once by the process (bot/) and by tests.

    ``weather`` is a WeatherProvider, ``cache`` a Redis-like client (or None) for caches.
    """

    db: Engine
    weather: Any = None
    cache: Any = None
