"""Stage ``expected_input``: the bot just asked for a field; what does this message do to the task?

The interpretation that explains the whole message wins (DESIGN §3.4):

* a question (a read-only request with a question word) is a side question, never the slot's value
  ("今天几号来着" while a time is asked): the stage steps aside and the read-only intent answers it;
* slots named by their own units or keywords ("6个人", "预算300", "不吃辣") are those slots — a
  correction of one already given, others given out of order, several at once — never the
  expected slot's value by accident ("不对，我们是六个人" while the budget is asked is not ¥6);
* otherwise the expected slot's lenient parse (a bare "3"), with a read-only clause beside it (mixed);
* a request in its own right (a new task) steps aside too, and so does an elliptical question
  ("那广州呢") right after a side question: it follows up that question, it does not answer ours.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from runtime.resolve._focus_ops import _UNTYPED
from runtime.resolve._match import Kind, Match
from runtime.resolve._reading import answer_value, named_slots, spare_text
from runtime.resolve.turn import Turn
from runtime.skill import UNKNOWN, ActionSpec, SkillRegistry, SlotType
from runtime.turn import Stage
from runtime.understand.frame import Frame

_FREE_TYPES = ("text", "text_list")
# expected fields a bare number answers (asked last, after a numbered list answered in passing)
_COUNTED = frozenset({SlotType.COUNT, SlotType.MONEY, SlotType.NUMBER, SlotType.DURATION, SlotType.DISTANCE,
                      SlotType.HEIGHT, SlotType.WEIGHT})


class ExpectedInputStage:
    """Parses the answer by the expected field's type; notices corrections, other slots, side questions."""

    stage = Stage.EXPECTED_INPUT

    def __init__(self, registry: SkillRegistry) -> None:
        self._registry = registry
        self._read_only = registry.read_only_intents()
        talk = registry.fallback()
        self._small_talk = talk[1].intent if talk else None

    def choice(self, turn: Turn) -> Match | None:
        """An answer to a clarifying question (numbered options). A bare number while a counted field is
        asked again after a list answered in passing answers the task, not the list."""
        view = turn.view
        if not view.clarifying:
            return None
        choice = turn.frame.choice(view.expected_options)
        if choice is None:
            choice = self._yes_to_the_one(turn)
        if choice is None:
            fits = self._value_of_one(turn)
            if fits is not None:  # "四口人" to "1. 制定运动计划 2. 安排晚饭": the one option it is a value of
                return Match(self.stage, Kind.CHOICE, params={"choice": fits[0], "slots": fits[1]},
                             detail=f"option {fits[0]}: a value of it said")
        if choice is None or not 1 <= choice <= len(view.expected_options):
            return None
        if view.expected_type in _COUNTED and answer_value(self._registry, turn.session, turn.frame) is not None:
            return None
        if self._other_operation(turn, choice):
            return None  # "喝水那个改成7点半" names an option of a cancel list but asks for something else
        return Match(self.stage, Kind.CHOICE, params={"choice": choice}, detail=f"option {choice}")

    def _value_of_one(self, turn: Turn) -> tuple[int, dict[str, Any]] | None:
        """The one option whose request takes the message as a typed value (and the values), when only one
        does and the values are the whole message."""
        options = turn.clarification.options if turn.clarification is not None else []
        fits: list[tuple[int, dict[str, Any]]] = []
        for n, option in enumerate(options, 1):
            found = self._registry.for_intent(option.intent) if option.intent != UNKNOWN else None
            if found is None:
                continue
            said = {s.name: v for s in found[1].slots if s.parser not in _UNTYPED
                    and (v := turn.frame.answer(s)) is not None}
            if said:
                fits.append((n, said))
        frame = turn.frame
        if len(fits) != 1 or not frame.explains(frame.value_spans, slack=frame.slack):
            return None
        return fits[0]

    @staticmethod
    def _yes_to_the_one(turn: Turn) -> int | None:
        """"好" / "对" to "你是想：1. 更新冰箱库存 2. 都不是": a yes picks the one real option offered."""
        options = turn.clarification.options if turn.clarification is not None else []
        real = [n for n, o in enumerate(options, 1) if o.intent != UNKNOWN]
        return real[0] if len(real) == 1 and turn.frame.yes_no is True else None

    def _other_operation(self, turn: Turn, choice: int) -> bool:
        """Whether the message asks for an operation the chosen option's intent does not do."""
        options = turn.clarification.options if turn.clarification is not None else []
        if not 1 <= choice <= len(options):
            return False
        intent = options[choice - 1].intent
        does = {op for o in self._registry.objects for op, i in o.ops if i == intent}
        return bool(does) and any(op not in does for op, _ in turn.frame.operations)

    def invalid(self, turn: Turn) -> Match | None:
        """Nothing else explained the message while a field is asked: ask again, with a hint."""
        view = turn.view
        if view.expected_field is None:
            return None
        return Match(self.stage, Kind.INVALID, intent=view.active_intent or "unknown", confidence=0.0,
                     detail=f"not a {view.expected_type}")

    def side_question(self, frame: Frame, task: str) -> tuple[str, Frame, Frame] | None:
        """A request for ``task`` with a read-only question beside it ("周五晚上8点提醒我开会，周五是几号啊"):
        (question intent, question clause, the rest), when the rest alone still asks for ``task``."""
        clauses = frame.side_clauses()
        if len(clauses) < 2:
            return None
        for clause in clauses:
            found = clause.rule
            if found and found[0] in self._read_only and found[0] != self._small_talk and clause.question:
                rest = frame.without(clause)
                kept = rest.rule
                if kept is not None and kept[0] == task:
                    return found[0], clause, rest
        return None

    def _picked(self, turn: Turn) -> object | None:
        """The value of an awaited field that takes one shown entity, when the message picks one."""
        field, focus = turn.view.expected_field, turn.focus
        if focus is None or not focus.entities or turn.session is None:
            return None
        kinds = {e.kind for e in focus.entities}
        if not any(o.pick == field and o.name in kinds and turn.session.intent in {i for _, i in o.ops}
                   for o in self._registry.objects):
            return None
        found = turn.frame.pick(focus.entities)
        if found is None or not turn.frame.explains(found.spans, slack=1):
            return None
        return found.entity.ref if found.entity.ref is not None else found.entity.name

    def _picked_for_another(self, turn: Turn) -> bool:
        """Whether the message picks a shown thing for an operation the waiting task does not do."""
        focus, session = turn.focus, turn.session
        found = turn.frame.pick(focus.entities) if focus is not None and focus.entities and session else None
        obj = self._registry.object(found.entity.kind) if found is not None else None
        if found is None or obj is None or session is None:
            return False
        intents = {i for op, (a, b) in turn.frame.operations if not any(s < b and a < e for s, e in found.spans)
                   and (i := obj.intent_for(op)) is not None}
        return bool(intents) and session.intent not in intents

    def _answers_more(self, frame: Frame, parse: Callable[[Frame], object]) -> bool:
        """Whether the awaited field explains more of the message than the rule that would take it elsewhere:
        "有人不吃香菜，别的没了" answers "有什么忌口" (the pantry's "没了" explains two characters of it)."""
        span = frame.rule_span
        if span is None or parse(frame) is None:
            return False
        return (span[1] - span[0]) * 3 < frame.size

    @staticmethod
    def _modifies(frame: Frame, action: ActionSpec, params: Mapping[str, Any]) -> dict[str, Any] | None:
        """What the action's own modifiers change when together they are the whole message ("便宜点",
        "不吃辣 便宜点": their words, values and the values they change explain it), or None."""
        now: Mapping[str, Any] = params
        spans: list[tuple[int, int]] = list(frame.value_spans)
        for rule in action.follow.modifiers:
            if rule.intent is not None or rule.entity:
                continue
            found = frame.finds(rule.regex)
            try:
                built = rule.apply(now, found[0], None, {}) if found else None
            except (KeyError, TypeError, ValueError):  # it changes what the request has not said yet
                built = None
            if built is None or dict(built) == dict(now):
                continue
            spans += [*(f.span() for f in found), *frame.said_spans(now, built)]
            now = built
        changed = {k: v for k, v in now.items() if params.get(k) != v}
        return changed if changed and frame.explains(spans, slack=frame.slack) else None

    def why_not(self, turn: Turn) -> str:
        """Why a message was not taken as the awaited field (for the trace). Pure."""
        view, frame = turn.view, turn.frame
        routed = frame.rule
        if routed and routed[0] in self._read_only and frame.question:
            return f"not the {view.expected_field}: a side question ({routed[0]})"
        if routed and routed[0] != view.active_intent:
            return f"not the {view.expected_field}: a request of its own ({routed[0]})"
        return f"not a {view.expected_type} for {view.expected_field}"

    def match(self, turn: Turn) -> Match | None:
        """The expected field's value, other slots named by their own words, or None (not an answer)."""
        view = turn.view
        if view.expected_field is None or view.origin not in ("text", "voice", "menu"):
            return None
        registry, session, frame = self._registry, turn.session, turn.frame
        if turn.focus is not None:  # "那就那天上午十点" right after a side question showed a day: that day
            frame = frame.resolved(turn.focus.entities, registry)

        def parse(part: Frame) -> object:
            return answer_value(registry, session, part)
        if view.expected_type == SlotType.TEXT and frame.yes_no is True:
            return None  # "嗯嗯" to "练的什么？": an acknowledgement, never the thing asked for
        routed = frame.rule
        clauses = frame.side_clauses()
        if routed and routed[0] in self._read_only and routed[0] != self._small_talk and frame.question \
                and len(clauses) <= 1:
            return None  # a side question: answered by its own intent, the pending question repeated
        if view.last_intent in self._read_only and view.last_intent != view.active_intent \
                and frame.elliptical and frame.question:
            return None  # "那广州呢" after a side question about the weather: its follow-up
        if view.expected_type not in _FREE_TYPES and frame.asks_advice and not frame.has_digits:
            return Match(self.stage, Kind.INVALID, intent=view.active_intent or "unknown", params={"advice": True},
                         detail=f"asks what {view.expected_field} to choose")  # 你推荐多少预算合适
        if self._picked_for_another(turn):
            return None  # "第二个改成6点" while asked which one to cancel: a request of its own about that one
        picked = self._picked(turn)
        if picked is not None:  # "早上那个" while asked which one: the one shown that it names
            return Match(self.stage, Kind.ANSWER, intent=view.active_intent or "unknown", params={"value": picked},
                         detail=f"field {view.expected_field}: picked from what was shown")
        action = registry.action(session.skill, session.action) if session is not None else None
        if routed and routed[0] == view.active_intent and action is not None and session is not None \
                and frame.another_thing(action, session.params, asked=view.expected_field):
            return None  # the same request about something else: a new one (the rules start it)
        changed = self._modifies(frame, action, session.params) \
            if view.expected_type in _FREE_TYPES and action is not None and session is not None else None
        if changed:  # "便宜点" while asked for restrictions: the request in progress changed, not the answer
            return Match(self.stage, Kind.FILL, intent=view.active_intent or "unknown",
                         params={"slots": changed, "value": None, "correction": False},
                         detail=f"modifier {sorted(changed)} of the request, before {view.expected_field}")
        strict = named_slots(registry, session, frame)
        others = {k: v for k, v in strict.items() if k != view.expected_field}
        if others and not (routed and routed[0] != view.active_intent and routed[0] not in self._read_only):
            corrected = frame.corrects
            value = strict.get(view.expected_field)
            detail = (f"{'correction' if corrected else 'slots'} {sorted(others)} explain the message"
                      f"{'' if value is None else f', with field {view.expected_field}'}")
            return Match(self.stage, Kind.FILL, intent=view.active_intent or "unknown",
                         params={"slots": others, "value": value, "correction": corrected}, detail=detail)
        also, also_clause = None, None
        for clause in clauses if len(clauses) > 1 else []:
            found = clause.rule
            if found and found[0] in self._read_only and found[0] != self._small_talk:
                also, also_clause = found[0], clause
                break
        if view.expected_type in _FREE_TYPES and routed and routed[0] not in (view.active_intent, UNKNOWN) \
                and also is None and not self._answers_more(frame, parse):
            return None  # a request in its own right, not free-text content
        rest = [c for c in clauses if c is not also_clause]
        value = parse(frame.joined(rest)) if rest else None
        if value is None and len(rest) > 1:
            value = next((v for v in map(parse, rest) if v is not None), None)
        if value is None:
            filled = spare_text(registry, session, frame) if (routed is None or routed[0] == UNKNOWN) \
                and not frame.question and not frame.corrects else {}
            if filled:
                return Match(self.stage, Kind.FILL, intent=view.active_intent or "unknown",
                             params={"slots": filled, "value": None, "correction": False},
                             detail=f"free text {sorted(filled)} given before {view.expected_field}")
            return None
        if routed and routed[0] not in (view.active_intent, UNKNOWN) and routed[0] not in self._read_only \
                and also is None and not self._answers_more(frame, parse):
            return None  # "明早8点提醒我…" while asked for a budget: a new task, not an answer
        return Match(self.stage, Kind.ANSWER, intent=view.active_intent or "unknown",
                     params={"value": value}, detail=f"field {view.expected_field}", also=also,
                     also_frame=also_clause)
