"""The passive-reply hand-off between a waiting webhook request and the worker (atomic in Lua).

States of one message: ``waiting`` (a webhook request may still answer it) → ``ready`` (the worker
put the reply there) → ``taken`` (a webhook answered with it); or ``released`` (nobody waits any
more: the worker delivers through the API) / ``released_ready`` (a ready reply nobody took in time:
the sweeper hands it to the API path) → ``sent_late`` (that delivery settled).

A ``released_ready`` hand-off stays on the deadline list, due again ``LATE_RETRY_S`` later, until
its delivery settles: a late-delivery job lost with a killed worker is handed out again, and the
delivery, deduped by its key, sends nothing twice unrecorded.
"""

from __future__ import annotations

from typing import NamedTuple

from bot.redis_client import Call, RedisClient, run_script
from bot.redis_client import text as _s
from runtime import keys

HANDOFF_TTL_S = 900
LATE_RETRY_S = 60.0  # a released reply whose delivery has not settled by then is handed out again

_OPEN = """
local existed = redis.call('EXISTS', KEYS[1])
if existed == 0 then
  redis.call('HSET', KEYS[1], 'state', 'waiting', 'attempts', 1)
  redis.call('EXPIRE', KEYS[1], ARGV[1])
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
  return {'waiting', 1}
end
local n = redis.call('HINCRBY', KEYS[1], 'attempts', 1)
return {redis.call('HGET', KEYS[1], 'state'), n}
"""
_OFFER = """
if redis.call('HGET', KEYS[1], 'state') == 'waiting' then
  redis.call('HSET', KEYS[1], 'state', 'ready', 'text', ARGV[1])
  redis.call('PUBLISH', ARGV[2], ARGV[3])
  return 1
end
return 0
"""
_CLAIM = """
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'ready' then
  redis.call('HSET', KEYS[1], 'state', 'taken')
  return {'taken', redis.call('HGET', KEYS[1], 'text')}
end
return {state or 'gone', ''}
"""
_RELEASE = """
local state = redis.call('HGET', KEYS[1], 'state')
if state ~= 'released_ready' then
  redis.call('ZREM', KEYS[2], ARGV[1])
end
if state == 'waiting' then
  redis.call('HSET', KEYS[1], 'state', 'released')
  redis.call('PUBLISH', ARGV[2], ARGV[1])
  return {'released', ''}
end
if state == 'ready' then
  redis.call('HSET', KEYS[1], 'state', 'released_ready')
  return {'released_ready', redis.call('HGET', KEYS[1], 'text')}
end
return {state or 'gone', ''}
"""


_RELEASE_LATE = """
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'ready' or state == 'released_ready' then
  redis.call('HSET', KEYS[1], 'state', 'released_ready')
  redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
  return {'released_ready', redis.call('HGET', KEYS[1], 'text')}
end
redis.call('ZREM', KEYS[2], ARGV[1])
if state == 'waiting' then
  redis.call('HSET', KEYS[1], 'state', 'released')
  redis.call('PUBLISH', ARGV[2], ARGV[1])
  return {'released', ''}
end
return {state or 'gone', ''}
"""
_SENT_LATE = """
if redis.call('HGET', KEYS[1], 'state') == 'released_ready' then
  redis.call('HSET', KEYS[1], 'state', 'sent_late')
end
redis.call('ZREM', KEYS[2], ARGV[1])
return 1
"""


def poll_call(user: str, message_key: str) -> Call:
    """The script call of :meth:`Handoff.poll` (no I/O)."""
    return Call(_CLAIM, [keys.handoff(user, message_key)], [])


def release_call(user: str, message_key: str) -> Call:
    """The script call of :meth:`Handoff.release` (no I/O)."""
    return Call(_RELEASE, [keys.handoff(user, message_key), keys.handoff_deadlines()],
                [f"{user}|{message_key}", keys.replies_channel()])


def state_text(reply: list[bytes | str]) -> tuple[str, str]:
    """A ``{state, text}`` script reply as strings."""
    return _s(reply[0]), _s(reply[1])


class Opened(NamedTuple):
    """The state a webhook attempt found: ``first`` is True only for the first delivery."""

    state: str
    attempt: int

    @property
    def first(self) -> bool:
        return self.attempt == 1


class Handoff:
    """Redis I/O for the hand-off of one user's message replies."""

    def __init__(self, redis: RedisClient) -> None:
        self._redis = redis

    def open(self, user: str, message_key: str, deadline: float) -> Opened:
        """Register a webhook attempt; the first one also schedules the release ``deadline``."""
        state, attempt = run_script(
            self._redis, _OPEN, [keys.handoff(user, message_key), keys.handoff_deadlines()],
            [HANDOFF_TTL_S, deadline, f"{user}|{message_key}"],
        )
        return Opened(_s(state), int(attempt))

    def state(self, user: str, message_key: str) -> str:
        return _s(self._redis.hget(keys.handoff(user, message_key), "state"))

    def offer(self, user: str, message_key: str, text: str) -> bool:
        """Worker: hand ``text`` to the waiting webhook; False if nobody waits any more."""
        return bool(run_script(self._redis, _OFFER, [keys.handoff(user, message_key)],
                               [text, keys.replies_channel(), f"{user}|{message_key}"]))

    def claim(self, user: str, message_key: str) -> str | None:
        """Webhook: take the ready reply (only one request can)."""
        state, text = self.poll(user, message_key)
        return text if state == "taken" else None

    def poll(self, user: str, message_key: str) -> tuple[str, str]:
        """Webhook: ``("taken", text)`` when the reply was ready (and is now ours), else ``(state, "")``."""
        return state_text(run_script(self._redis, *poll_call(user, message_key)))

    def release(self, user: str, message_key: str) -> tuple[str, str]:
        """Stop waiting. Returns ``(state, text)``; ``released_ready`` means ``text`` must go via the API."""
        return state_text(run_script(self._redis, *release_call(user, message_key)))

    def release_late(self, user: str, message_key: str, now: float) -> tuple[str, str]:
        """The sweeper's release: like :meth:`release`, but a ready reply (or one released before whose
        delivery has not settled) is returned for the API path and kept due again ``LATE_RETRY_S`` on."""
        return state_text(run_script(
            self._redis, _RELEASE_LATE, [keys.handoff(user, message_key), keys.handoff_deadlines()],
            [f"{user}|{message_key}", keys.replies_channel(), now + LATE_RETRY_S]))

    def sent_late(self, user: str, message_key: str) -> None:
        """The late delivery of a released reply settled: it is not handed out again."""
        run_script(self._redis, _SENT_LATE, [keys.handoff(user, message_key), keys.handoff_deadlines()],
                   [f"{user}|{message_key}"])

    def due(self, now: float, limit: int = 100) -> list[tuple[str, str]]:
        """Hand-offs whose deadline passed, as ``(user, message_key)``."""
        members = self._redis.zrangebyscore(keys.handoff_deadlines(), "-inf", now, start=0, num=limit)
        out = []
        for member in members:
            user, _, message_key = _s(member).partition("|")
            out.append((user, message_key))
        return out
