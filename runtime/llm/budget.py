"""The model time a turn may spend, shared by every model call of that turn (router and agent alike).

WeChat waits about 5 s for a passive reply. A turn's model calls together get ``budget_s`` (default
3 s, ``OPENAI_TURN_BUDGET``) counted from the first call, with at most ``retries`` retry (default 1)
across all of them; each call's timeout is what is left, capped by its profile's own timeout. When
less than ``MIN_CALL_S`` is left no call goes out (``LLMUnavailable(deadline)``) and the turn gets
its no-model answer — so a model that never answers costs one budget, not one timeout per call.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

__all__ = ["DEFAULT_TURN_BUDGET_S", "MIN_CALL_S", "TurnDeadline", "deadline_of"]

DEFAULT_TURN_BUDGET_S = 3.0
MIN_CALL_S = 0.3
"""Less time than this left: a call could not finish, so none is made."""


class TurnDeadline:
    """One turn's model-time budget. Thread-safe; ``now`` is a monotonic clock in seconds (injectable)."""

    def __init__(self, budget_s: float = DEFAULT_TURN_BUDGET_S, *, retries: int = 1,
                 now: Callable[[], float] = time.monotonic) -> None:
        if budget_s <= 0:
            raise ValueError("budget_s must be > 0")
        self.budget_s = budget_s
        self._retries = retries
        self._now = now
        self._started: float | None = None
        self._lock = threading.Lock()

    def start(self) -> None:
        """Start the clock (the first call does it; later calls leave it running)."""
        with self._lock:
            if self._started is None:
                self._started = self._now()

    @property
    def started(self) -> bool:
        """Whether any model call of the turn has begun."""
        return self._started is not None

    def spent(self) -> float:
        """Seconds since the first call began (0 before it)."""
        with self._lock:
            return 0.0 if self._started is None else self._now() - self._started

    def remaining(self) -> float:
        """Seconds left for model calls."""
        return max(0.0, self.budget_s - self.spent())

    @property
    def expired(self) -> bool:
        """Too little time left for another call."""
        return self.remaining() < MIN_CALL_S

    def timeout_for(self, profile_timeout_s: float) -> float:
        """Timeout of the next call: what is left, capped by the profile's own timeout; starts the clock."""
        self.start()
        return min(profile_timeout_s, self.remaining())

    def take_retry(self) -> bool:
        """Use the turn's retry (True once per allowed retry, and only while time is left)."""
        with self._lock:
            if self._retries <= 0:
                return False
            left = self.budget_s - (0.0 if self._started is None else self._now() - self._started)
            if left < MIN_CALL_S:
                return False
            self._retries -= 1
            return True


def deadline_of(port: object) -> TurnDeadline | None:
    """The turn deadline a port carries (a ``MeteredLLM`` built for a turn), if any."""
    found = getattr(port, "deadline", None)
    return found if isinstance(found, TurnDeadline) else None
