"""A piece's claim held by a replica before its API call: no unrecorded double after a fail-over.

A piece is claimed (``sending``) before its WeChat call and settled after it. With Redis replicated
asynchronously, a master that dies right after the call can take the settlement *and the claim* with
it: the promoted replica has no trace of the send, the message is re-run and the text goes out a
second time, unrecorded. So, as the webhook does for an accepted message, the claim is followed by
``WAIT`` on the same connection: once a replica holds it, a re-run after any fail-over finds the piece
claimed and records the resend as ``resent_uncertain``. Fewer confirmations than asked within the
timeout: the claim is withdrawn and :class:`NotReplicated` raised (a Redis error: the message stays at
the head of the mailbox and is handled again shortly), so nothing is sent that a fail-over could
make unrecorded.

At most as many replicas are asked for as the master has attached (``ROLE``, read at most once a
second): right after a fail-over the promoted master is alone, and refusing every send until a
replica is back would hold every reply back.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

__all__ = ["NotReplicated", "Replication"]

ROLE_EVERY_S = 1.0


class NotReplicated(RedisConnectionError):
    """Fewer replicas than asked confirmed a claim in time (it was withdrawn; nothing was sent)."""

    def __init__(self, wanted: int, confirmed: int) -> None:
        super().__init__(f"{confirmed} of {wanted} replicas confirmed the claim")
        self.wanted, self.confirmed = wanted, confirmed


class Replication:
    """How many replicas must confirm a claim (``replicas``, capped by those attached) within
    ``timeout_ms``; ``replicas=0`` asks for none."""

    def __init__(self, redis: Any, replicas: int = 0, timeout_ms: int = 500, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._redis = redis
        self.replicas, self.timeout_ms = replicas, timeout_ms
        self._clock = clock
        self._attached = replicas  # until the first ROLE: as many as asked
        self._read_at = float("-inf")
        self._lock = threading.Lock()

    def wanted(self) -> int:
        """How many confirmations to wait for now (0: none)."""
        if self.replicas <= 0:
            return 0
        now = self._clock()
        with self._lock:
            stale = now - self._read_at >= ROLE_EVERY_S
            if stale:
                self._read_at = now
        if stale:
            try:
                role = self._redis.execute_command("ROLE")
            except RedisError:
                role = None  # keep the last known count; the claim itself will fail if Redis is away
            if isinstance(role, list | tuple) and len(role) == 3 and _s(role[0]) == "master":
                self._attached = len(role[2])
        return min(self.replicas, self._attached)


def _s(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
