"""A circuit breaker: after N consecutive failures stop calling the endpoint for a cooldown.

An outage then costs one timeout (plus retries) per cooldown, not one per turn. After the cooldown a
single probe call is let through (half-open): success closes the circuit, failure re-opens it.
State is per process on purpose — it is a latency guard, not shared truth.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from enum import StrEnum

__all__ = ["BreakerState", "CircuitBreaker"]


class BreakerState(StrEnum):
    """Where the breaker is."""

    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half_open"


class CircuitBreaker:
    """Counts consecutive failures of one endpoint; thread-safe.

    ``now`` is a monotonic clock in seconds, injected so tests can move time.
    """

    def __init__(
        self,
        *,
        failure_threshold: int = 3,
        cooldown_s: float = 30.0,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        if failure_threshold < 1:
            raise ValueError("failure_threshold must be >= 1")
        self.failure_threshold = failure_threshold
        self.cooldown_s = cooldown_s
        self._now = now
        self._lock = threading.Lock()
        self._failures = 0
        self._opened_at: float | None = None
        self._probe_in_flight = False

    @property
    def state(self) -> BreakerState:
        """The current state (an open breaker whose cooldown has passed reports half-open)."""
        with self._lock:
            return self._state_locked()

    def _state_locked(self) -> BreakerState:
        if self._opened_at is None:
            return BreakerState.CLOSED
        if self._now() - self._opened_at >= self.cooldown_s:
            return BreakerState.HALF_OPEN
        return BreakerState.OPEN

    def allow(self) -> bool:
        """True when a call may go out now; in half-open state only one probe at a time is allowed."""
        with self._lock:
            state = self._state_locked()
            if state is BreakerState.CLOSED:
                return True
            if state is BreakerState.HALF_OPEN and not self._probe_in_flight:
                self._probe_in_flight = True
                return True
            return False

    def record_success(self) -> None:
        """A call succeeded: close the circuit."""
        with self._lock:
            self._failures = 0
            self._opened_at = None
            self._probe_in_flight = False

    def record_failure(self) -> None:
        """A call failed: count it, and open (or re-open after a failed probe) at the threshold."""
        with self._lock:
            self._failures += 1
            if self._probe_in_flight or self._failures >= self.failure_threshold:
                self._opened_at = self._now()
            self._probe_in_flight = False

    def release(self) -> None:
        """A call ended without telling us anything about the endpoint's health (e.g. a 400)."""
        with self._lock:
            self._probe_in_flight = False
