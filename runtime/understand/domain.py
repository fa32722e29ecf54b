"""Operation × object (DESIGN §3.6): what a message asks to do to which thing of the domain.

A message that names one object of the skills' domain ("闹钟", "冰箱", "运动记录") and an operation on it
in everyday words ("都关了", "瞧瞧", "清空") asks for that object's intent, when the two (with the values
said beside them) explain the whole message — combinations nobody wrote a rule for. Pure; wording only,
never the user's data.
"""

from __future__ import annotations

from collections.abc import Sequence

from runtime.skill import DomainObject, Operation
from runtime.understand.lexicon import Span, explained, operations, value_spans

__all__ = ["domain_intents", "domain_guesses"]


def domain_intents(text: str, objects: Sequence[DomainObject]) -> tuple[str, ...]:
    """The intents operation × object reads in ``text`` when they explain it whole (two or more: it could
    mean either); () when they do not."""
    named = [(obj, m.span()) for obj in objects for m in obj.pattern.finditer(text)]
    if not named:
        return ()
    taken = [span for _, span in named]
    ops = [(op, s) for op, s in operations(text) if not any(a < s[1] and s[0] < b for a, b in taken)]
    found: dict[str, list[Span]] = {}
    for obj, ospan in named:
        for op, pspan in ops:
            intent = obj.intent_for(op)
            if intent is not None:
                found.setdefault(intent, []).extend((ospan, pspan))
    if not found:
        return ()
    spans = [s for group in found.values() for s in group] + value_spans(text)
    if not explained(text, spans, slack=max(1, len(text) // 8)):
        return ()
    return tuple(found)


def domain_guesses(text: str, objects: Sequence[DomainObject], *, most: int = 3) -> tuple[str, ...]:
    """The requests a message that hints at the domain may mean, in the order its things are hinted: per
    thing, the operation said on it, else creating it, else looking at it ("忘了吃药" → a reminder, a
    dinner). For a question with numbered options when nothing else is sure."""
    said = [op for op, _ in operations(text)]
    hinted = sorted(((m.start(), obj) for obj in objects if (m := obj.hints.search(text))), key=lambda pair: pair[0])
    out: list[str] = []
    for _, obj in hinted:
        intent = next((i for op in (*said, Operation.CREATE, Operation.SEE) if (i := obj.intent_for(op))), None)
        if intent is not None and intent not in out:
            out.append(intent)
    return tuple(out[:most])
