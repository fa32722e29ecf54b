"""The clock port: every turn reads time from here, never from ``datetime.now()``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    """Gives the current, timezone-aware time."""

    def now(self) -> datetime: ...


class SystemClock:
    """The real wall clock (UTC; convert to the user's timezone where needed)."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class SettableClock:
    """A clock tests and scripts move by hand. Time only moves forward."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start if start is not None else datetime.now(UTC)
        if self._now.tzinfo is None:
            raise ValueError("SettableClock needs a timezone-aware datetime")

    def now(self) -> datetime:
        return self._now

    def set(self, when: datetime) -> None:
        """Move to ``when``; earlier instants are ignored (time never goes back)."""
        if when.tzinfo is None:
            raise ValueError("naive datetime")
        if when > self._now:
            self._now = when

    def advance(self, delta: timedelta) -> None:
        """Move forward by ``delta``."""
        if delta > timedelta(0):
            self._now = self._now + delta
