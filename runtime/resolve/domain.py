"""Stage ``rules`` (domain): operation × object (DESIGN §3.6), read by the parser
(:func:`runtime.understand.domain.domain_intents`); one intent is the request, two make a short question."""

from __future__ import annotations

from runtime.resolve._match import Kind, Match
from runtime.resolve.turn import Turn
from runtime.turn import Stage

__all__ = ["DomainStage"]

CONFIDENCE = 0.85


class DomainStage:
    """Operation words × object words → the intent that does it."""

    stage = Stage.RULES

    def match(self, turn: Turn) -> Match | None:
        if turn.view.origin not in ("text", "voice") or turn.frame.empty:
            return None
        found = turn.frame.domain()
        if not found:
            return None
        if len(found) > 1:
            options = tuple((intent, intent) for intent in found[:2])
            return Match(self.stage, Kind.CLARIFY, intent=options[0][0], confidence=0.5, options=options,
                         detail=f"domain: {', '.join(found)}")
        return Match(self.stage, Kind.INTENT, intent=found[0], confidence=CONFIDENCE,
                     detail="domain: operation × object")
