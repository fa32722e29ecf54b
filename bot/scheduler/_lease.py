"""The scheduler leader lease: one Redis key, SET NX PX to take it, a compare-and-renew script to keep it."""

from __future__ import annotations

from typing import Any

from runtime import keys

__all__ = ["LeaderLease"]

_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class LeaderLease:
    """Held by at most one scheduler at a time; lapses ``ttl_ms`` after its holder stops renewing.

    A standby calls :meth:`hold` every tick too: it wins as soon as the key has expired, so a
    dead leader is replaced within ``ttl_ms`` plus one tick.
    """

    def __init__(self, redis: Any, token: str, *, ttl_ms: int = 10_000, key: str | None = None) -> None:
        self._redis = redis
        self.token = token
        self.ttl_ms = ttl_ms
        self.key = key or keys.scheduler_leader()

    def hold(self) -> bool:
        """Renew the lease if we hold it, else try to take it. True while we are the leader."""
        if int(self._redis.eval(_RENEW, 1, self.key, self.token, self.ttl_ms)):
            return True
        return bool(self._redis.set(self.key, self.token, nx=True, px=self.ttl_ms))

    def release(self) -> None:
        """Give the lease up (clean shutdown), so a standby takes over at once."""
        self._redis.eval(_RELEASE, 1, self.key, self.token)

    def holder(self) -> str | None:
        """The token of the current leader, if any."""
        raw = self._redis.get(self.key)
        return raw.decode() if isinstance(raw, bytes) else raw
