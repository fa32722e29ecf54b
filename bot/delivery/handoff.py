"""The passive-reply hand-off between webhook requests waiting for a reply and the worker (atomic in Lua).

States of one message: ``waiting`` (a webhook request may still answer it) → ``ready`` (the worker
put the reply there) → ``taken`` (a request took it to answer with) → ``delivered`` (that answer was
written while WeChat still waited for it: recorded ``passive|sent``). Or ``released`` (nobody waits
any more: the worker delivers through the API) / ``released_ready`` (a reply nobody could answer
with in time: it goes through the API) → ``sent_late`` (that delivery settled).

Each webhook request is an :class:`Attempt` with limits derived from when it reached the host (not
when its handler ran): a worker offers a reply only to a request that can still take it
(``offer_by``), a request takes a ready reply only while WeChat still waits for it (``claim_by``), and
an answer counts as delivered only if it was written in time (``write_by``). WeChat's next attempt
of a message whose answer was not confirmed in time takes the reply back; a reply nobody can answer
with any more is sent through the API by the worker that delivers the user's next reply (so per-user
order holds), or by the sweeper.

This module owns the hand-off's state: its keys, and every script that writes it (in
:mod:`bot.delivery._handoff_lua`, imported by this module only) — the webhook's, the sweeper's, the
delivery's passive offers, and the hand-off side of a message's admit (:data:`ADMIT_LUA`, which the
mailbox's admit script is composed with).

A ``released_ready`` hand-off stays on the deadline list, due again ``LATE_RETRY_S`` later, until
its delivery settles: a late-delivery job lost with a killed worker is handed out again, and the
delivery, deduped by its key, sends nothing twice unrecorded.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any, NamedTuple

from redis.exceptions import NoScriptError

from bot.delivery import _handoff_lua as lua
from bot.delivery._pieces import SENT_TTL_S
from bot.redis_client import Call, RedisClient, run_script, script_sha
from bot.redis_client import text as _s
from runtime import keys

HANDOFF_TTL_S = 900
LATE_RETRY_S = 60.0  # a released reply whose delivery has not settled by then is handed out again
CONFIRM_GRACE_S = 2.0  # after its write_by, an answer's confirmation may still come this late
OUTCOMES_MAXLEN = 500
OFFERED = "offered"  # the field of the user's flags naming the open passive reply
ADMIT_LUA = lua.ADMIT  # the hand-off side of a message's admit: see :func:`admit_section`
ACCEPT_LUA = lua.ACCEPT  # the same for a script of one user's keys only: see :func:`accept_section`
OFFER_OR_READ = lua.OFFER_OR_READ  # the one-piece delivery's offer (:meth:`Handoff.queue_offer_or_read`)
_OFFER_OR_READ_SHA = script_sha(OFFER_OR_READ)


@dataclass(frozen=True)
class Attempt:
    """One webhook request that may answer with the reply: its ``token`` and, in epoch seconds, when
    it reached the host and until when a reply may be offered to it, taken by it, and written by it."""

    token: str
    arrived: float
    offer_by: float
    claim_by: float
    write_by: float

    @classmethod
    def of(cls, arrived: float, *, wait_s: float, answer_s: float) -> Attempt:
        """A request that arrived at ``arrived`` (epoch), waits ``wait_s`` and must be answered within
        ``answer_s`` (WeChat's patience): the margin between them is split in three."""
        margin = max(0.0, answer_s - wait_s) / 3
        return cls(os.urandom(6).hex(), arrived, arrived + wait_s, arrived + wait_s + margin,
                   arrived + answer_s - margin)

    def args(self) -> list[str]:
        return [self.token, _t(self.arrived), _t(self.claim_by), _t(self.write_by)]


def _t(value: float) -> str:
    return f"{value:.6f}"


def _member(user: str, message_key: str) -> str:
    return f"{user}|{message_key}"


def admit_section(user: str, message_key: str, *, waits: bool, deadline: float, at: float,
                  attempt: Attempt | None = None) -> tuple[list[str], list[Any]]:
    """The keys and args of :data:`ADMIT_LUA` (no I/O): they come first in a script composed with it,
    the composing script's own follow (four keys, twelve args). ``waits=False``: the hand-off opens
    ``released`` (nobody answers); ``attempt``: the waiting request's limits (without, a reply
    offered is never too late for it); ``at``: when the message was admitted."""
    times = ([attempt.token, _t(attempt.arrived), _t(attempt.offer_by), _t(attempt.claim_by), _t(attempt.write_by)]
             if attempt is not None and waits else ["", "", "", "", ""])
    return ([keys.handoff(user, message_key), keys.handoff_deadlines(), keys.outcomes(user), keys.user_flags(user)],
            [HANDOFF_TTL_S, "waiting" if waits else "released", repr(deadline), _member(user, message_key), *times,
             message_key, OUTCOMES_MAXLEN, repr(at)])


def accept_section(user: str, message_key: str, *, waits: bool) -> tuple[list[str], list[Any]]:
    """The keys and args of :data:`ACCEPT_LUA` (no I/O), first in a script composed with it (one key,
    two args): one user's keys only. A new waiting hand-off then goes on the deadline list with
    :meth:`Handoff.queue_due`."""
    return [keys.handoff(user, message_key)], [HANDOFF_TTL_S, "waiting" if waits else "released"]


def claim_call(user: str, message_key: str, attempt: Attempt) -> Call:
    """The request's look: ``("taken", text)`` when the reply was ready and is now its own, ``("late",
    "")`` when it was ready but the request can no longer answer with it, ``("other", "")`` when
    another request took it, else ``(state, "")``."""
    return Call(lua.CLAIM, [keys.handoff(user, message_key)], attempt.args())


def release_call(user: str, message_key: str, attempt: Attempt | None = None) -> Call:
    """The script call of :meth:`Handoff.release`; with ``attempt``, a ready reply is taken by it when
    it still can."""
    args = attempt.args() if attempt is not None else ["", "", "", ""]
    return Call(lua.RELEASE, [keys.handoff(user, message_key), keys.handoff_deadlines()],
                [_member(user, message_key), keys.replies_channel(), *args])


def confirm_call(user: str, message_key: str, attempt: Attempt, *, in_time: bool, last: bool, size: int) -> Call:
    """After the taker wrote its answer: ``sent`` (in time), ``uncertain`` (given back) or ``moved``."""
    return Call(lua.CONFIRM, [keys.handoff(user, message_key), keys.outcomes(user), keys.user_flags(user),
                              keys.handoff_deadlines()],
                [attempt.token, "1" if in_time else "0", "1" if last else "0", message_key, size, _t(time.time()),
                 OUTCOMES_MAXLEN, _member(user, message_key), keys.replies_channel()])


def _offer_args(user: str, message_key: str, piece_id: str, text: str) -> list[Any]:
    return [piece_id, text, SENT_TTL_S, message_key, len(text.encode()), f"{time.time():.3f}", OUTCOMES_MAXLEN,
            keys.replies_channel(), _member(user, message_key)]


def state_text(reply: list[bytes | str]) -> tuple[str, str]:
    """A ``{state, text}`` script reply as strings."""
    return _s(reply[0]), _s(reply[1])


class Opened(NamedTuple):
    """The state a webhook attempt found: ``first`` is True only for the first delivery; ``text`` is
    the reply when this attempt took it back from an earlier one that could not answer with it."""

    state: str
    attempt: int
    text: str = ""

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
            self._redis, lua.OPEN, [keys.handoff(user, message_key), keys.handoff_deadlines()],
            [HANDOFF_TTL_S, deadline, _member(user, message_key)],
        )
        return Opened(_s(state), int(attempt))

    def queue_due(self, pipe: Any, user: str, message_key: str, deadline: float) -> None:
        """Queue on ``pipe`` the release ``deadline`` of a hand-off opened by :data:`ACCEPT_LUA`."""
        pipe.zadd(keys.handoff_deadlines(), {_member(user, message_key): deadline})

    def state(self, user: str, message_key: str) -> str:
        return _s(self._redis.hget(keys.handoff(user, message_key), "state"))

    def offer(self, user: str, message_key: str, text: str) -> bool:
        """Worker: hand ``text`` to the waiting request; False if none can take it any more."""
        return bool(run_script(self._redis, lua.OFFER, [keys.handoff(user, message_key)],
                               [text, keys.replies_channel(), _member(user, message_key)]))

    def offer_passive(self, user: str, message_key: str, piece_id: str, text: str, *, last: bool = False,
                      carried: tuple[str, ...] = ()) -> str:
        """Delivery: offer one piece of a started delivery, settled in its record in the same step.
        ``done`` (settled before), ``offered`` (handed to the waiting request and settled; with
        ``last`` the delivery is done and its ``carried`` parked texts are dropped) or ``lost``
        (no request can take it any more: nothing changed)."""
        return _s(run_script(
            self._redis, lua.OFFER_PASSIVE,
            [keys.part_sent(user, message_key), keys.handoff(user, message_key), keys.outcomes(user),
             keys.parked(user), keys.user_flags(user)],
            [*_offer_args(user, message_key, piece_id, text), "1" if last else "0", *carried],
        ))

    def queue_offer_or_read(self, pipe: Any, user: str, message_key: str, piece_id: str, text: str,
                            saved_by: str | None = None) -> None:
        """Delivery: queue on ``pipe`` the offer of ``text`` as the whole delivery if a webhook waits,
        nothing is parked and the delivery has not started; else the reads a delivery plans from.
        ``saved_by``: a key that must exist (the turn's marker, written earlier in the same pipeline
        only if the turn was stored), else nothing happens. :meth:`read_offer` reads the reply."""
        guard = (saved_by,) if saved_by is not None else ()
        pipe.evalsha(
            _OFFER_OR_READ_SHA, 6 + len(guard), keys.part_sent(user, message_key), keys.handoff(user, message_key),
            keys.outcomes(user), keys.parked(user), keys.user_flags(user), keys.quota(user), *guard,
            *_offer_args(user, message_key, piece_id, text),
        )

    def read_offer(self, reply: Any) -> str | list[Any] | None:
        """The reply of :meth:`queue_offer_or_read`: ``offered``; the reads when it was not offered
        (hand-off state, parked texts, flags, quota, the delivery's record); or None when nothing ran
        (the script was unknown to the server — loaded now, e.g. after a restart — or ``saved_by``
        was absent). An error reply is raised."""
        if isinstance(reply, NoScriptError):
            client: Any = self._redis
            client.script_load(OFFER_OR_READ)  # the next turn finds it
            return None
        if isinstance(reply, Exception):
            raise reply
        status = _s(reply[0])
        if status == "unsaved":
            return None
        return list(reply[1:]) if status == "read" else status

    def poll(self, user: str, message_key: str, attempt: Attempt) -> tuple[str, str]:
        """Webhook: :func:`claim_call`."""
        return state_text(run_script(self._redis, *claim_call(user, message_key, attempt)))

    def confirm(self, user: str, message_key: str, attempt: Attempt, *, in_time: bool, last: bool = True,
                size: int = 0) -> str:
        """Webhook, after ``attempt`` wrote its answer: :func:`confirm_call`."""
        return _s(run_script(self._redis, *confirm_call(user, message_key, attempt, in_time=in_time, last=last,
                                                        size=size)))

    def release(self, user: str, message_key: str, attempt: Attempt | None = None) -> tuple[str, str]:
        """Stop waiting. Returns ``(state, text)``: ``taken`` (``attempt`` took the ready reply),
        ``released_ready`` (``text`` goes through the API), ``released`` …"""
        return state_text(run_script(self._redis, *release_call(user, message_key, attempt)))

    def release_late(self, user: str, message_key: str, now: float) -> tuple[str, str]:
        """The sweeper's release: like :meth:`release`, but a ready reply (or one released before whose
        delivery has not settled, or one taken by an answer never confirmed) is returned for the API
        path and kept due again ``LATE_RETRY_S`` on."""
        return state_text(run_script(
            self._redis, lua.RELEASE_LATE,
            [keys.handoff(user, message_key), keys.handoff_deadlines(), keys.outcomes(user)],
            [_member(user, message_key), keys.replies_channel(), now + LATE_RETRY_S, message_key, _t(time.time()),
             OUTCOMES_MAXLEN, CONFIRM_GRACE_S, now]))

    def take_over(self, user: str, message_key: str) -> tuple[str, str]:
        """The user's next delivery looks at the passive reply still open before it: ``("settled", "")``,
        ``("wait", seconds)`` or ``("late", text)`` — this worker sends ``text`` through the API now."""
        return state_text(run_script(
            self._redis, lua.TAKE_OVER,
            [keys.handoff(user, message_key), keys.handoff_deadlines(), keys.outcomes(user), keys.user_flags(user)],
            [_member(user, message_key), message_key, CONFIRM_GRACE_S, time.time() + LATE_RETRY_S, _t(time.time()),
             OUTCOMES_MAXLEN]))

    def sent_late(self, user: str, message_key: str) -> None:
        """The late delivery of a released reply settled: it is not handed out again."""
        run_script(self._redis, lua.SENT_LATE,
                   [keys.handoff(user, message_key), keys.handoff_deadlines(), keys.user_flags(user)],
                   [_member(user, message_key), message_key])

    def due(self, now: float, limit: int = 100) -> list[tuple[str, str]]:
        """Hand-offs whose deadline passed, as ``(user, message_key)``."""
        members = self._redis.zrangebyscore(keys.handoff_deadlines(), "-inf", now, start=0, num=limit)
        out = []
        for member in members:
            user, _, message_key = _s(member).partition("|")
            out.append((user, message_key))
        return out
