"""Redis I/O for delivery: quota window, user flags, parked texts, outcome records."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any

from redis.exceptions import NoScriptError

from bot import _webhook_keys as keys
from bot._webhook_redis import RedisClient, run_script
from bot.delivery._fence import Fence
from bot.delivery.policy import MESSAGE_QUOTA, Allowance, QuotaState

OUTCOMES_MAXLEN = 500
SENT_TTL_S = 7 * 86400

# The passive piece in one step: skip it if settled before, else hand it to the waiting webhook,
# settle it and record the outcome — all or nothing, so no crash can leave it half-sent.
# A waiting webhook is woken through the replies channel.
# KEYS: part_sent, handoff, outcomes; ARGV: piece, text, sent ttl, msg key, bytes, at, maxlen,
# channel, channel message.
_OFFERED = """
  redis.call('HSET', KEYS[2], 'state', 'ready', 'text', ARGV[2])
  redis.call('HSET', KEYS[1], ARGV[1], '1')
  redis.call('EXPIRE', KEYS[1], ARGV[3])
  redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[7], '*', 'msg', ARGV[4], 'channel', 'passive',
             'status', 'sent', 'code', '0', 'bytes', ARGV[5], 'at', ARGV[6])
  redis.call('PUBLISH', ARGV[8], ARGV[9])
"""
_OFFER_PASSIVE = """
if redis.call('HGET', KEYS[1], ARGV[1]) == '1' then return 'done' end
if redis.call('HGET', KEYS[2], 'state') ~= 'waiting' then return 'lost' end
""" + _OFFERED + """
return 'sent'
"""

# The same step as the first thing a delivery would do when the plan is one passive piece: offered
# only if a webhook waits and nothing is parked (then the plan is exactly that piece), else nothing
# changes and the snapshot the delivery plans from is returned instead — one round trip either way,
# and it can ride in the caller's pipeline. KEYS: part_sent, handoff, outcomes, parked, flags, quota;
# ARGV as _OFFER_PASSIVE. Replies: {'sent'}, {'done'} or {'read', state, parked, flags, quota}.
_OFFER_OR_READ = """
local state = redis.call('HGET', KEYS[2], 'state')
if state == 'waiting' and redis.call('LLEN', KEYS[4]) == 0 then
  if redis.call('HGET', KEYS[1], ARGV[1]) == '1' then return {'done'} end
""" + _OFFERED + """
  return {'sent'}
end
return {'read', state, redis.call('LRANGE', KEYS[4], 0, -1), redis.call('HGETALL', KEYS[5]),
        redis.call('HGETALL', KEYS[6])}
"""
_OFFER_OR_READ_SHA = hashlib.sha1(_OFFER_OR_READ.encode()).hexdigest()

# Claim a piece before its API call; fenced: nothing happens unless the lease is held by the token
# ('' = no lease to check). KEYS: part_sent, lease; ARGV: piece, sent ttl, token.
_CLAIM = """
if ARGV[3] ~= '' and redis.call('GET', KEYS[2]) ~= ARGV[3] then return 'lost' end
local state = redis.call('HGET', KEYS[1], ARGV[1])
if state == '1' then return 'done' end
redis.call('HSET', KEYS[1], ARGV[1], 'sending')
redis.call('EXPIRE', KEYS[1], ARGV[2])
if state then return 'uncertain' end
return 'first'
"""


@dataclass(frozen=True)
class UserSnapshot:
    """What a delivery reads about a user and one message, read in one round trip."""

    handoff_state: str
    parked: list[str]
    flags: dict[str, bool]
    quota: QuotaState


def _f(raw: dict[Any, Any], name: str) -> str | None:
    value = raw.get(name.encode()) if raw and isinstance(next(iter(raw)), bytes) else raw.get(name)
    if value is None:
        return None
    return value.decode() if isinstance(value, bytes) else str(value)


class DeliveryStore:
    """The per-user delivery records in Redis."""

    def __init__(self, redis: RedisClient) -> None:
        self._redis = redis

    def snapshot(self, user: str, message_key: str) -> UserSnapshot:
        """Hand-off state of ``message_key``, parked texts, flags and quota: one pipeline."""
        pipe = self._redis.pipeline(transaction=False)
        self.queue_snapshot(pipe, user, message_key)
        return parse_snapshot(pipe.execute())

    def queue_snapshot(self, pipe: Any, user: str, message_key: str) -> None:
        """Queue :meth:`snapshot`'s reads on ``pipe``; :func:`parse_snapshot` reads their four replies."""
        pipe.hget(keys.handoff(user, message_key), "state")
        pipe.lrange(keys.parked(user), 0, -1)
        pipe.hgetall(keys.user_flags(user))
        pipe.hgetall(keys.quota(user))

    def offer_passive(self, user: str, message_key: str, piece_id: str, text: str) -> str:
        """``done`` (settled before), ``sent`` (handed to the waiting webhook, settled, recorded) or
        ``lost`` (nobody waits any more: nothing changed)."""
        status = run_script(
            self._redis, _OFFER_PASSIVE,
            [keys.part_sent(user, message_key), keys.handoff(user, message_key), keys.outcomes(user)],
            [piece_id, text, SENT_TTL_S, message_key, len(text.encode()), f"{time.time():.3f}", OUTCOMES_MAXLEN,
             keys.replies_channel(), f"{user}|{message_key}"],
        )
        return _b(status)

    def queue_offer_or_read(self, pipe: Any, user: str, message_key: str, piece_id: str, text: str) -> None:
        """Queue on ``pipe`` :meth:`offer_passive` of ``text`` if a webhook waits and nothing is parked,
        else the reads of :meth:`snapshot`; :meth:`offered_or_read` interprets the reply."""
        pipe.evalsha(
            _OFFER_OR_READ_SHA, 6, keys.part_sent(user, message_key), keys.handoff(user, message_key),
            keys.outcomes(user), keys.parked(user), keys.user_flags(user), keys.quota(user),
            piece_id, text, SENT_TTL_S, message_key, len(text.encode()), f"{time.time():.3f}", OUTCOMES_MAXLEN,
            keys.replies_channel(), f"{user}|{message_key}",
        )

    def offered_or_read(self, reply: Any) -> str | UserSnapshot | None:
        """``sent`` or ``done`` (see :meth:`offer_passive`), the snapshot when it was not offered, or
        None when the script was unknown to the server (nothing ran: read the snapshot anew)."""
        if isinstance(reply, NoScriptError):
            client: Any = self._redis
            client.script_load(_OFFER_OR_READ)  # e.g. Redis restarted; the next turn finds it
            return None
        if isinstance(reply, Exception):
            raise reply
        if _b(reply[0]) != "read":
            return _b(reply[0])
        state, parked, flags, quota = reply[1:]
        return UserSnapshot(_b(state) if state else "", [_b(v) for v in parked],
                            _flags(_pairs(flags)), _quota(_pairs(quota)))

    def quota(self, user: str) -> QuotaState:
        return _quota(self._redis.hgetall(keys.quota(user)))

    def on_user_message(self, user: str, now: float, *, pipeline: Any = None) -> None:
        """The user wrote: a new 48-hour window with a fresh quota (queued on ``pipeline`` if given)."""
        pipe = pipeline if pipeline is not None else self._redis.pipeline(transaction=False)
        pipe.hset(keys.quota(user), mapping={"last_message_at": now, "message_used": 0})
        pipe.hdel(keys.user_flags(user), "refused")
        if pipeline is None:
            pipe.execute()

    def on_interaction(self, user: str, now: float, *, pipeline: Any = None) -> None:
        """Menu click, subscribe or scan: a fresh 1-minute allowance (queued on ``pipeline`` if given)."""
        target = pipeline if pipeline is not None else self._redis
        target.hset(keys.quota(user), mapping={"last_interaction_at": now, "interaction_used": 0})

    def spend(self, user: str, allowance: Allowance) -> None:
        self._redis.hincrby(keys.quota(user), f"{allowance.value}_used", 1)

    def exhaust(self, user: str) -> None:
        """WeChat said 45015/45047: treat both allowances as used up until the user writes again."""
        self._redis.hset(keys.quota(user), mapping={"message_used": MESSAGE_QUOTA, "interaction_used": 99})

    def flags(self, user: str) -> dict[str, bool]:
        return _flags(self._redis.hgetall(keys.user_flags(user)))

    def set_flag(self, user: str, name: str, on: bool = True) -> None:
        if on:
            self._redis.hset(keys.user_flags(user), name, "1")
        else:
            self._redis.hdel(keys.user_flags(user), name)

    def parked(self, user: str) -> list[str]:
        return [_b(v) for v in self._redis.lrange(keys.parked(user), 0, -1)]

    def drop_parked(self, user: str, count: int) -> None:
        self._redis.ltrim(keys.parked(user), count, -1)

    def park(self, user: str, text: str) -> None:
        self._redis.rpush(keys.parked(user), text)

    def mark(self, user: str, message_key: str, piece_id: str) -> bool:
        """True the first time a piece of a message's reply is handled (exactly-once)."""
        return self.claim(user, message_key, piece_id) == "first"

    def claim(self, user: str, message_key: str, piece_id: str, fence: Fence | None = None) -> str:
        """Claim a piece before sending it: ``first``, ``done`` (sent before), ``uncertain`` or
        ``lost`` (``fence`` given and its lease is no longer held by its token: nothing changed).

        ``uncertain``: an earlier attempt claimed it and died before :meth:`settle` — it may or may
        not have reached WeChat. The caller sends it again (a message is never silently lost).
        """
        lease, token = (fence.key, fence.token) if fence is not None else (keys.lease(user), "")
        return _b(run_script(self._redis, _CLAIM, [keys.part_sent(user, message_key), lease],
                             [piece_id, SENT_TTL_S, token]))

    def settle(self, user: str, message_key: str, piece_id: str) -> None:
        """The piece reached its channel (or was parked/recorded): a re-run skips it."""
        self._redis.hset(keys.part_sent(user, message_key), piece_id, "1")

    def unmark(self, user: str, message_key: str, piece_id: str) -> None:
        self._redis.hdel(keys.part_sent(user, message_key), piece_id)

    def remember_template(self, user: str, msgid: int, message_key: str) -> None:
        self._redis.hset(keys.template_jobs(user), str(msgid), message_key)

    def template_message_key(self, user: str, msgid: str) -> str:
        value = self._redis.hget(keys.template_jobs(user), msgid)
        return _b(value) if value else ""

    def record(self, user: str, message_key: str, channel: str, status: str, code: int = 0,
               size: int = 0) -> None:
        """Append one outcome to the user's ``outcomes`` stream."""
        self._redis.xadd(
            keys.outcomes(user),
            {"msg": message_key, "channel": channel, "status": status, "code": code, "bytes": size,
             "at": f"{time.time():.3f}"},
            maxlen=OUTCOMES_MAXLEN, approximate=True,
        )

    def outcomes(self, user: str) -> list[dict[str, str]]:
        return [{_b(k): _b(v) for k, v in fields.items()} for _, fields in self._redis.xrange(keys.outcomes(user))]


def parse_snapshot(replies: list[Any]) -> UserSnapshot:
    """The snapshot from the four replies :meth:`DeliveryStore.queue_snapshot` queued (an error reply
    is raised: a delivery never runs on a partial view)."""
    for reply in replies:
        if isinstance(reply, Exception):
            raise reply
    state, parked, flags, quota = replies
    return UserSnapshot(_b(state) if state is not None else "", [_b(v) for v in parked],
                        _flags(flags), _quota(quota))


def _pairs(flat: list[Any]) -> dict[Any, Any]:
    return dict(zip(flat[::2], flat[1::2], strict=True))


def _b(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _flags(raw: dict[Any, Any]) -> dict[str, bool]:
    return {"unsubscribed": _f(raw, "unsubscribed") == "1", "refused": _f(raw, "refused") == "1"}


def _quota(raw: dict[Any, Any]) -> QuotaState:
    lm, li = _f(raw, "last_message_at"), _f(raw, "last_interaction_at")
    return QuotaState(
        last_message_at=float(lm) if lm else None,
        message_used=int(_f(raw, "message_used") or 0),
        last_interaction_at=float(li) if li else None,
        interaction_used=int(_f(raw, "interaction_used") or 0),
    )
