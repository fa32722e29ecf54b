"""The global side of transcript records, gathered: counter increments, latency samples and
active-user times, written as a few commands for many records.

Every record adds to the ``wx:stats:*`` counter hashes, the capped latency list and the
active-users index. Written per record, that is two scripts and up to three more commands per turn
on keys every worker shares. A :class:`StatsTally` keeps them in memory until :meth:`StatsTally.queue`
puts them on a pipeline (or :meth:`StatsTally.flush` sends them): one ``HINCRBY`` script per
counter hash, one ``LPUSH``/``LTRIM`` for every sample, one ``ZADD`` for every user. A worker
flushes after each batch of users and each job, so the stats trail the conversations by at most a
batch; a worker that dies loses at most that batch's counts (the conversations themselves are in
the per-user streams, written with each turn).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Mapping
from typing import Any

from runtime import keys
from runtime.transcript._stats import LATENCY, LATENCY_SAMPLES

__all__ = ["StatsTally"]

# Single-key scripts (so they also run on Redis Cluster). Sent with EVAL (the bodies are short): they
# queue on the caller's pipeline and can never fail with NOSCRIPT after a Redis restart.
_HINCRBY_ALL = """
for i = 1, #ARGV, 2 do redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1]) end
"""
_PUSH_CAPPED = """
redis.call('LPUSH', KEYS[1], unpack(ARGV, 2))
redis.call('LTRIM', KEYS[1], 0, ARGV[1])
"""


class StatsTally:
    """What records added to the global stats since the last :meth:`queue` (safe across threads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[str, Counter[str]] = {}
        self._latency: list[str] = []
        self._active: dict[str, float] = {}

    def count(self, stats: str, increments: Mapping[str, int]) -> None:
        """Add ``increments`` (field → amount) to the counter hash ``stats`` (``turns``, ``deliveries``)."""
        with self._lock:
            self._counts.setdefault(stats, Counter()).update(increments)

    def sample(self, latency: str) -> None:
        """One turn's engine latency (formatted) for the capped latency list."""
        with self._lock:
            self._latency.append(latency)

    def touch(self, user: str, at: float) -> None:
        """``user`` was active at ``at`` (a Unix time) for the active-users index."""
        with self._lock:
            self._active[user] = max(at, self._active.get(user, at))

    @property
    def pending(self) -> bool:
        return bool(self._counts or self._latency or self._active)

    def queue(self, pipe: Any) -> bool:
        """Queue everything gathered on ``pipe`` (the caller executes it) and start afresh; False when
        there was nothing."""
        with self._lock:
            counts, latency, active = self._counts, self._latency, self._active
            if not (counts or latency or active):
                return False
            self._counts, self._latency, self._active = {}, [], {}
        for stats, fields in counts.items():
            pairs = [x for field, n in fields.items() if n for x in (field, n)]
            if pairs:
                pipe.eval(_HINCRBY_ALL, 1, keys.stats(stats), *pairs)
        if latency:
            pipe.eval(_PUSH_CAPPED, 1, keys.stats(LATENCY), LATENCY_SAMPLES - 1, *latency[-LATENCY_SAMPLES:])
        if active:
            pipe.zadd(keys.active_users(), active)
        return True

    def flush(self, redis: Any) -> None:
        """Send what was gathered in one round trip of its own (nothing when nothing was)."""
        pipe = redis.pipeline(transaction=False)
        if self.queue(pipe):
            pipe.execute()
