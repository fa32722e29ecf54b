"""The focus stage's reading tools and its operation-based follow-ups (split from
:mod:`runtime.resolve.focus`, whose stage builds on them): whether spans explain a message, whether a
clause asks for nothing, and the candidates read from an operation word — only an operation on what
was shown ("还有哪些"), an operation and words naming one thing of it ("打疫苗那个取消吧"), "看" with
values of the look-up ("只看游泳的"). Pure: the focus is read, never changed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from runtime.context import Focus
from runtime.resolve._input import TurnInput
from runtime.skill import DomainObject, Operation, SkillRegistry, SlotType
from runtime.understand import spans as _spans
from runtime.understand.lexicon import Span, clauses, explained, operations, unexplained, value_spans
from runtime.understand.rules import RuleRouter
from runtime.understand.slots import extract_all

__all__ = ["FocusReader"]

_SAID = "_said"  # a candidate whose values are the words of the message, read as a new request reads them
_DEIXIS = re.compile(r"那件事|这件事|那事|这事|那个|这个|那条|这条|那件|这件")
_BARE_TAIL = re.compile(r"[吧啊呀哦嘛呢的。.！!~～\s]+$")
_UNTYPED = frozenset({SlotType.TEXT, SlotType.TEXT_LIST, SlotType.YES_NO, SlotType.CHOICE})


@dataclass(frozen=True, slots=True)
class _Candidate:
    intent: str
    params: Mapping[str, Any]
    spans: tuple[Span, ...]
    detail: str
    picked: bool = False  # a thing picked from what was shown, for an operation on it


class FocusReader:
    """What the focus stage reads a message with: its registry's declarations and the rules."""

    def __init__(self, registry: SkillRegistry, rules: RuleRouter) -> None:
        self._registry = registry
        self._rules = rules
        self._read_only = registry.read_only_intents()

    def _explains(self, text: str, spans: tuple[Span, ...], *, strict: bool = False) -> bool:
        """Whether ``spans`` explain the message: all of it but a little (``strict``: one character), or
        every clause but those that ask for nothing ("再多一个素菜，怕他吃不饱": the second clause says why,
        not what; "行 就这样 要买些啥": the first one agrees)."""
        def slack(part: str) -> int:
            return 1 if strict else _spans.slack(part)

        if explained(text, list(spans), slack=slack(text)):
            return True
        parts = clauses(text)
        rest = [(a, b) for a, b in parts if not explained(text[a:b], _spans.within(spans, a, b), slack=slack(text[a:b]))]
        return len(rest) < len(parts) and all(self._inert(text[a:b]) for a, b in rest)

    def _inert(self, clause: str) -> bool:
        """A clause that asks for nothing: no operation, no object of the domain, no request of its own."""
        return (not operations(clause) and self._rules.classify(clause) is None
                and not any(o.pattern.search(clause) for o in self._registry.objects))

    def _amends(self, focus: Focus) -> bool:
        """Whether the focus is a record just made by an action that takes corrections (its amend)."""
        found = self._registry.for_intent(focus.intent)
        return found is not None and found[1].amend is not None

    def _takes(self, obj: DomainObject) -> set[str]:
        """The intents of ``obj`` whose action takes one picked entity (has the ``pick`` slot)."""
        found = (self._registry.for_intent(intent) for _, intent in obj.ops)
        return {f[1].intent for f in found if f is not None and obj.pick and f[1].slot(obj.pick) is not None}

    def _seen_with_values(self, turn: TurnInput, focus: Focus) -> _Candidate | None:
        """"看" with values of the look-up said beside it ("只看游泳的" right after a workout was logged):
        the look-up of the focus's skill those values fit, read from the words, when one alone explains them."""
        text, found = turn.frame.text, self._registry.for_intent(focus.intent)
        ops = operations(text)
        if found is None or len(ops) != 1 or ops[0][0] is not Operation.SEE or self._rules.classify(text) is not None:
            return None
        fits: list[_Candidate] = []
        for intent in dict.fromkeys(i for o in found[0].objects if (i := o.intent_for(Operation.SEE)) is not None):
            seen = self._registry.for_intent(intent)
            if seen is None:
                continue
            said, (a, b), told = extract_all(seen[1], text, turn.now), ops[0][1], []
            for name in [n for n in said if (slot := seen[1].slot(n)) is not None and slot.parser in _UNTYPED]:
                at = _spans.said(text, {}, {name: said[name]})  # free words said beside the operation, never
                if not at or any(s < b and a < e for s, e in at):  # words that contain it ("要买啥")
                    said.pop(name)
                told += at
            spans = (ops[0][1], *value_spans(text), *told)
            if said and self._explains(_BARE_TAIL.sub("", text), spans, strict=True):  # "牛肉可以整啥菜" asks more
                fits.append(_Candidate(intent, {_SAID: True}, spans, f"see with {sorted(said)}"))
        return fits[0] if len(fits) == 1 else None

    def _operation_only(self, text: str, focus: Focus) -> _Candidate | None:
        """A message that is only an operation ("还有哪些", "都删了吧") is about the objects of the result
        just shown: the intent of the focus's skill that does it."""
        ops = operations(text)
        if not ops or not explained(text, [s for _, s in ops]):
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

    def _operation_on_words(self, text: str, focus: Focus) -> _Candidate | None:
        """An operation and a few words naming one thing of the kind just shown ("打疫苗那个取消吧" after
        the reminders): that thing, by those words (the skill looks them up, or asks which); or a new record
        of that kind said with its values ("再加一个，后天上午10点看牙医", "你记一下 有牛奶和一块豆腐")."""
        found = self._registry.for_intent(focus.intent)
        if found is None or self._rules.classify(text) is not None \
                or any(o.pattern.search(text) for o in self._registry.objects):
            return None  # a request in its own words ("取消所有提醒") is the rules' to read
        about = {e.kind for e in focus.entities}
        objects = [o for o in found[0].objects if o.name in about or o.intent_for(Operation.SEE) == focus.intent]
        for a, b in clauses(text):  # the clause that says what to do ("…取消吧", not "改时间了")
            clause = text[a:b]
            ops = operations(clause)
            if len(ops) != 1:
                continue
            op, span = ops[0]
            if op is Operation.CHANGE and self._amends(focus):
                continue  # a correction of the record just made, not another one named by words
            words = unexplained(_DEIXIS.sub(lambda m: " " * len(m.group()), clause),
                                [span, *value_spans(clause)]).strip()
            for obj in objects if 2 <= len(words) <= 8 else ():  # the object the result was about
                intent = obj.intent_for(op)
                if intent is not None and obj.pick and intent in self._takes(obj):
                    return _Candidate(intent, {obj.pick: words}, ((a + span[0], a + span[1]),),
                                      f"{op.value} of 「{words}」")
        for op, span in operations(text):
            if op not in (Operation.CREATE, Operation.CHANGE) or (op is Operation.CHANGE and self._amends(focus)):
                continue
            for obj in objects:  # "记一笔" after a history is a log: the skill reads the values in the words
                intent = obj.intent_for(op)
                if intent is not None:
                    return _Candidate(intent, {_SAID: True}, (span,), f"{op.value} with its words")
        return None
