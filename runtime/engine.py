"""The conversation engine: one inbound message in, replies and a trace out (DESIGN §1).

Load the context → assemble the frozen views → run the cascade (first match wins) → apply the
decision through the dialogue manager → save with compare-and-set. Nothing here knows WeChat.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

from runtime import texts
from runtime._apply import apply_match
from runtime._dialogue import Dialogue, changed_slots
from runtime._hanzi import simplified
from runtime._slots import extract_all, nearest_number_slot, number_readings, time_slots
from runtime._summary import build_model_summary
from runtime._turnstate import PUBLIC_INTENT, TurnState, snapshot
from runtime.cascade._match import Kind, Match
from runtime.cascade.control import ControlStage
from runtime.cascade.event import EventStage
from runtime.cascade.expected_input import ExpectedInputStage
from runtime.cascade.intent_model import IntentModelStage
from runtime.cascade.llm_router import LLMRouterStage
from runtime.cascade.rules import RuleRouter, follow_up_fragment, rules_from
from runtime.context import ConversationRuntimeContext, ProcessedTurn
from runtime.llm import LLM, MeteredLLM, NoLLM
from runtime.llm.routing import labels_from_registry
from runtime.parsers.correction import CORRECTION
from runtime.skill import SkillRegistry, SlotType
from runtime.store import ContextConflict, ContextStore
from runtime.turn import Inbound, Stage, TurnResult, TurnTrace
from runtime.views import ModelSummary, RouterView

log = logging.getLogger(__name__)

MAX_SAVE_ATTEMPTS = 3
CLARIFY_TTL = timedelta(minutes=10)
FOLLOW_UP_TTL = timedelta(minutes=30)
_UNTYPED = frozenset({SlotType.TEXT, SlotType.TEXT_LIST, SlotType.YES_NO, SlotType.CHOICE})
# expected fields a bare number answers (asked last, after a numbered list answered in passing)
_COUNTED = frozenset({SlotType.COUNT, SlotType.MONEY, SlotType.NUMBER, SlotType.DURATION, SlotType.DISTANCE,
                      SlotType.HEIGHT, SlotType.WEIGHT})
_UNDO = re.compile(r"^(?:把)?(?:取消|删掉|删除|删了|撤销|撤回|去掉)(?:掉)?(?:刚才|刚刚)(?:设的|加的|记的|的)?(?:那个|那条|这个)?"
                   r"(?:提醒)?(?:吧|了)?[。！!]*$|^(?:刚才|刚刚)(?:设的|加的|的)?(?:那个|那条|这个)?(?:提醒)?"
                   r"(?:不要了|取消|取消掉|删掉|删了|撤销|算了|作废)(?:吧|了)?[。！!]*$")
_BARE_TAIL = re.compile(r"[吧啊呀哦嘛呢的。.！!~～\s]+$")
# words that name what the skills do; chit-chat carrying them is worth the router's look when a model is set
TASK_WORDS = re.compile(r"提醒|闹钟|计时|预算|晚饭|晚餐|做饭|菜谱|做法|运动|锻炼|跑步|健身|体重|身高|冰箱|食材|天气|记录|计划")
Decider = Callable[[TurnState, RouterView, ModelSummary], Match | None]


class Engine:
    """Processes turns. Every dependency is passed in; nothing global."""

    def __init__(self, *, store: ContextStore, registry: SkillRegistry, services: Any, tz: str = "Asia/Shanghai",
                 intent_model: Any = None, intent_threshold: float = 0.6, llm: LLM | None = None) -> None:
        self.store = store
        self.registry = registry
        self.tz = tz
        self._zone = ZoneInfo(tz)
        self.dialogue = Dialogue(registry, services)
        known = registry.intents()
        self.event = EventStage()
        self.control = ControlStage()
        self.read_only = registry.read_only_intents()
        self.writes = registry.write_intents()
        self.rules = RuleRouter(rules_from(registry.triggers()), known_intents=known | {"chitchat"})
        self.expected = ExpectedInputStage(self.rules, self.read_only)
        self.intent_model = IntentModelStage(intent_model, threshold=intent_threshold, known_intents=known,
                                             task_intents=registry.task_intents())
        self.llm: LLM = llm if llm is not None else NoLLM()
        self.llm_router = LLMRouterStage(self.llm, labels_from_registry(registry.skills))

    # -- public ------------------------------------------------------------------------------
    def handle(self, inbound: Inbound, *, loaded: ConversationRuntimeContext | None = None) -> TurnResult:
        """Process one message; retried from a fresh load when a concurrent save wins the race.

        ``loaded``: the user's context as the caller just read it from the store (the first attempt
        starts from it instead of loading again; the compare-and-set save still guards it).
        """
        started = time.perf_counter()
        errors: list[str] = []
        turn: TurnState | None = None
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
        trace.intent = PUBLIC_INTENT.get(trace.intent, trace.intent)
        return TurnResult(replies=["\n\n".join(turn.replies)] if turn.replies else [], trace=trace,
                          state=trace.state_after, data=turn.data)

    def _replayed(self, inbound: Inbound, ctx: ConversationRuntimeContext, done: ProcessedTurn,
                  started: float) -> TurnResult:
        """A redelivered message: the same replies, no second run of anything."""
        state = snapshot(ctx)
        trace = TurnTrace(turn_id=uuid.uuid4().hex[:16], user=inbound.user, msg_id=inbound.msg_id,
                          stage=Stage(done.stage) if done.stage else Stage.FALLBACK, intent=done.intent,
                          skill=done.skill, detail="duplicate: replayed the stored outcome",
                          state_before=state, state_after=state,
                          latency_ms=round((time.perf_counter() - started) * 1000, 3))
        return TurnResult(replies=list(done.replies), trace=trace, state=state, data={"duplicate": True})

    def peek(self, user: str) -> ConversationRuntimeContext:
        """The user's stored context (read-only use: admin, tests)."""
        return self.store.load(user)

    # -- one attempt -------------------------------------------------------------------------
    def _run(self, ctx: ConversationRuntimeContext, inbound: Inbound) -> TurnState:
        now = inbound.at.astimezone(self._zone)
        text = simplified(inbound.text)
        if text != inbound.text:  # 繁體 is read as 简体 by every stage and skill
            inbound = inbound.model_copy(update={"text": text})
        trace = TurnTrace(turn_id=uuid.uuid4().hex[:16], user=inbound.user, msg_id=inbound.msg_id,
                          state_before=snapshot(ctx))
        turn = TurnState(inbound=inbound, ctx=ctx, now=now, tz=self.tz, trace=trace, llm=MeteredLLM(self.llm))
        if ctx.clarification is not None and now - ctx.clarification.asked_at > CLARIFY_TTL:
            ctx.clarification = None
        view = self._router_view(turn)
        summary = build_model_summary(ctx)
        match = self._decide(turn, view, summary)
        if view.clarifying and match.kind is not Kind.CHOICE:
            ctx.clarification = None  # the numbered question was not answered: it lapses
        trace.stage, trace.intent, trace.confidence = match.stage, match.intent, match.confidence
        trace.detail = match.detail
        apply_match(self, turn, match, view, summary)
        metered = turn.llm
        if metered is not None and metered.llm_calls:
            trace.llm_calls = metered.llm_calls
            trace.prompt_tokens, trace.completion_tokens = metered.prompt_tokens, metered.completion_tokens
            trace.tokens_estimated = metered.usage.estimated
        if metered is not None:
            trace.errors.extend(e for e in metered.errors if not e.endswith("not_configured"))
        self._remember(turn)
        ctx.summary.open_items = [f"暂停的{texts.task_name(p.session.intent)}" for p in ctx.paused][-3:]
        replies = ["\n\n".join(turn.replies)] if turn.replies else []
        ctx.mark_processed(ProcessedTurn(msg_id=inbound.msg_id, replies=replies, stage=str(trace.stage),
                                         intent=PUBLIC_INTENT.get(trace.intent, trace.intent), skill=trace.skill))
        ctx.updated_at = now
        trace.state_after = snapshot(ctx)
        return turn

    def _router_view(self, turn: TurnState) -> RouterView:
        ctx, inbound = turn.ctx, turn.inbound
        active = ctx.active
        expected = active.expected_input if active else None
        clar = ctx.clarification
        return RouterView(
            text=inbound.text, origin=str(inbound.origin), event=inbound.event, key=inbound.key,
            active_skill=active.skill if active else None, active_intent=active.intent if active else None,
            expected_field=expected.field if expected else None, expected_type=expected.type if expected else None,
            expected_options=tuple(o.label for o in clar.options) if clar else (),
            pending_confirmation=ctx.pending_confirmation.intent if ctx.pending_confirmation else None,
            has_paused=bool(ctx.paused), clarifying=clar is not None, now=turn.now,
            last_intent=self._last_intent(ctx, turn.now))

    @staticmethod
    def _last_intent(ctx: ConversationRuntimeContext, now: Any) -> str | None:
        frame = ctx.summary.last_query
        return frame.intent if frame is not None and now - frame.at <= FOLLOW_UP_TTL else None

    def _decide(self, turn: TurnState, view: RouterView, summary: ModelSummary) -> Match:
        """Run the deciders in cascade order; the first match wins. Deciding never changes the context."""
        found: Match | None = None
        for decide in self._order:
            found = decide(turn, view, summary)
            if found is not None:
                break
        if found is None:
            found = Match(Stage.FALLBACK, Kind.UNKNOWN, intent="unknown", confidence=0.0, detail="no stage matched")
        if view.expected_field is not None and found.stage is not Stage.EXPECTED_INPUT \
                and found.stage is not Stage.CONTROL:  # the trace says why the awaited answer lost
            found = replace(found, detail=f"{found.detail}; expected_input: {self.expected.why_not(view)}")
        return found

    @property
    def _order(self) -> tuple[Decider, ...]:
        """The cascade (DESIGN §3.1) as data: each entry proposes a match or passes."""
        return (self._event, self._control, self._choice, self._pending_input, self._routed, self._invalid,
                self._routed_by_model)

    def _event(self, turn: TurnState, view: RouterView, summary: ModelSummary) -> Match | None:
        return self.event.match(view)

    def _control(self, turn: TurnState, view: RouterView, summary: ModelSummary) -> Match | None:
        found = self.control.match(view)
        if found is not None and found.kind is Kind.CANCEL and view.active_skill is None \
                and view.pending_confirmation is None and not view.has_paused:
            return self._undo(view, bare=True) or found  # "算了不用了" right after a reminder was set
        return found

    def _choice(self, turn: TurnState, view: RouterView, summary: ModelSummary) -> Match | None:
        if not view.clarifying:
            return None
        found = self.expected.match_choice(view)
        if found is not None and view.expected_type in _COUNTED \
                and self.dialogue.parse_answer(turn, view.text) is not None:
            return None  # a list answered in passing, then the task's question repeated: "1" answers the task
        return found

    def _pending_input(self, turn: TurnState, view: RouterView, summary: ModelSummary) -> Match | None:
        """What the message does to what the bot is waiting for: a slot, a yes/no, or the last query."""
        if view.expected_field is not None:
            found = self.expected.match(view, lambda text: self.dialogue.parse_answer(turn, text),
                                        lambda text: self.dialogue.extract_active(turn, text),
                                        lambda text: self.dialogue.spare_text(turn, text))
        elif view.pending_confirmation is not None:
            found = self._pending_correction(turn, view)
        else:
            found = None
        if found is None and (view.active_skill is None or view.last_intent in self.read_only):
            found = self.rules.match_follow_up(view)  # "那广州呢" (answered in passing if a task waits)
            if found is not None and "ahead" in found.params and not self._timed_frame(turn):
                found = None  # "提前半小时提醒我" with no time to count back from: a request of its own
        if found is None and view.pending_confirmation is None \
                and (view.active_skill is None or view.last_intent in self.read_only):
            found = self._bare_follow_up(turn, view)  # "杭州" after "明天天气怎么样", also while a task waits
        if found is None and view.active_skill is None and view.pending_confirmation is None:
            found = self._undo(view)  # "取消刚才那个" right after a reminder was set
        return found

    def _undo(self, view: RouterView, *, bare: bool = False) -> Match | None:
        """"取消刚才那个" (or, ``bare``, a plain "算了不用了") right after a write: the intent that takes
        that write back."""
        found = self.registry.for_intent(view.last_intent) if view.last_intent else None
        if found is None or found[1].undo is None or not (bare or _UNDO.match(view.text.strip())):
            return None
        return Match(Stage.RULES, Kind.INTENT, intent=found[1].undo, confidence=0.9, params=dict(found[1].undo_with),
                     detail=f"takes back the last {view.last_intent}")

    def _timed_frame(self, turn: TurnState) -> bool:
        """Whether the last query's frame holds a time (what "提前半小时" counts back from)."""
        frame = turn.ctx.summary.last_query
        return frame is not None and bool(time_slots(self.registry, frame.intent, frame.params))

    def _bare_follow_up(self, turn: TurnState, view: RouterView) -> Match | None:
        """"早上8点吧" right after a reminder was set, "明天" right after a weather answer: a short
        message that is nothing but slots of the last action changes them (a correction of a write)."""
        text = _BARE_TAIL.sub("", view.text.strip())
        intent = view.last_intent
        found = self.registry.for_intent(intent) if intent else None
        if intent is None or found is None or not text or len(text) > 8 or view.origin not in ("text", "voice"):
            return None
        action = found[1]
        routed = self.rules.classify(view.text.strip())
        if routed is not None and not (routed[0] == intent and action.read_only and action.follow_up is not None):
            return None  # a request of its own (a query's own hook may still read it as a follow-up: 那天星期几)
        amend = action.amend is not None and not action.read_only
        # only a slot said in its own form ("早上8点", "杭州") changes it, never free text ("好", "太麻烦了");
        # a query with its own follow-up hook says itself whether the text changes it ("周五")
        telling = {s.name for s in action.slots if s.standalone or s.parser not in _UNTYPED}
        frame = turn.ctx.summary.last_query
        if action.read_only and action.follow_up is not None and frame is not None:
            if action.follow_up(frame.params, text) is None:
                return None
        elif not (action.read_only or action.repeatable or amend) \
                or not telling & set(extract_all(action, text, turn.now)):
            return None
        return Match(Stage.RULES, Kind.FOLLOW_UP, intent=intent, confidence=0.9,
                     params={"fragment": text, "correction": amend},
                     detail=f"bare {'correction' if amend else 'follow-up'} of {intent}: {text}")

    def _routed(self, turn: TurnState, view: RouterView, summary: ModelSummary) -> Match | None:
        found = self.rules.match(view) or self.intent_model.match(view)
        if found is not None and found.kind is Kind.INTENT and found.intent not in self.read_only:
            side = self.expected.side_question(view.text, found.intent)
            if side is not None:  # mixed: the task from the rest, the question answered beside it
                found = replace(found, also=side[0], also_text=side[1], detail=f"{found.detail}; also {side[0]}")
        if (found is not None and found.stage is Stage.INTENT_MODEL and found.kind is Kind.CHITCHAT
                and TASK_WORDS.search(view.text) and self.llm_router.applies(view)):
            return None  # chat that names a task ("晚饭的事你看着办吧"): the router may see a request in it
        return found

    def _invalid(self, turn: TurnState, view: RouterView, summary: ModelSummary) -> Match | None:
        if view.expected_field is None:
            return None
        return Match(Stage.EXPECTED_INPUT, Kind.INVALID, intent=view.active_intent or "unknown",
                     confidence=0.0, detail=f"not a {view.expected_type}")

    def _routed_by_model(self, turn: TurnState, view: RouterView, summary: ModelSummary) -> Match | None:
        if not self.llm_router.applies(view):
            return None
        found, outcome = self.llm_router.decide(view, summary, llm=turn.llm)
        turn.trace.errors.extend(e for e in outcome.errors if e.startswith("bad_output"))
        return found

    def _pending_correction(self, turn: TurnState, view: RouterView) -> Match | None:
        """"不对，是40分钟" while a write waits for yes/no: the pending params change, the question stands."""
        pending = turn.ctx.pending_confirmation
        action = self.registry.action(pending.skill, pending.action) if pending else None
        if pending is None or action is None or not CORRECTION.search(view.text):
            return None
        found = changed_slots(action, pending.params, view.text, turn.now, corrections=False)
        fragment = follow_up_fragment(view.text)
        if not found and action.follow_up is not None and fragment:  # "不对，是三个": the skill reads it
            changed = action.follow_up(pending.params, fragment) or {}
            found = {k: v for k, v in changed.items() if pending.params.get(k) != v}
        if not found:
            found = nearest_number_slot(action, pending.params, view.text, turn.now)
        readings = number_readings(action, pending.params, view.text, turn.now) if not found else []
        if readings:  # a bare number that fits no value clearly: ask which one it changes
            return Match(Stage.EXPECTED_INPUT, Kind.FILL, intent=pending.intent,
                         params={"slots": {}, "readings": {name: value for _, name, value in readings}},
                         detail=f"bare number: which of {[name for _, name, _ in readings]}")
        if not found:
            return None
        return Match(Stage.EXPECTED_INPUT, Kind.FILL, intent=pending.intent, params={"slots": found},
                     detail=f"correction {sorted(found)} of the pending confirmation")

    def _remember(self, turn: TurnState) -> None:
        ctx = turn.ctx
        if ctx.active is None and not ctx.paused and ctx.pending_confirmation is None:
            ctx.recent.clear()
            return
        if turn.inbound.text:
            ctx.remember("user", turn.inbound.text, turn.now)
        for reply in turn.replies:
            ctx.remember("bot", reply, turn.now)
