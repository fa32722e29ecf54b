"""Redis I/O for delivery: quota window, user flags, parked texts, outcome records."""

from __future__ import annotations

import time
from typing import Any

from bot import _webhook_keys as keys
from bot._webhook_redis import RedisClient
from bot.delivery.policy import MESSAGE_QUOTA, Allowance, QuotaState

OUTCOMES_MAXLEN = 500


def _f(raw: dict[Any, Any], name: str) -> str | None:
    value = raw.get(name.encode()) if raw and isinstance(next(iter(raw)), bytes) else raw.get(name)
    if value is None:
        return None
    return value.decode() if isinstance(value, bytes) else str(value)


class DeliveryStore:
    """The per-user delivery records in Redis."""

    def __init__(self, redis: RedisClient) -> None:
        self._redis = redis

    def quota(self, user: str) -> QuotaState:
        raw = self._redis.hgetall(keys.quota(user))
        lm, li = _f(raw, "last_message_at"), _f(raw, "last_interaction_at")
        return QuotaState(
            last_message_at=float(lm) if lm else None,
            message_used=int(_f(raw, "message_used") or 0),
            last_interaction_at=float(li) if li else None,
            interaction_used=int(_f(raw, "interaction_used") or 0),
        )

    def on_user_message(self, user: str, now: float) -> None:
        """The user wrote: a new 48-hour window with a fresh quota."""
        self._redis.hset(keys.quota(user), mapping={"last_message_at": now, "message_used": 0})
        self._redis.hdel(keys.user_flags(user), "refused")

    def on_interaction(self, user: str, now: float) -> None:
        """Menu click, subscribe or scan: a fresh 1-minute allowance."""
        self._redis.hset(keys.quota(user), mapping={"last_interaction_at": now, "interaction_used": 0})

    def spend(self, user: str, allowance: Allowance) -> None:
        self._redis.hincrby(keys.quota(user), f"{allowance.value}_used", 1)

    def exhaust(self, user: str) -> None:
        """WeChat said 45015/45047: treat both allowances as used up until the user writes again."""
        self._redis.hset(keys.quota(user), mapping={"message_used": MESSAGE_QUOTA, "interaction_used": 99})

    def flags(self, user: str) -> dict[str, bool]:
        raw = self._redis.hgetall(keys.user_flags(user))
        return {"unsubscribed": _f(raw, "unsubscribed") == "1", "refused": _f(raw, "refused") == "1"}

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

    def claim(self, user: str, message_key: str, piece_id: str) -> str:
        """Claim a piece before sending it: ``first``, ``done`` (sent before) or ``uncertain``.

        ``uncertain``: an earlier attempt claimed it and died before :meth:`settle` — it may or may
        not have reached WeChat. The caller sends it again (a message is never silently lost).
        """
        key = keys.part_sent(user, message_key)
        pipe = self._redis.pipeline()
        pipe.hsetnx(key, piece_id, "sending")
        pipe.hget(key, piece_id)
        pipe.expire(key, 7 * 86400)
        first, state, _ = pipe.execute()
        if first:
            return "first"
        return "uncertain" if _b(state or b"") == "sending" else "done"

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


def _b(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
