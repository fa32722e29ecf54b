"""The conversation engine: one inbound message in, replies and a trace out (DESIGN §1).

Load the context → assemble the frozen views → decide (:class:`runtime.resolve.Resolver`, the first
match wins) → apply the decision → save with compare-and-set. The engine decides nothing itself and
knows nothing of WeChat.
"""

from __future__ import annotations

import logging
import time
import uuid
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from runtime.apply import Dialogue, apply_match, snapshot
from runtime.apply.slots import plain
from runtime.context import ConversationRuntimeContext, Focus, FocusEntity, ProcessedTurn
from runtime.llm import LLM, MeteredLLM, NoLLM
from runtime.resolve import Kind, Match, Resolver, Turn
from runtime.resolve.turn import Outcome
from runtime.skill import SkillRegistry, SkillResult
from runtime.store import ContextConflict, ContextStore
from runtime.summary import build_model_summary
from runtime.turn import Inbound, Stage, TurnResult, TurnTrace
from runtime.understand import Frame, Language, Parser
from runtime.views import ModelSummary, RouterView

log = logging.getLogger(__name__)

MAX_SAVE_ATTEMPTS = 3
CLARIFY_TTL = timedelta(minutes=10)
FOCUS_TTL = timedelta(minutes=30)


class Engine:
    """Processes turns. Every dependency is passed in; nothing global."""

    def __init__(self, *, store: ContextStore, registry: SkillRegistry, services: Any, tz: str = "Asia/Shanghai",
                 intent_model: Any = None, intent_threshold: float = 0.6, llm: LLM | None = None) -> None:
        self.store = store
        self.registry = registry
        self.tz = tz
        self._zone = ZoneInfo(tz)
        self.dialogue = Dialogue(registry, services)
        self.llm: LLM = llm if llm is not None else NoLLM()
        self.parser = Parser(Language.of(registry, model=intent_model, threshold=intent_threshold))
        self.resolver = Resolver(self.parser.lang, self.llm, intent_threshold=intent_threshold)
        self.read_only = registry.read_only_intents()
        self.writes = registry.write_intents()

    # -- public ------------------------------------------------------------------------------
    def handle(self, inbound: Inbound, *, loaded: ConversationRuntimeContext | None = None) -> TurnResult:
        """Process one message; retried from a fresh load when a concurrent save wins the race.

        ``loaded``: the user's context as the caller just read it from the store (the first attempt
        starts from it instead of loading again; the compare-and-set save still guards it).
        """
        started = time.perf_counter()
        errors: list[str] = []
        turn: Turn | None = None
        conflict: ContextConflict | None = None
        for attempt in range(MAX_SAVE_ATTEMPTS):
            ctx = loaded if attempt == 0 and loaded is not None else self.store.load(inbound.user)
            done = ctx.already(inbound.msg_id)
            if done is not None:
                return self._replayed(inbound, ctx, done, started)
            turn = self._run(ctx, inbound)
            try:
                self.store.save(turn.ctx)
                conflict = None
                break
            except ContextConflict as exc:
                conflict = exc
                errors.append(f"context conflict: {exc}")
        if conflict is not None:
            raise conflict  # never answer from a state that was not saved; the caller retries or degrades
        assert turn is not None
        trace = turn.trace
        trace.errors[:0] = errors
        trace.latency_ms = round((time.perf_counter() - started) * 1000, 3)
        trace.intent = self.registry.public(trace.intent)
        return TurnResult(replies=["\n\n".join(turn.replies)] if turn.replies else [], trace=trace,
                          state=trace.state_after, data=turn.data)

    def _replayed(self, inbound: Inbound, ctx: ConversationRuntimeContext, done: ProcessedTurn,
                  started: float) -> TurnResult:
        """A redelivered message: the same replies, no second run of anything."""
        state = snapshot(ctx, self.registry)
        trace = TurnTrace(turn_id=uuid.uuid4().hex[:16], user=inbound.user, msg_id=inbound.msg_id,
                          stage=Stage(done.stage) if done.stage else Stage.FALLBACK, intent=done.intent,
                          skill=done.skill, detail="duplicate: replayed the stored outcome",
                          state_before=state, state_after=state,
                          latency_ms=round((time.perf_counter() - started) * 1000, 3))
        return TurnResult(replies=list(done.replies), trace=trace, state=state, data={"duplicate": True})

    def show(self, user: str, intent: str, result: SkillResult, *, at: datetime) -> None:
        """A result ``user`` was shown outside a turn (a reminder that fired) becomes the focus of what they
        say next ("过十分钟再叫我"). Saved with compare-and-set like a turn."""
        found = self.registry.for_intent(intent)
        if found is None:
            return
        spec, action = found
        for _ in range(MAX_SAVE_ATTEMPTS):
            ctx = self.store.load(user)
            ctx.show(Focus(skill=spec.name, action=action.name, intent=intent, at=at.astimezone(self._zone),
                           topic_version=ctx.topic_version, shown=plain(result.shown),
                           entities=[FocusEntity(kind=e.kind, name=e.name, ref=e.ref, attrs=dict(e.attrs))
                                     for e in result.entities]))
            try:
                self.store.save(ctx)
                return
            except ContextConflict:
                continue

    def probe(self, inbound: Inbound, *, ctx: ConversationRuntimeContext | None = None) -> Match:
        """What the resolver would decide for ``inbound`` on ``ctx`` (default: the stored context), without
        carrying it out (tests, admin). Deciding never changes the context."""
        ctx = ctx if ctx is not None else self.store.load(inbound.user)
        now = inbound.at.astimezone(self._zone)
        out = Outcome(TurnTrace(), focus=_alive(ctx, ctx.focus, now))
        turn = self._turn(inbound, self.parser.parse(inbound.text, now), ctx, now, out, llm=None)
        return self.resolver.decide(turn)

    def model_summary(self, ctx: ConversationRuntimeContext, at: datetime) -> ModelSummary:
        """The model summary sentence a message from ``ctx``'s user at ``at`` would be routed with."""
        now = at.astimezone(self._zone)
        return build_model_summary(ctx, self.registry.task_name, focus=_alive(ctx, ctx.focus, now),
                                   actions=self.registry.action)

    def peek(self, user: str) -> ConversationRuntimeContext:
        """The user's stored context (read-only use: admin, tests)."""
        return self.store.load(user)

    # -- one attempt -------------------------------------------------------------------------
    def _run(self, ctx: ConversationRuntimeContext, inbound: Inbound) -> Turn:
        now = inbound.at.astimezone(self._zone)
        frame = self.parser.parse(inbound.text, now)  # the message is read here, once; never again after
        trace = TurnTrace(turn_id=uuid.uuid4().hex[:16], user=inbound.user, msg_id=inbound.msg_id,
                          state_before=snapshot(ctx, self.registry))
        if ctx.clarification is not None and now - ctx.clarification.asked_at > CLARIFY_TTL:
            ctx.clarification = None
        out = Outcome(trace, focus=_alive(ctx, ctx.focus, now))  # what the turn shows replaces it as it goes
        turn = self._turn(inbound, frame, ctx, now, out, llm=MeteredLLM(self.llm))
        match = self.resolver.decide(turn)
        trace.errors.extend(turn.notes)
        if turn.view.clarifying and match.kind is not Kind.CHOICE:
            ctx.clarification = None  # the numbered question was not answered: it lapses
        trace.stage, trace.intent, trace.confidence = match.stage, match.intent, match.confidence
        trace.detail = match.detail
        apply_match(self, turn, match)
        self._carry_on(turn)
        metered = turn.llm
        if metered is not None and metered.llm_calls:
            trace.llm_calls = metered.llm_calls
            trace.prompt_tokens, trace.completion_tokens = metered.prompt_tokens, metered.completion_tokens
            trace.tokens_estimated = metered.usage.estimated
        if metered is not None:
            trace.errors.extend(e for e in metered.errors if not e.endswith("not_configured"))
        self._remember(turn)
        ctx.summary.open_items = [f"暂停的{self.registry.task_name(p.session.intent)}" for p in ctx.paused][-3:]
        replies = ["\n\n".join(turn.replies)] if turn.replies else []
        ctx.mark_processed(ProcessedTurn(msg_id=inbound.msg_id, replies=replies, stage=str(trace.stage),
                                         intent=self.registry.public(trace.intent), skill=trace.skill))
        ctx.updated_at = now
        trace.state_after = snapshot(ctx, self.registry)
        return turn

    def run_part(self, turn: Turn, frame: Frame, part: int, *, intent: str | None = None) -> None:
        """Carry out ``frame`` as the ``part``-th request of the turn's message — as ``intent`` when the reading
        of the whole message decided it, else decided now (a request kept for later). A write of a part is
        keyed by the message id and the part, so a retried message repeats nothing."""
        whole = turn.inbound
        inbound = whole.model_copy(update={"msg_id": whole.msg_id if not part else f"{whole.msg_id}:{part}"})
        piece = self._turn(inbound, frame, turn.ctx, turn.now, turn.out, llm=turn.llm)
        match = self.resolver.decide(piece) if intent is None else \
            Match(Stage.RULES, Kind.INTENT, intent=intent, confidence=0.9, detail=f"part {part}: {intent}")
        if part:
            turn.trace.detail += f"; then {match.intent}"
        apply_match(self, piece, match)

    def _carry_on(self, turn: Turn) -> None:
        """Requests of an earlier message that waited for an answer: carried out once nothing waits."""
        ctx, part = turn.ctx, 100
        while ctx.queued and ctx.active is None and ctx.pending_confirmation is None and ctx.clarification is None:
            part += 1
            self.run_part(turn, self.parser.again(ctx.queued.pop(0), turn.now), part)

    def _turn(self, inbound: Inbound, frame: Frame, ctx: ConversationRuntimeContext, now: datetime,
              out: Outcome, *, llm: Any) -> Turn:
        """The turn of ``frame``, with its views assembled once (DESIGN §3.5): the router view and the model
        summary, as the conversation stands now, read against the last result still alive."""
        focus = _alive(ctx, ctx.focus, now)
        earlier = tuple(f for f in ctx.earlier if _alive(ctx, f, now) is not None) if focus else ()
        summary = build_model_summary(ctx, self.registry.task_name, focus=focus, actions=self.registry.action)
        return Turn(inbound=inbound, frame=frame, ctx=ctx, now=now, tz=self.tz,
                    view=self._router_view(inbound, frame, ctx, now, focus), summary=summary, out=out,
                    focus=focus, earlier=earlier, llm=llm)

    @staticmethod
    def _router_view(inbound: Inbound, frame: Frame, ctx: ConversationRuntimeContext, now: datetime,
                     focus: Focus | None) -> RouterView:
        active = ctx.active
        expected = active.expected_input if active else None
        clar = ctx.clarification
        return RouterView(
            text=frame.for_model(), origin=str(inbound.origin), event=inbound.event, key=inbound.key,
            active_skill=active.skill if active else None, active_intent=active.intent if active else None,
            expected_field=expected.field if expected else None, expected_type=expected.type if expected else None,
            expected_options=tuple(o.label for o in clar.options) if clar else (),
            pending_confirmation=ctx.pending_confirmation.intent if ctx.pending_confirmation else None,
            has_paused=bool(ctx.paused), clarifying=clar is not None, now=now,
            last_intent=focus.intent if focus is not None else None)

    def _remember(self, turn: Turn) -> None:
        ctx = turn.ctx
        if ctx.active is None and not ctx.paused and ctx.pending_confirmation is None:
            ctx.recent.clear()
            return
        if not turn.frame.empty:
            ctx.remember("user", turn.frame.keep(), turn.now)
        for reply in turn.replies:
            ctx.remember("bot", reply, turn.now)


def _alive(ctx: ConversationRuntimeContext, focus: Focus | None, now: datetime) -> Focus | None:
    """A result still in focus: recent, and of the topic still being talked about."""
    if focus is None or now - focus.at > FOCUS_TTL or focus.topic_version != ctx.topic_version:
        return None
    return focus
