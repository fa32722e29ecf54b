"""Redis I/O for delivery: quota window, user flags, parked texts, delivery records, outcomes."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from redis.exceptions import NoScriptError

from bot.delivery import _scripts as lua
from bot.delivery._fence import Fence
from bot.delivery._pieces import DONE, PLAN, SENT_TTL_S, DeliveryRecord, plan_json
from bot.delivery._replicas import NotReplicated, Replication
from bot.delivery.handoff import OFFERED, OUTCOMES_MAXLEN
from bot.delivery.policy import MESSAGE_QUOTA, Allowance, QuotaState
from bot.redis_client import RedisClient, run_script
from runtime import keys


@dataclass(frozen=True)
class UserSnapshot:
    """What a delivery reads about a user and one message, read in one round trip."""

    handoff_state: str
    parked: list[str]
    flags: dict[str, bool]
    quota: QuotaState
    record: DeliveryRecord = field(default_factory=DeliveryRecord)
    open_passive: str = ""  # the message whose passive reply was handed to a request, not settled yet


@dataclass(frozen=True)
class Settlement:
    """How a piece settles, written in one step with it: the outcome recorded, and optionally the
    text parked, an allowance spent, a flag set, and (its delivery's last piece) the carried parked
    texts removed."""

    channel: str
    status: str
    code: int = 0
    size: int = 0
    park: str | None = None
    spend: Allowance | None = None
    flag: str | None = None
    last: bool = False
    carried: tuple[str, ...] = ()


class DeliveryStore:
    """The per-user delivery records in Redis."""

    def __init__(self, redis: RedisClient, replication: Replication | None = None) -> None:
        self._redis = redis
        self.replication = replication if replication is not None else Replication(redis)

    # -- reads --------------------------------------------------------------------------------------

    def snapshot(self, user: str, message_key: str) -> UserSnapshot:
        """Hand-off state, parked texts, flags, quota and the delivery's record: one round trip."""
        pipe = self._redis.pipeline(transaction=False)
        self.queue_snapshot(pipe, user, message_key)
        return parse_snapshot(pipe.execute())

    def queue_snapshot(self, pipe: Any, user: str, message_key: str) -> None:
        """Queue :meth:`snapshot`'s reads on ``pipe``; :func:`parse_snapshot` reads their five replies."""
        pipe.hget(keys.handoff(user, message_key), "state")
        pipe.lrange(keys.parked(user), 0, -1)
        pipe.hgetall(keys.user_flags(user))
        pipe.hgetall(keys.quota(user))
        pipe.hgetall(keys.part_sent(user, message_key))

    def quota(self, user: str) -> QuotaState:
        return _quota(self._redis.hgetall(keys.quota(user)))

    def flags(self, user: str) -> dict[str, bool]:
        return _flags(self._redis.hgetall(keys.user_flags(user)))

    def parked(self, user: str) -> list[str]:
        return [_b(v) for v in self._redis.lrange(keys.parked(user), 0, -1)]

    def record_of(self, user: str, message_key: str) -> DeliveryRecord:
        return DeliveryRecord.from_fields(self._redis.hgetall(keys.part_sent(user, message_key)))

    def outcomes(self, user: str) -> list[dict[str, str]]:
        return [{_b(k): _b(v) for k, v in fields.items()} for _, fields in self._redis.xrange(keys.outcomes(user))]

    def template_message_key(self, user: str, msgid: str) -> str:
        value = self._redis.hget(keys.template_jobs(user), msgid)
        return _b(value) if value else ""

    # -- a delivery's steps -------------------------------------------------------------------------

    def begin(self, user: str, message_key: str, pieces: list[str], carried: tuple[str, ...],
              states: dict[str, str]) -> DeliveryRecord:
        """Store the delivery's pieces (and the parked texts it carries) unless it started before;
        the record to go on with either way."""
        plan = run_script(self._redis, lua.BEGIN, [keys.part_sent(user, message_key)],
                          [plan_json(pieces, carried), SENT_TTL_S])
        return DeliveryRecord.from_plan(_b(plan), states)

    def claim(self, user: str, message_key: str, piece_id: str, fence: Fence | None = None,
              channel: str = "") -> str:
        """Claim a piece before its API call: ``first``, ``done`` (settled before), ``uncertain`` or
        ``lost`` (``fence`` given and its lease is no longer held by its token: nothing changed).

        ``uncertain``: an earlier attempt claimed it and died before settling it — it may or may not
        have reached WeChat; recorded as ``resent_uncertain``, and the caller sends it again.

        With replicas to wait for (:mod:`bot.delivery._replicas`), the claim is held by them before
        this returns, or withdrawn and :class:`NotReplicated` raised.
        """
        lease, token = (fence.key, fence.token) if fence is not None else (keys.lease(user), "")
        call = [keys.part_sent(user, message_key), lease, keys.outcomes(user)], \
            [piece_id, SENT_TTL_S, token, message_key, channel, _now(), OUTCOMES_MAXLEN]
        wanted = self.replication.wanted()
        if wanted <= 0:
            return _b(run_script(self._redis, lua.CLAIM, *call))
        for _ in range(2):  # NOSCRIPT (e.g. after a restart or a fail-over): load it, try once more
            pipe = self._redis.pipeline(transaction=False)  # one connection: WAIT covers the claim
            pipe.evalsha(lua.CLAIM_SHA, len(call[0]), *call[0], *call[1])
            pipe.wait(wanted, self.replication.timeout_ms)
            claimed, confirmed = pipe.execute(raise_on_error=False)
            if not isinstance(claimed, NoScriptError):
                break
            client: Any = self._redis
            client.script_load(lua.CLAIM)
        for reply in (claimed, confirmed):
            if isinstance(reply, Exception):
                raise reply
        status = _b(claimed)
        if int(confirmed) < wanted and status in ("first", "uncertain"):
            if status == "first":  # nothing was sent: the claim goes, so no re-run takes it for a send
                run_script(self._redis, lua.UNCLAIM, [keys.part_sent(user, message_key)], [piece_id])
            raise NotReplicated(wanted, int(confirmed))
        return status

    def settle(self, user: str, message_key: str, piece_id: str, how: Settlement | None = None) -> None:
        """The piece is settled (sent, parked, dropped or refused), with what ``how`` says, in one step:
        a re-run skips it."""
        record = keys.part_sent(user, message_key)
        pipe = self._redis.pipeline(transaction=True)
        pipe.hset(record, piece_id, "park" if how is not None and how.park is not None
                  else how.channel if how is not None else "1")
        pipe.expire(record, SENT_TTL_S)
        if how is not None:
            if how.last:
                pipe.hset(record, PLAN, DONE)
                for text in how.carried:
                    pipe.lrem(keys.parked(user), 1, text)
            if how.park is not None:
                pipe.rpush(keys.parked(user), how.park)
            if how.spend is not None:
                pipe.hincrby(keys.quota(user), f"{how.spend.value}_used", 1)
            if how.flag is not None:
                pipe.hset(keys.user_flags(user), how.flag, "1")
            self._queue_record(pipe, user, message_key, how.channel, how.status, how.code, how.size)
        pipe.execute()

    def blocked(self, user: str, message_key: str, piece_id: str, channel: str, code: int, size: int) -> None:
        """WeChat said 45015/45047 to a piece's custom message: it is not claimed any more, both
        allowances count as used up until the user writes again, and the refusal is recorded."""
        pipe = self._redis.pipeline(transaction=True)
        pipe.hdel(keys.part_sent(user, message_key), piece_id)
        pipe.hset(keys.quota(user), mapping={"message_used": MESSAGE_QUOTA, "interaction_used": 99})
        self._queue_record(pipe, user, message_key, channel, "blocked", code, size)
        pipe.execute()

    def uncertain(self, user: str, message_key: str, channel: str, code: int, size: int,
                  spend: Allowance | None) -> None:
        """A send whose outcome is unknown (it may have reached the user): recorded, and the allowance
        counted as spent."""
        pipe = self._redis.pipeline(transaction=True)
        if spend is not None:
            pipe.hincrby(keys.quota(user), f"{spend.value}_used", 1)
        self._queue_record(pipe, user, message_key, channel, "uncertain", code, size)
        pipe.execute()

    # -- the user's facts ---------------------------------------------------------------------------

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

    def set_flag(self, user: str, name: str, on: bool = True) -> None:
        if on:
            self._redis.hset(keys.user_flags(user), name, "1")
        else:
            self._redis.hdel(keys.user_flags(user), name)

    def park(self, user: str, text: str) -> None:
        self._redis.rpush(keys.parked(user), text)

    def remember_template(self, user: str, msgid: int, message_key: str) -> None:
        self._redis.hset(keys.template_jobs(user), str(msgid), message_key)

    def record(self, user: str, message_key: str, channel: str, status: str, code: int = 0,
               size: int = 0) -> None:
        """Append one outcome to the user's ``outcomes`` stream."""
        self._queue_record(self._redis, user, message_key, channel, status, code, size)

    def _queue_record(self, target: Any, user: str, message_key: str, channel: str, status: str, code: int,
                      size: int) -> None:
        target.xadd(keys.outcomes(user), {"msg": message_key, "channel": channel, "status": status, "code": code,
                                          "bytes": size, "at": _now()},
                    maxlen=OUTCOMES_MAXLEN, approximate=True)


def parse_snapshot(replies: list[Any]) -> UserSnapshot:
    """The snapshot from the five replies :meth:`DeliveryStore.queue_snapshot` queued (an error reply
    is raised: a delivery never runs on a partial view)."""
    for reply in replies:
        if isinstance(reply, Exception):
            raise reply
    state, parked, flags, quota, record = replies
    return UserSnapshot(_b(state) if state is not None else "", [_b(v) for v in parked],
                        _flags(flags), _quota(quota), DeliveryRecord.from_fields(record), _f(flags, OFFERED) or "")


def parse_offer_reads(reads: list[Any]) -> UserSnapshot:
    """The snapshot the hand-off's offer read instead of offering (state, parked, flags, quota and
    record: :meth:`bot.delivery.handoff.Handoff.read_offer`)."""
    state, parked, flags, quota, record = reads
    return UserSnapshot(_b(state) if state else "", [_b(v) for v in parked], _flags(_pairs(flags)),
                        _quota(_pairs(quota)), DeliveryRecord.from_fields(_pairs(record)),
                        _f(_pairs(flags), OFFERED) or "")


def _now() -> str:
    return f"{time.time():.3f}"


def _f(raw: dict[Any, Any], name: str) -> str | None:
    value = raw.get(name.encode()) if raw and isinstance(next(iter(raw)), bytes) else raw.get(name)
    if value is None:
        return None
    return value.decode() if isinstance(value, bytes) else str(value)


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
