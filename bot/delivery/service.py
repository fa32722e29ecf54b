"""The delivery service: one place every outgoing message goes through (replies and pushes).

A delivery fixes its pieces when it starts (:mod:`bot.delivery._pieces`): the parked texts it
carries and its own texts, packed. Each piece then settles in one atomic step — sent, parked,
dropped or refused, and recorded — and the carried parked texts leave the parked list in the step
that settles the delivery's last piece. A re-run of the same message (or push) key goes on with the
stored pieces, so nothing is packed differently, sent twice unrecorded, or forgotten.

A piece whose API call ended with no known outcome (:mod:`bot.delivery._uncertain`) is recorded
``uncertain`` and sent again once at once (:func:`bot.delivery.policy.uncertain_resends`); a piece
found claimed by an attempt that died inside the call is recorded ``resent_uncertain`` and sent
again. A user can get a message twice only in those two cases, and each is recorded.

A passive piece is handed to the webhook request waiting for it (:mod:`bot.delivery.handoff`) and is
recorded as sent by the request that answers with it in time. The user's next delivery under the
lease first settles that reply: it waits while a request can still answer with it, and sends it
through the API itself once none can — so the user gets the replies in order.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from bot.delivery._fence import Fence, LeaseLost
from bot.delivery._outcome import Outcome, Started, channel_of
from bot.delivery._pieces import DeliveryRecord, piece_ids, pieces_for, settled
from bot.delivery._replicas import Replication
from bot.delivery._store import DeliveryStore, Settlement, UserSnapshot
from bot.delivery._uncertain import outcome_unknown
from bot.delivery.handoff import Handoff
from bot.delivery.policy import (
    Channel,
    DeliveryFacts,
    Step,
    after_api_block,
    assign,
    uncertain_resends,
)
from bot.delivery.turn import PendingStart, TurnDelivery, queue_start
from bot.redis_client import RedisClient
from bot.wechat.api import WeChatAPI
from bot.wechat.errors import OutsideWindow, QuotaExceeded, UserRefused, WeChatAPIError

log = logging.getLogger(__name__)
OPEN_WAIT_S = 8.0  # longest a delivery waits for the passive reply before it (its limits are ≤ 5 s + grace)


@dataclass(frozen=True)
class TemplateConfig:
    """Template / subscribe message fallbacks; ``field`` is the data key the text goes into."""

    template_id: str | None = None
    template_field: str = "content"
    subscribe_template_id: str | None = None
    subscribe_field: str = "thing1"


@dataclass(frozen=True)
class _Piece:
    """One pending piece of a delivery: its id, its step, and whether it is the delivery's last."""

    pid: str
    step: Step
    last: bool
    carried: tuple[str, ...]  # the parked texts its delivery carries (dropped when the last settles)

    def settles(self, channel: str, status: str, code: int = 0, **kw: Any) -> Settlement:
        return Settlement(channel, status, code, len(self.step.text.encode()), last=self.last,
                          carried=self.carried if self.last else (), **kw)


class DeliveryService:
    """Deliver texts to a user by the policy in :mod:`bot.delivery.policy`, recording every outcome."""

    def __init__(self, redis: RedisClient, api: WeChatAPI, *, templates: TemplateConfig | None = None,
                 clock: Callable[[], float] = time.time, replicas: int = 0, replica_timeout_ms: int = 500) -> None:
        """``replicas``: how many replicas must hold a piece's claim before its API call (the
        ``REDIS_WAIT_REPLICAS`` the webhook also uses; :mod:`bot.delivery._replicas`)."""
        self.store = DeliveryStore(redis, Replication(redis, replicas, replica_timeout_ms))
        self.handoff = Handoff(redis)
        self._api = api
        self._templates = templates or TemplateConfig()
        self._clock = clock

    @property
    def api(self) -> WeChatAPI:
        """The WeChat API this service sends through (the worker also uses it for typing)."""
        return self._api

    def for_turn(self, user: str, message_key: str) -> TurnDelivery:
        """The delivery of the replies to ``message_key``, as the worker's turn drives it: the one
        entry the turn calls (:mod:`bot.delivery.turn`)."""
        return TurnDelivery(self.store, self.handoff, self._api, self.deliver, user, message_key)

    def queue_start(self, pipe: Any, user: str, message_key: str, texts: list[str],
                    saved_by: str | None = None) -> PendingStart:
        """Queue the start of :meth:`deliver` on ``pipe`` (the caller's pipeline, executed next): the
        snapshot reads; or, when ``texts`` make one piece, its atomic offer as the whole delivery,
        which reads the snapshot instead when it cannot be offered. Pass ``start.read(replies)`` (the
        replies from ``start.index`` on) to :meth:`deliver` as ``started``. ``saved_by``: the offer
        happens only if this key exists then (the turn's marker, written earlier on ``pipe`` only
        once the turn is stored); else ``start.read`` finds nothing started."""
        return queue_start(self.store, self.handoff, pipe, user, message_key, texts, saved_by)

    def deliver(self, user: str, message_key: str, texts: list[str], *, passive: bool | None = None,
                snapshot: UserSnapshot | None = None, started: Started | None = None,
                fence: Fence | None = None, carry_parked: bool = True, record_on: Any = None) -> list[Outcome]:
        """Deliver ``texts`` produced for ``message_key`` (a push uses its own key).

        ``passive`` defaults to "a webhook is still waiting for this message". ``snapshot``: the
        user's facts, when the caller read them itself (in a pipeline of its own) just before;
        ``started``: what :meth:`queue_start` found (a passive piece settled, or the snapshot).
        ``fence``: the user's lease the delivery runs under: once it is lost nothing more is sent
        (:class:`LeaseLost` is raised; the new holder re-runs the message). ``carry_parked``: the
        delivery runs under the user's lease, in the user's order: the passive reply still open
        before it is settled first, and the user's parked texts go first (pushes and late replies
        pass False). ``record_on``: a pipeline the caller executes next, where a delivery that keeps a
        transcript queues its records (:class:`bot.delivery.transcribed.TranscribedDelivery`; this
        one keeps none).
        """
        if started is not None and started.outcome is not None:
            return [started.outcome]
        if started is not None and started.snapshot is not None:
            snapshot = started.snapshot
        snap = snapshot if snapshot is not None else self.store.snapshot(user, message_key)  # one round trip
        record = snap.record
        if record.done:
            return [Outcome(channel_of(c), "duplicate", "") for c in record.settled_channels()]
        if carry_parked and snap.open_passive and snap.open_passive != message_key:
            self._settle_open(user, snap.open_passive, fence)  # the reply before this one goes first
            snap = self.store.snapshot(user, message_key)
            record = snap.record
        if record.pieces is None:
            carried = tuple(snap.parked) if carry_parked else ()
            pieces = pieces_for(carried, texts)
            if not pieces:
                return []
            record = self.store.begin(user, message_key, pieces, carried, dict(record.states))
        flags = snap.flags
        facts = DeliveryFacts(
            texts=(), now=self._clock(), quota=snap.quota, passive=snap.handoff_state == "waiting"
            if passive is None else passive, template_id=self._templates.template_id,
            subscribe_template_id=self._templates.subscribe_template_id,
            unsubscribed=flags["unsubscribed"], refused=flags["refused"],
        )
        return self._run(user, message_key, record, facts, fence)

    def _run(self, user: str, message_key: str, record: DeliveryRecord, facts: DeliveryFacts,
             fence: Fence | None) -> list[Outcome]:
        assert record.pieces is not None
        outcomes = [Outcome(channel_of(record.states.get(pid, "")), "duplicate", text)
                    for pid, text in zip(piece_ids(record.pieces), record.pieces, strict=True)
                    if settled(record.states.get(pid))]
        pending = record.pending()
        steps = list(assign(facts, [text for _, text in pending]).steps)
        offered = False  # a piece of this delivery waits for a request to answer with it
        i = 0
        while i < len(pending):
            piece = _Piece(pending[i][0], steps[i], i == len(pending) - 1, record.carried)
            channel = piece.step.channel
            if channel is Channel.PASSIVE:  # offered, settled and recorded in one atomic step
                status = self.handoff.offer_passive(user, message_key, piece.pid, piece.step.text, last=piece.last,
                                                    carried=piece.carried if piece.last else ())
                if status == "lost":  # nobody waits any more: the rest goes through the API
                    facts = replace(facts, passive=False)
                    steps[i:] = assign(facts, [text for _, text in pending[i:]]).steps
                    continue
                offered = offered or status == "offered"
                outcomes.append(Outcome(channel, "offered" if status == "offered" else "duplicate", piece.step.text))
            elif channel in (Channel.PARK, Channel.DROP):
                status = "parked" if channel is Channel.PARK else "dropped"
                self.store.settle(user, message_key, piece.pid, piece.settles(
                    channel, status, park=piece.step.text if channel is Channel.PARK else None))
                outcomes.append(Outcome(channel, status, piece.step.text))
            else:
                if offered:  # the passive piece reaches the user first
                    self._settle_open(user, message_key, fence)
                    offered = False
                done, ending = self._api_step(user, message_key, piece, fence)
                outcomes += done
                if ending == "blocked":  # 45015/45047: the same piece and the rest, without custom
                    facts = replace(facts, passive=False, api_blocked=True)
                    steps[i:] = after_api_block(facts, [text for _, text in pending[i:]]).steps
                    continue
                if ending == "refused":  # 43101: the user refused: nothing more goes out
                    steps[i + 1:] = [Step(Channel.DROP, s.text) for s in steps[i + 1:]]
            i += 1
        return outcomes

    def _settle_open(self, user: str, message_key: str, fence: Fence | None) -> None:
        """Settle the user's open passive reply of ``message_key``: wait while a request may still
        answer with it (or confirm its answer), then send it through the API if nobody will — at most
        ``OPEN_WAIT_S``: a late-delivery job that holds it meanwhile delivers it on its own."""
        give_up = time.monotonic() + OPEN_WAIT_S
        pause = 0.002
        while True:
            state, value = self.handoff.take_over(user, message_key)
            if state == "late":
                log.info("passive reply of %s not taken in time; sent through the API in order", message_key)
                self.deliver_late(user, message_key, value, fence=fence)
                return
            left = give_up - time.monotonic()
            if state != "wait":
                return
            if left <= 0:
                log.warning("passive reply of %s still open after %.0f s; going on", message_key, OPEN_WAIT_S)
                return
            if fence is not None:
                fence.ensure()
            time.sleep(min(pause, float(value), left))
            pause = min(pause * 2, 0.05)

    def deliver_late(self, user: str, message_key: str, text: str, *, fence: Fence | None = None) -> None:
        """Send the passive reply ``text`` of ``message_key`` that nobody answered with through the API
        (deduped by its own key: a re-run sends nothing twice unrecorded), then settle its hand-off:
        nobody hands it out again."""
        self.deliver(user, f"{message_key}:late", [text], passive=False, carry_parked=False, fence=fence)
        self.handoff.sent_late(user, message_key)

    def _api_step(self, user: str, message_key: str, piece: _Piece, fence: Fence | None) -> tuple[list[Outcome], str]:
        """Send one piece through the API; its outcomes and how it ended: ``settled``, ``blocked`` (not
        settled: re-plan it) or ``refused``."""
        step = piece.step
        if fence is not None:
            fence.ensure()  # before the claim: a stopped turn never leaves a piece claimed
        claim = self.store.claim(user, message_key, piece.pid, fence, step.channel)
        if claim == "lost":
            raise LeaseLost(user)
        if claim == "done":
            return [Outcome(step.channel, "duplicate", step.text)], "settled"
        out: list[Outcome] = []
        if claim == "uncertain":  # the last attempt died inside the call (recorded by the claim)
            log.warning("resending a piece of %s whose first send had no known outcome", message_key)
            out.append(Outcome(step.channel, "resent_uncertain", step.text))
        unknown = 0
        while True:
            try:
                self._call(user, message_key, step)
            except (OutsideWindow, QuotaExceeded) as exc:
                if step.channel is Channel.CUSTOM:
                    self.store.blocked(user, message_key, piece.pid, step.channel, exc.code, len(step.text.encode()))
                    return out + [Outcome(step.channel, "blocked", step.text, exc.code)], "blocked"
                return out + [self._park_failed(user, message_key, piece, exc)], "settled"
            except UserRefused as exc:
                self.store.settle(user, message_key, piece.pid, piece.settles(step.channel, "refused", exc.code,
                                                                               flag="refused"))
                return out + [Outcome(step.channel, "refused", step.text, exc.code)], "refused"
            except WeChatAPIError as exc:
                if not outcome_unknown(exc):
                    return out + [self._park_failed(user, message_key, piece, exc)], "settled"
                unknown += 1
                log.warning("send via %s of %s had no known outcome (%s)", step.channel, message_key, exc.code)
                self.store.uncertain(user, message_key, step.channel, exc.code, len(step.text.encode()),
                                     step.allowance)
                out.append(Outcome(step.channel, "uncertain", step.text, exc.code))
                if not uncertain_resends(unknown):
                    return out + [self._park_failed(user, message_key, piece, exc, recorded=True)], "settled"
                if fence is not None:
                    fence.ensure()
                continue
            self.store.settle(user, message_key, piece.pid, piece.settles(step.channel, "sent", spend=step.allowance))
            return out + [Outcome(step.channel, "sent", step.text)], "settled"

    def _call(self, user: str, message_key: str, step: Step) -> None:
        t = self._templates
        if step.channel is Channel.CUSTOM:
            self._api.send_text(user, step.text)
        elif step.channel is Channel.TEMPLATE and t.template_id:
            msgid = self._api.send_template(user, t.template_id, {t.template_field: step.text})
            self.store.remember_template(user, msgid, message_key)
        elif step.channel is Channel.SUBSCRIBE and t.subscribe_template_id:
            self._api.send_subscribe(user, t.subscribe_template_id, {t.subscribe_field: step.text})

    def _park_failed(self, user: str, message_key: str, piece: _Piece, exc: WeChatAPIError, *,
                     recorded: bool = False) -> Outcome:
        """WeChat is down or refused for another reason: keep the text for the next touch."""
        log.warning("delivery via %s failed with %s; parked", piece.step.channel, exc.code)
        status = "parked" if recorded else "failed"  # an unknown outcome was recorded already
        self.store.settle(user, message_key, piece.pid, piece.settles(piece.step.channel, status, exc.code,
                                                                       park=piece.step.text))
        return Outcome(Channel.PARK, "parked", piece.step.text, exc.code)
