"""Stage ``rules`` (domain): operation × object (DESIGN §3.6).

A message that names one object of the skills' domain ("闹钟", "冰箱", "运动记录") and an operation on it
in everyday words ("都关了", "瞧瞧", "清空") is that object's intent, when the two (with the values said
beside them) explain the whole message — combinations nobody wrote a rule for. Two objects that fit
equally become a short question. Pure; wording only, never the user's data.
"""

from __future__ import annotations

from runtime.resolve._input import TurnInput
from runtime.resolve._match import Kind, Match
from runtime.skill import Operation, SkillRegistry
from runtime.turn import Stage
from runtime.understand.frame import Frame
from runtime.understand.lexicon import Span, explained, operations, value_spans

__all__ = ["DomainStage"]

CONFIDENCE = 0.85


class DomainStage:
    """Operation words × object words → the intent that does it."""

    stage = Stage.RULES

    def __init__(self, registry: SkillRegistry) -> None:
        self._objects = registry.objects

    def match(self, turn: TurnInput) -> Match | None:
        if turn.view.origin not in ("text", "voice") or turn.frame.empty:
            return None
        return self.read(turn.frame.text)

    def read(self, text: str) -> Match | None:
        """Operation × object in ``text``, when the two explain it whole."""
        named = [(obj, m.span()) for obj in self._objects for m in obj.pattern.finditer(text)]
        if not named:
            return None
        taken = [span for _, span in named]
        ops = [(op, s) for op, s in operations(text) if not any(a < s[1] and s[0] < b for a, b in taken)]
        found: dict[str, list[Span]] = {}
        for obj, ospan in named:
            for op, pspan in ops:
                intent = obj.intent_for(op)
                if intent is not None:
                    found.setdefault(intent, []).extend((ospan, pspan))
        if not found:
            return None
        spans = [s for group in found.values() for s in group] + value_spans(text)
        if not explained(text, spans, slack=max(1, len(text) // 8)):
            return None
        if len(found) > 1:
            options = tuple((intent, intent) for intent in list(found)[:2])
            return Match(self.stage, Kind.CLARIFY, intent=options[0][0], confidence=0.5, options=options,
                         detail=f"domain: {', '.join(found)}")
        intent = next(iter(found))
        return Match(self.stage, Kind.INTENT, intent=intent, confidence=CONFIDENCE, detail="domain: operation × object")

    def guesses(self, frame: Frame, *, most: int = 3) -> tuple[str, ...]:
        """The requests a message that hints at the domain may mean, in the order its things are hinted:
        per thing, the operation said on it, else creating it, else looking at it ("忘了吃药" → a
        reminder, a dinner). For a question with numbered options when nothing else is sure. Pure."""
        text = frame.text
        said = [op for op, _ in operations(text)]
        hinted = sorted(((m.start(), obj) for obj in self._objects if (m := obj.hints.search(text))),
                        key=lambda pair: pair[0])
        out: list[str] = []
        for _, obj in hinted:
            intent = next((i for op in (*said, Operation.CREATE, Operation.SEE) if (i := obj.intent_for(op))), None)
            if intent is not None and intent not in out:
                out.append(intent)
        return tuple(out[:most])
