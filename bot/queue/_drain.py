"""Drain scheduling in Redis: a list of ready users served by a capped number of drainer jobs.

RQ's own bookkeeping costs about a dozen round trips per job, so a job per message made RQ the
bottleneck. Instead the webhook appends the user to ``wx:ready`` (once per pending flag) and makes
sure a drainer job exists; one drainer job pops users in small batches and drains each one under
its per-user lease, until the list is empty or its time budget is spent (then it hands over to a
fresh job). The live drainers are tokens in ``wx:drainers`` with an expiry, so a SIGKILLed drainer
stops counting against the cap on its own; the sweeper re-drives any user left behind.

Lost wake-ups are impossible: a drainer retires (removes its token) in the same script that finds
the list empty, and a push checks the drainer count in the same script that appends the user.
"""

from __future__ import annotations

import itertools
import os
import time

from bot.redis_client import RedisClient, run_script, text
from runtime import keys

DRAINER_TTL_MS = 15_000  # a drainer refreshes its token on every batch; a queued job's token lasts as long
DEFAULT_MAX_DRAINERS = 8
BATCH = 8

# KEYS: ready, drainers; ARGV: user ('' = none), now_ms, ttl_ms, cap, token, force
_PUSH = """
if ARGV[1] ~= '' then redis.call('RPUSH', KEYS[1], ARGV[1]) end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])
if ARGV[6] == '1' or redis.call('ZCARD', KEYS[2]) < tonumber(ARGV[4]) then
  redis.call('ZADD', KEYS[2], tonumber(ARGV[2]) + tonumber(ARGV[3]), ARGV[5])
  return 1
end
return 0
"""
# KEYS: ready, drainers; ARGV: token, now_ms, ttl_ms, n, retire. Empty list: with ``retire`` the
# token leaves in the same step.
_POP = """
local users = redis.call('LPOP', KEYS[1], ARGV[4])
if not users then
  if ARGV[5] == '1' then redis.call('ZREM', KEYS[2], ARGV[1]) end
  return {}
end
redis.call('ZADD', KEYS[2], tonumber(ARGV[2]) + tonumber(ARGV[3]), ARGV[1])
return users
"""
# KEYS: ready, drainers; ARGV: token, new_token, now_ms, ttl_ms. Retire; a successor if work is left.
_HANDOVER = """
redis.call('ZREM', KEYS[2], ARGV[1])
if redis.call('LLEN', KEYS[1]) > 0 then
  redis.call('ZADD', KEYS[2], tonumber(ARGV[3]) + tonumber(ARGV[4]), ARGV[2])
  return 1
end
return 0
"""


class _Tokens:
    """Unique drainer tokens: a random prefix per process and a counter. The admit makes one per
    message; a ``getrandom`` call each was ~1 % of an ack. A forked child draws its own prefix."""

    def __init__(self) -> None:
        self.reset()
        os.register_at_fork(after_in_child=self.reset)

    def reset(self) -> None:
        self.prefix, self.count = os.urandom(6).hex(), itertools.count()

    def __call__(self) -> str:
        return f"{self.prefix}{next(self.count):x}"


new_token = _Tokens()


def _now_ms() -> int:
    return int(time.time() * 1000)


class DrainSchedule:
    """Redis I/O for the ready list and the drainer tokens."""

    def __init__(self, redis: RedisClient, *, max_drainers: int = DEFAULT_MAX_DRAINERS,
                 ttl_ms: int = DRAINER_TTL_MS) -> None:
        self.redis = redis
        self.max_drainers = max_drainers
        self.ttl_ms = ttl_ms

    def push(self, user: str | None, *, force: bool = False) -> str | None:
        """Append ``user`` to the ready list; returns a token when the caller must start a drainer job.

        ``force``: start one even at the cap (the sweeper's recovery path).
        """
        token = new_token()
        started = run_script(self.redis, _PUSH, [keys.ready_users(), keys.drainers()],
                             [user or "", _now_ms(), self.ttl_ms, self.max_drainers, token, "1" if force else "0"])
        return token if int(started) else None

    def pop(self, token: str, n: int = BATCH, *, retire: bool = True) -> list[str]:
        """Up to ``n`` ready users for drainer ``token`` (its expiry refreshed); ``[]`` with ``retire``
        means the token has retired."""
        users = run_script(self.redis, _POP, [keys.ready_users(), keys.drainers()],
                           [token, _now_ms(), self.ttl_ms, n, "1" if retire else "0"])
        return [text(u) for u in users or []]

    def wait(self, timeout_s: float) -> str | None:
        """Block up to ``timeout_s`` for one ready user (a live drainer lingers instead of retiring
        at once, so a steady trickle of messages does not cost an RQ job each)."""
        got = self.redis.blpop([keys.ready_users()], timeout=timeout_s)
        return text(got[1]) if got else None

    def give_back(self, users: list[str]) -> None:
        """Put ``users`` (popped by a drainer that stops before serving them) back at the head of the
        ready list, in their order: they have waited longest. The drainer's hand-over then starts a
        successor for them."""
        if users:
            self.redis.lpush(keys.ready_users(), *reversed(users))

    def handover(self, token: str) -> str | None:
        """Retire ``token``; returns a successor's token when ready users are left."""
        successor = new_token()
        started = run_script(self.redis, _HANDOVER, [keys.ready_users(), keys.drainers()],
                             [token, successor, _now_ms(), self.ttl_ms])
        return successor if int(started) else None

    def retire(self, token: str) -> None:
        self.redis.zrem(keys.drainers(), token)
