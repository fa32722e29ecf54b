"""A look-up asked again "now" (DESIGN §3.4): "现在呢" right after a change re-asks the question shown
before the change, at this moment ("我有哪些提醒" · "明早8点提醒我…" · "现在呢")."""

from __future__ import annotations

from runtime.resolve._match import Kind, Match
from runtime.resolve.turn import Turn
from runtime.skill import Operation, SkillRegistry
from runtime.turn import Stage

__all__ = ["asked_again_now"]

def asked_again_now(turn: Turn, registry: SkillRegistry, confidence: float) -> Match | None:
    """"And now?" right after a write: the look-up of that skill shown before it, asked again, else the
    look at the things the write changed (its object's "see"). None for anything else; after a look-up,
    "现在" is a value of its own (现在的天气)."""
    focus = turn.focus
    found = registry.for_intent(focus.intent) if focus is not None else None
    if focus is None or found is None or found[1].read_only or not turn.frame.again_now():
        return None
    skill = found[0]
    mine = {a.intent for a in skill.actions if a.read_only}
    before = next((f for f in turn.earlier if f.intent in mine), None)
    if before is not None:
        return Match(Stage.RULES, Kind.REFER, intent=before.intent, confidence=confidence,
                     params={"params": dict(before.params)}, detail=f"{before.intent} asked again now")
    seen = {i for o in skill.objects if focus.intent in {x for _, x in o.ops}
            and (i := o.intent_for(Operation.SEE)) is not None and i in mine}
    if len(seen) != 1:
        return None
    intent = seen.pop()
    return Match(Stage.RULES, Kind.REFER, intent=intent, confidence=confidence, params={"params": {}},
                 detail=f"{intent}: what {focus.intent} changed, now")
