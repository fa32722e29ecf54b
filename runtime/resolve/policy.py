"""The policy (DESIGN §3.1, §3.4): every decider of a turn, in order, in one place.

Each decider reads the frame against one part of the conversation (:class:`Turn`) and proposes a
:class:`Match` or passes; the order is data (:attr:`Resolver.order`) and the first match wins. A message is read against, in order: the pending
question (expected input, a pending yes/no) → the focus (the last result) → a new request (rules, the
domain's operation × object, the local intent model) → the model router when one is configured → the
fallback (small talk, or the agent). Deciding never changes the context; the engine applies the match.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from runtime.llm import LLM
from runtime.llm.policy import Doubt, model_decides
from runtime.llm.routing import labels_from_registry
from runtime.resolve._match import Kind, Match
from runtime.resolve.compound import CompoundStage
from runtime.resolve.confirmation import ConfirmationStage
from runtime.resolve.control import ControlStage
from runtime.resolve.domain import DomainStage
from runtime.resolve.event import EventStage
from runtime.resolve.expected import ExpectedInputStage
from runtime.resolve.fallback import FallbackStage
from runtime.resolve.focus import FocusStage
from runtime.resolve.intent_model import IntentModelStage
from runtime.resolve.llm_router import LLMRouterStage
from runtime.resolve.turn import Turn
from runtime.skill import UNKNOWN, Operation
from runtime.turn import Stage
from runtime.understand import Language

__all__ = ["Resolver"]

Decider = Callable[[Turn], Match | None]
RULES_CONFIDENCE = 0.95


class Resolver:
    """Builds every decider once from the registry; :meth:`decide` runs them in :attr:`order`."""

    def __init__(self, lang: Language, llm: LLM, *, intent_threshold: float = 0.6) -> None:
        registry = lang.registry
        self.registry = registry
        self.read_only = registry.read_only_intents()
        talk = registry.fallback()
        self.small_talk = talk[1].intent if talk else None
        self.event = EventStage(registry.menu_keys(), welcome_intent=self.small_talk or "unknown")
        self.control = ControlStage()
        self.expected = ExpectedInputStage(registry)
        self.confirmation = ConfirmationStage(registry)
        self.focus = FocusStage(registry)
        self.domain = DomainStage()
        self.intent_model = IntentModelStage(threshold=intent_threshold,
                                             known_intents=registry.intents(), task_intents=registry.task_intents(),
                                             small_talk=self.small_talk)
        self.llm_router = LLMRouterStage(llm, labels_from_registry(registry.skills))
        self.fallback = FallbackStage(llm)
        self.compound = CompoundStage(self.read_only, registry.write_intents())
        self._tasks = registry.task_intents()
        # intents that delete or postpone something: a model may only propose them for a thing the message names
        pointed = {i for o in registry.objects for op, i in o.ops if op in (Operation.DELETE, Operation.SNOOZE)}
        self._pointed = frozenset(pointed - {i for o in registry.objects for op, i in o.ops
                                             if op not in (Operation.DELETE, Operation.SNOOZE)})
        crisis = registry.crisis()
        self._crisis_intent = crisis[1].intent if crisis is not None else None
        self.order: tuple[tuple[str, Decider], ...] = (
            ("event", lambda t: self.event.match(t.view)),
            ("crisis", self._crisis),
            ("control", self._control),
            ("choice", self.expected.choice),
            ("expected_input", self.expected.match),
            ("confirmation", self.confirmation.match),
            ("after_crisis", self._after_crisis),
            ("focus", self._focus),
            ("focus_then", self._focus_then),
            ("compound", self.compound.match),
            ("rules", lambda t: self._mixed(t, self._rules(t))),
            ("domain", lambda t: self._mixed(t, self.domain.match(t))),
            ("intent_model", self._intent_model),
            ("invalid", self.expected.invalid),
            ("llm_router", self._llm_router),
            ("fallback", lambda t: self.fallback.match(t.view)),
        )

    def decide(self, turn: Turn) -> Match:
        """The first decider's match (the fallback always matches); the trace says why the awaited
        answer lost when a field was asked."""
        found = next(m for _, decide in self.order if (m := decide(turn)) is not None)
        view = turn.view
        if view.expected_field is not None and found.stage not in (Stage.EXPECTED_INPUT, Stage.CONTROL):
            found = replace(found, detail=f"{found.detail}; expected_input: {self.expected.why_not(turn)}")
        return found

    def _after_crisis(self, turn: Turn) -> Match | None:
        """Right after a crisis reply, a message that asks for nothing the rules know ("他在外面踹门", "他说没事
        不用去医院", "你说这些有什么用"): the bot stays with the person and says what to do now again."""
        focus = turn.focus
        if self._crisis_intent is None or focus is None or focus.intent != self._crisis_intent \
                or turn.session is not None or turn.view.origin not in ("text", "voice") or turn.frame.empty:
            return None
        found = turn.frame.rule
        if found is not None and found[0] not in (self.small_talk, UNKNOWN):
            return None  # a request of its own ("明早8点提醒我给她挂号") is carried out
        params = {"kind": focus.params.get("kind"), "sub": focus.params.get("sub"), "again": True}
        return Match(Stage.CONTROL, Kind.CRISIS, intent=self._crisis_intent, confidence=0.9, params=params,
                     detail=f"right after a crisis reply ({params['kind']}): asks for nothing else")

    def _rules(self, turn: Turn) -> Match | None:
        """The skills' routing rule that reads the message, as its intent (small talk and out-of-scope too)."""
        if turn.view.origin not in ("text", "voice", "menu") or turn.frame.empty:
            return None
        found = turn.frame.rule
        if found is None:
            return None
        intent, name = found
        kind = Kind.CHITCHAT if intent == self.small_talk else Kind.UNKNOWN if intent == UNKNOWN else Kind.INTENT
        return Match(Stage.RULES, kind, intent=intent, confidence=RULES_CONFIDENCE, detail=f"rule {name}")

    def _focus(self, turn: Turn) -> Match | None:
        """A follow-up of the focus; one that would change nothing of it ("后天的呢" after a dinner plan) is
        the router's to read with the summary of what was shown, when a model is configured."""
        found = self.focus.match(turn)
        if found is not None and found.kind is Kind.FOLLOW_UP and not self.focus.changes(turn, found) \
                and model_decides(Doubt(unplaced_follow_up=True), configured=self.llm_router.applies(turn.view)):
            return self._routed(turn) or found
        return found

    def _focus_then(self, turn: Turn) -> Match | None:
        """A question about what was just shown, then a request of its own ("前一天就是除夕吧？那天下午4点提醒我
        去接爸妈"): the question answered first (its answer becomes the focus), then the request."""
        if turn.focus is None or turn.session is not None or turn.pending is not None:
            return None
        cut = turn.frame.sentences()
        if cut is None:
            return None
        head, tail = cut
        found = self.focus.match(replace(turn, frame=head))
        if found is None or found.kind is not Kind.REFER or found.intent not in self.read_only:
            return None
        return Match(found.stage, Kind.COMPOUND, intent=found.intent, confidence=found.confidence,
                     params={"parts": [head, tail], "together": []},
                     detail=f"{found.detail}; then the rest as a request of its own")

    def _crisis(self, turn: Turn) -> Match | None:
        """Crisis first (DESIGN §3.4): ahead of every reading of the message, so that no yes/no, answer or
        cancel ("好，我不想活了", "算了，…") takes it; a request said beside it is carried out afterwards."""
        if self._crisis_intent is None or turn.view.origin not in ("text", "voice"):
            return None
        found = turn.frame.crisis
        if found is None:
            return None
        # the request said beside it, from its first clause that asks for something by itself in so many words
        # ("明早提醒我去挂号"; a symptom said beside the crisis, "还一直出冷汗", is no request)
        rest = turn.frame.request_after_crisis()
        return Match(Stage.CONTROL, Kind.CRISIS, intent=self._crisis_intent,
                     params={"kind": found.kind.value, "sub": found.sub, "also": [k.value for k in found.also],
                             "spans": [list(s) for s in found.spans], "rest": rest},
                     detail=f"crisis: {found.kind.value}/{found.sub} ({', '.join(found.cues)})")

    def _control(self, turn: Turn) -> Match | None:
        found = self.control.match(turn)
        if found is not None and found.kind is Kind.CANCEL and turn.session is None and turn.pending is None \
                and not turn.view.has_paused:
            return self.focus.undo(turn, bare=True) or found  # "算了不用了" right after a reminder was set
        return found

    def _mixed(self, turn: Turn, found: Match | None) -> Match | None:
        """A task with a read-only question beside it: the task from the rest, the question answered too."""
        if found is not None and found.kind is Kind.INTENT and found.intent not in self.read_only:
            side = self.expected.side_question(turn.frame, found.intent)
            if side is not None:
                found = replace(found, also=side[0], also_frame=side[1], frame=side[2],
                                detail=f"{found.detail}; also {side[0]}")
        return found

    def _intent_model(self, turn: Turn) -> Match | None:
        routable = self.llm_router.applies(turn.view)
        if not routable:
            return self._or_ask(turn, self._read_alone(turn))
        if self.intent_model.unsure(turn):
            return None  # the calibrated reading is unsure: the router decides, else the no-model answer
        found = self._read_alone(turn)
        if model_decides(self._doubt(turn, found), configured=routable):
            return None  # the router decides; on any failure, the no-model answer (_without_model)
        return self._or_ask(turn, found)

    def _doubt(self, turn: Turn, found: Match | None) -> Doubt:
        """What makes the local reading ``found`` doubtful: torn between requests that would change
        something; chat that names the domain ("晚饭的事你看着办吧", "喝水那个别催了"); chat or nothing said
        right after a result ("这些菜热量高不高"), which only the summary of that result can place."""
        view, vague = turn.view, found is None or found.kind in (Kind.CHITCHAT, Kind.UNKNOWN)
        torn = found is not None and found.kind is Kind.CLARIFY and any(
            intent in self._tasks for intent, _ in found.options)
        after = turn.focus is not None and turn.pending is None and vague and not self._small_talk_said(turn)
        free = view.expected_field is None
        return Doubt(torn_between_writes=torn, names_domain=free and self._names_domain(turn, found),
                     unplaced_follow_up=free and after)

    def _without_model(self, turn: Turn) -> Match | None:
        """What the local stages make of the message with no model to ask."""
        return self._or_ask(turn, self._read_alone(turn))

    def _read_alone(self, turn: Turn) -> Match | None:
        """The intent model's reading (with a read-only question beside a task)."""
        found = self._mixed(turn, self.intent_model.match(turn))
        if found is not None and turn.view.expected_field is not None and found.kind in (Kind.UNKNOWN, Kind.CHITCHAT) \
                and not self._small_talk_said(turn):
            return None  # "下班路上吧" while a time is asked: not understood as the answer, so asked again
        return found

    def _or_ask(self, turn: Turn, found: Match | None) -> Match | None:
        """A numbered question instead of chat or nothing when the message names the domain and the
        small-talk skill does not recognise it ("我老是忘记吃药" → a reminder?); only requests the intent
        model finds plausible are offered ("放一首忘情水" names no reminder)."""
        if turn.view.expected_field is None and self._names_domain(turn, found) and not self._small_talk_said(turn):
            plausible = self.intent_model.plausible(turn)
            options = tuple(o for o in turn.frame.guesses() if plausible is None or o in plausible)
            if options:
                return Match(Stage.INTENT_MODEL, Kind.CLARIFY, intent=options[0], confidence=0.5,
                             options=tuple((o, o) for o in options),
                             detail=f"names {', '.join(options)} but no stage is sure: asked")
        return found

    def _names_domain(self, turn: Turn, found: Match | None) -> bool:
        """Whether a message read as chat, out of scope or nothing names an object or operation of the domain."""
        return (found is None or found.kind in (Kind.CHITCHAT, Kind.UNKNOWN)) and bool(
            turn.frame.operations or any(turn.frame.hints(o) for o in self.registry.objects))

    def _small_talk_said(self, turn: Turn) -> bool:
        """Whether the small-talk skill recognises the message (thanks, a greeting, a mood…)."""
        talk = self.registry.fallback()
        return talk is not None and bool(turn.frame.slots(talk[1]))

    def _llm_router(self, turn: Turn) -> Match | None:
        if not self.llm_router.applies(turn.view):
            return None
        # no usable answer: the turn goes on as it would without a model
        return self._routed(turn) or self._without_model(turn)

    def _routed(self, turn: Turn) -> Match | None:
        """The router's decision, or None when it failed, was unsure, or acts on nothing the message names."""
        found, outcome = self.llm_router.decide(turn.view, turn.summary, llm=turn.llm)
        turn.notes.extend(e for e in outcome.errors if e.startswith("bad_output"))
        if found is None or outcome.failed:
            return None
        if found.intent in self._pointed and not self._names_its_object(turn, found.intent):
            turn.notes.append(f"llm_router: {found.intent} dropped (the message names nothing it would act on)")
            return None
        return found

    def _names_its_object(self, turn: Turn, intent: str) -> bool:
        """Whether the message names the object ``intent`` deletes or postpones, or picks one shown."""
        objects = [o for o in self.registry.objects if intent in {i for _, i in o.ops}]
        entities = turn.focus.entities if turn.focus is not None else []
        return turn.frame.names_any(objects) or bool(
            entities and any(e.kind in {o.name for o in objects} for e in entities) and turn.frame.pick(entities))
