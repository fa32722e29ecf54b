"""The clock port: every turn reads time from here, never from ``datetime.now()``."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Protocol

__all__ = ["Clock", "ClockWentBack", "RunningClock", "SettableClock", "SystemClock"]


class Clock(Protocol):
    """Gives the current, timezone-aware time."""

    def now(self) -> datetime: ...


class ClockWentBack(ValueError):
    """A move to an instant earlier than the clock's current time; carries both."""

    def __init__(self, current: datetime, requested: datetime) -> None:
        super().__init__(f"{requested.isoformat()} is before the clock's time {current.isoformat()}")
        self.current = current
        self.requested = requested


class SystemClock:
    """The real wall clock (UTC; convert to the user's timezone where needed)."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class RunningClock:
    """Real time that started at a chosen moment: ``start`` plus the time elapsed since construction."""

    def __init__(self, start: datetime) -> None:
        if start.tzinfo is None:
            raise ValueError("RunningClock needs a timezone-aware datetime")
        self._start = start
        self._origin = time.monotonic()

    def now(self) -> datetime:
        return self._start + timedelta(seconds=time.monotonic() - self._origin)


class SettableClock:
    """A clock tests and scripts move by hand. Time only moves forward."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start if start is not None else datetime.now(UTC)
        if self._now.tzinfo is None:
            raise ValueError("SettableClock needs a timezone-aware datetime")

    def now(self) -> datetime:
        return self._now

    def set(self, when: datetime) -> None:
        """Move to ``when``; raise :class:`ClockWentBack` for an earlier instant (time never goes back)."""
        if when.tzinfo is None:
            raise ValueError("naive datetime")
        if when < self._now:
            raise ClockWentBack(self._now, when)
        self._now = when

    def advance(self, delta: timedelta) -> None:
        """Move forward by ``delta``."""
        if delta > timedelta(0):
            self._now = self._now + delta
