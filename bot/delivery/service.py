"""The delivery service: one place every outgoing message goes through (replies and pushes)."""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from bot._webhook_redis import RedisClient
from bot.delivery._fence import Fence, LeaseLost
from bot.delivery._store import DeliveryStore, UserSnapshot, parse_snapshot
from bot.delivery.handoff import Handoff
from bot.delivery.policy import Channel, DeliveryFacts, DeliveryPlan, Step, after_api_block, decide
from bot.wechat.api import WeChatAPI
from bot.wechat.errors import OutsideWindow, QuotaExceeded, UserRefused, WeChatAPIError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Outcome:
    """What happened to one piece of text."""

    channel: Channel
    status: str  # sent | parked | dropped | refused | failed | duplicate
    text: str
    code: int = 0


@dataclass(frozen=True)
class TemplateConfig:
    """Template / subscribe message fallbacks; ``field`` is the data key the text goes into."""

    template_id: str | None = None
    template_field: str = "content"
    subscribe_template_id: str | None = None
    subscribe_field: str = "thing1"


class DeliveryService:
    """Deliver texts to a user by the policy in :mod:`bot.delivery.policy`, recording every outcome."""

    def __init__(self, redis: RedisClient, api: WeChatAPI, *, templates: TemplateConfig | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = DeliveryStore(redis)
        self.handoff = Handoff(redis)
        self._api = api
        self._templates = templates or TemplateConfig()
        self._clock = clock

    @property
    def api(self) -> WeChatAPI:
        """The WeChat API this service sends through (the worker also uses it for typing)."""
        return self._api

    def queue_start(self, pipe: Any, user: str, message_key: str, texts: list[str]) -> PendingStart:
        """Queue the start of :meth:`deliver` on ``pipe`` (the caller's pipeline, executed next): the
        snapshot reads; or, when ``texts`` would go out as one passive piece, the atomic offer of that
        piece that reads the snapshot instead only when it cannot be offered. Pass
        ``start.read(replies)`` (the replies from ``start.index`` on) to :meth:`deliver` as ``started``."""
        index = len(pipe)
        plan = decide(DeliveryFacts(texts=tuple(texts), now=self._clock(), passive=True))
        if len(plan.steps) == 1 and plan.steps[0].channel is Channel.PASSIVE:
            text = plan.steps[0].text  # the plan whenever a webhook waits and nothing is parked
            self.store.queue_offer_or_read(pipe, user, message_key, _piece_id(text), text)
            return PendingStart(self.store, index, text)
        self.store.queue_snapshot(pipe, user, message_key)
        return PendingStart(self.store, index, None)

    def deliver(self, user: str, message_key: str, texts: list[str], *, passive: bool | None = None,
                snapshot: UserSnapshot | None = None, started: Started | None = None,
                fence: Fence | None = None) -> list[Outcome]:
        """Deliver ``texts`` produced for ``message_key`` (a push uses its own key).

        ``passive`` defaults to "a webhook is still waiting for this message". ``snapshot``: the
        user's facts, when the caller read them itself (in a pipeline of its own) just before;
        ``started``: what :meth:`queue_start` found (a passive piece settled, or the snapshot).
        ``fence``: the user's lease the delivery runs under: once it is lost nothing more is sent
        (:class:`LeaseLost` is raised; the new holder re-runs the message).
        """
        if started is not None and started.outcome is not None:
            return [started.outcome]
        if started is not None and started.snapshot is not None:
            snapshot = started.snapshot
        snap = snapshot if snapshot is not None else self.store.snapshot(user, message_key)  # one round trip
        if passive is None:
            passive = snap.handoff_state == "waiting"
        parked, flags = snap.parked, snap.flags
        facts = DeliveryFacts(
            texts=tuple(texts), now=self._clock(), quota=snap.quota, parked=tuple(parked),
            passive=passive, template_id=self._templates.template_id,
            subscribe_template_id=self._templates.subscribe_template_id,
            unsubscribed=flags["unsubscribed"], refused=flags["refused"],
        )
        plan = decide(facts)
        if plan.consumed_parked:
            self.store.drop_parked(user, len(parked))
        return self._run(user, message_key, plan, facts, fence)

    def _run(self, user: str, message_key: str, plan: DeliveryPlan, facts: DeliveryFacts,
             fence: Fence | None = None) -> list[Outcome]:
        outcomes: list[Outcome] = []
        steps = list(plan.steps)
        for i, step in enumerate(steps):
            piece = _piece_id(step.text)
            if step.channel is Channel.PASSIVE:  # offered, settled and recorded in one atomic step
                status = self.store.offer_passive(user, message_key, piece, step.text)
                if status != "lost":
                    outcomes.append(Outcome(step.channel, "sent" if status == "sent" else "duplicate", step.text))
                    continue
                rest = [s.text for s in steps[i:]]
                replanned = decide(replace(facts, texts=tuple(rest), parked=(), passive=False))
                return outcomes + self._run(user, message_key, replanned, replace(facts, passive=False), fence)
            if fence is not None:
                fence.ensure()  # before the claim: a piece is never left "sending" by a turn that stopped
            claim = self.store.claim(user, message_key, piece, fence)
            if claim == "lost":
                raise LeaseLost(user)
            if claim == "done":
                outcomes.append(Outcome(step.channel, "duplicate", step.text))
                continue
            if claim == "uncertain":  # the last attempt died mid-send: resend, and say so
                log.warning("resending a piece of %s whose first send had no known outcome", message_key)
                self.store.record(user, message_key, step.channel, "resent_uncertain")
            try:
                outcomes.append(self._send(user, message_key, step))
                self.store.settle(user, message_key, piece)
            except _Replan as exc:
                self.store.unmark(user, message_key, piece)
                replanned = after_api_block(facts, [s.text for s in steps[i:]])
                outcomes.append(exc.outcome)
                return outcomes + self._run(user, message_key, replanned,
                                            replace(facts, passive=False, api_blocked=True), fence)
            except UserRefused as exc:
                self.store.settle(user, message_key, piece)
                self.store.set_flag(user, "refused")
                self.store.record(user, message_key, step.channel, "refused", exc.code)
                outcomes.append(Outcome(step.channel, "refused", step.text, exc.code))
                for later in steps[i + 1 :]:
                    self.store.record(user, message_key, Channel.DROP, "dropped")
                    outcomes.append(Outcome(Channel.DROP, "dropped", later.text))
                return outcomes
        return outcomes

    def _send(self, user: str, message_key: str, step: Step) -> Outcome:
        size = len(step.text.encode())
        if step.channel in (Channel.PARK, Channel.DROP):
            if step.channel is Channel.PARK:
                self.store.park(user, step.text)
            status = "parked" if step.channel is Channel.PARK else "dropped"
            self.store.record(user, message_key, step.channel, status, size=size)
            return Outcome(step.channel, status, step.text)
        try:
            self._call(user, message_key, step)
        except (OutsideWindow, QuotaExceeded) as exc:
            if step.channel is not Channel.CUSTOM:
                return self._park_failed(user, message_key, step, exc)
            self.store.exhaust(user)
            self.store.record(user, message_key, step.channel, "blocked", exc.code, size)
            raise _Replan(Outcome(step.channel, "blocked", step.text, exc.code)) from exc
        except UserRefused:
            raise
        except WeChatAPIError as exc:
            return self._park_failed(user, message_key, step, exc)
        if step.allowance is not None:
            self.store.spend(user, step.allowance)
        self.store.record(user, message_key, step.channel, "sent", size=size)
        return Outcome(step.channel, "sent", step.text)

    def _call(self, user: str, message_key: str, step: Step) -> None:
        t = self._templates
        if step.channel is Channel.CUSTOM:
            self._api.send_text(user, step.text)
        elif step.channel is Channel.TEMPLATE and t.template_id:
            msgid = self._api.send_template(user, t.template_id, {t.template_field: step.text})
            self.store.remember_template(user, msgid, message_key)
        elif step.channel is Channel.SUBSCRIBE and t.subscribe_template_id:
            self._api.send_subscribe(user, t.subscribe_template_id, {t.subscribe_field: step.text})

    def _park_failed(self, user: str, message_key: str, step: Step, exc: WeChatAPIError) -> Outcome:
        """WeChat is down or refused for another reason: keep the text for the next touch."""
        log.warning("delivery via %s failed with %s; parked", step.channel, exc.code)
        self.store.park(user, step.text)
        self.store.record(user, message_key, step.channel, "failed", exc.code, len(step.text.encode()))
        return Outcome(Channel.PARK, "parked", step.text, exc.code)


def _piece_id(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Started:
    """The start of a delivery done in the caller's round trip: a passive piece settled there
    (``outcome``), or the snapshot to plan from (None when it has to be read again)."""

    outcome: Outcome | None = None
    snapshot: UserSnapshot | None = None


@dataclass(frozen=True)
class PendingStart:
    """What :meth:`DeliveryService.queue_start` queued: replies from ``index`` on are its own."""

    store: DeliveryStore
    index: int
    offered: str | None  # the passive piece it tries to settle, or None: snapshot reads only

    def read(self, replies: list[Any]) -> Started:
        """Interpret the replies of the queued commands (an error reply is raised)."""
        if self.offered is None:
            return Started(snapshot=parse_snapshot(replies[:4]))
        found = self.store.offered_or_read(replies[0])
        if isinstance(found, str):
            return Started(outcome=Outcome(Channel.PASSIVE, "sent" if found == "sent" else "duplicate",
                                           self.offered))
        return Started(snapshot=found)


class _Replan(Exception):
    """WeChat refused a customer-service message (45015/45047): re-plan the rest without it."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__("replan")
        self.outcome = outcome
