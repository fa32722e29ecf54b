"""The focus stage's reading tools and its operation-based follow-ups (split from
:mod:`runtime.resolve.focus`, whose stage builds on them): whether spans explain a message, whether a
clause asks for nothing, and the candidates read from an operation word — only an operation on what
was shown ("还有哪些"), an operation and words naming one thing of it ("打疫苗那个取消吧"), "看" with
values of the look-up ("只看游泳的"). Pure: the focus is read, never changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from runtime.context import Focus
from runtime.resolve.turn import Turn
from runtime.skill import DomainObject, Operation, SkillRegistry, SlotType
from runtime.understand import Frame

__all__ = ["FocusReader"]

_SAID = "_said"  # a candidate whose values are the words of the message, read as a new request reads them
_UNTYPED = frozenset({SlotType.TEXT, SlotType.TEXT_LIST, SlotType.YES_NO, SlotType.CHOICE})


Span = tuple[int, int]


def within(spans: tuple[Span, ...], start: int, end: int) -> list[Span]:
    """``spans`` cut to ``start..end`` and made relative to it."""
    return [(max(a, start) - start, min(b, end) - start) for a, b in spans if a < end and start < b]


@dataclass(frozen=True, slots=True)
class _Candidate:
    intent: str
    params: Mapping[str, Any]
    spans: tuple[Span, ...]
    detail: str
    picked: bool = False  # a thing picked from what was shown, for an operation on it


class FocusReader:
    """What the focus stage reads a message with: its registry's declarations."""

    def __init__(self, registry: SkillRegistry) -> None:
        self._registry = registry
        self._read_only = registry.read_only_intents()

    def _explains(self, frame: Frame, spans: tuple[Span, ...], *, strict: bool = False) -> bool:
        """Whether ``spans`` explain the message: all of it but a little (``strict``: one character), or
        every clause but those that ask for nothing ("再多一个素菜，怕他吃不饱": the second clause says why,
        not what; "行 就这样 要买些啥": the first one agrees)."""
        def slack(part: Frame) -> int:
            return 1 if strict else part.slack

        if frame.explains(spans, slack=slack(frame)):
            return True
        parts = frame.clauses()
        rest = [part for (a, b), part in parts if not part.explains(within(spans, a, b), slack=slack(part))]
        return len(rest) < len(parts) and all(self._inert(part) for part in rest)

    def _inert(self, clause: Frame) -> bool:
        """A clause that asks for nothing: no operation, no object of the domain, no request of its own."""
        return not clause.operations and clause.rule is None and not clause.names_any(self._registry.objects)

    def _amends(self, focus: Focus) -> bool:
        """Whether the focus is a record just made by an action that takes corrections (its amend)."""
        found = self._registry.for_intent(focus.intent)
        return found is not None and found[1].amend is not None

    def _takes(self, obj: DomainObject) -> set[str]:
        """The intents of ``obj`` whose action takes one picked entity (has the ``pick`` slot)."""
        found = (self._registry.for_intent(intent) for _, intent in obj.ops)
        return {f[1].intent for f in found if f is not None and obj.pick and f[1].slot(obj.pick) is not None}

    def _seen_with_values(self, turn: Turn, focus: Focus) -> _Candidate | None:
        """"看" with values of the look-up said beside it ("只看游泳的" right after a workout was logged):
        the look-up of the focus's skill those values fit, read from the words, when one alone explains them."""
        frame, found = turn.frame, self._registry.for_intent(focus.intent)
        ops = frame.operations
        if found is None or len(ops) != 1 or ops[0][0] is not Operation.SEE or frame.rule is not None:
            return None
        fits: list[_Candidate] = []
        for intent in dict.fromkeys(i for o in found[0].objects if (i := o.intent_for(Operation.SEE)) is not None):
            seen = self._registry.for_intent(intent)
            if seen is None:
                continue
            said, (a, b), told = dict(frame.slots(seen[1])), ops[0][1], []
            for name in [n for n in said if (slot := seen[1].slot(n)) is not None and slot.parser in _UNTYPED]:
                at = frame.said_spans({}, {name: said[name]})  # free words said beside the operation, never
                if not at or any(s < b and a < e for s, e in at):  # words that contain it ("要买啥")
                    said.pop(name)
                told += at
            spans = (ops[0][1], *frame.value_spans, *told)
            if said and self._explains(frame.bare(), spans, strict=True):  # "牛肉可以整啥菜" asks more
                fits.append(_Candidate(intent, {_SAID: True}, spans, f"see with {sorted(said)}"))
        return fits[0] if len(fits) == 1 else None

    def _operation_only(self, frame: Frame, focus: Focus) -> _Candidate | None:
        """A message that is only an operation ("还有哪些", "都删了吧") is about the objects of the result
        just shown: the intent of the focus's skill that does it."""
        ops = frame.operations
        if not ops or not frame.explains([s for _, s in ops]):
            return None
        found = self._registry.for_intent(focus.intent)
        skill = found[0] if found is not None else None
        major = {e.kind for e in focus.entities if not e.attrs.get("minor")}
        kinds = major or {e.kind for e in focus.entities}  # a reminder's day is a detail of it, not a second thing
        objects = [o for o in self._registry.objects if o.name in kinds or (skill is not None and o in skill.objects)]
        for op, _ in ops:
            if op is Operation.CHANGE and self._amends(focus):
                continue  # "改成9点" right after a record was made corrects that record (its action's amend)
            intents = {i for o in objects if (i := o.intent_for(op)) is not None}
            if len(intents) == 1:
                intent = intents.pop()
                params = dict(focus.params) if intent == focus.intent else {}
                return _Candidate(intent, params, tuple(s for _, s in ops), f"{op.value} of what was shown")
        return None

    def _operation_on_words(self, frame: Frame, focus: Focus) -> _Candidate | None:
        """An operation and a few words naming one thing of the kind just shown ("打疫苗那个取消吧" after
        the reminders): that thing, by those words (the skill looks them up, or asks which); or a new record
        of that kind said with its values ("再加一个，后天上午10点看牙医", "你记一下 有牛奶和一块豆腐")."""
        found = self._registry.for_intent(focus.intent)
        if found is None or frame.rule is not None or frame.names_any(self._registry.objects):
            return None  # a request in its own words ("取消所有提醒") is the rules' to read
        about = {e.kind for e in focus.entities}
        objects = [o for o in found[0].objects if o.name in about or o.intent_for(Operation.SEE) == focus.intent]
        for (a, _), clause in frame.clauses():  # the clause that says what to do ("…取消吧", not "改时间了")
            ops = clause.operations
            if len(ops) != 1:
                continue
            op, span = ops[0]
            if op is Operation.CHANGE and self._amends(focus):
                continue  # a correction of the record just made, not another one named by words
            words = clause.words_beyond([span, *clause.value_spans])
            for obj in objects if 2 <= len(words) <= 8 else ():  # the object the result was about
                intent = obj.intent_for(op)
                if intent is not None and obj.pick and intent in self._takes(obj):
                    return _Candidate(intent, {obj.pick: words}, ((a + span[0], a + span[1]),),
                                      f"{op.value} of 「{words}」")
        for op, span in frame.operations:
            if op not in (Operation.CREATE, Operation.CHANGE) or (op is Operation.CHANGE and self._amends(focus)):
                continue
            for obj in objects:  # "记一笔" after a history is a log: the skill reads the values in the words
                intent = obj.intent_for(op)
                if intent is not None:
                    return _Candidate(intent, {_SAID: True}, (span,), f"{op.value} with its words")
        return None
