"""What every handler of a decision shares: what it needs of the engine, and asking the waiting question again."""

from __future__ import annotations

from typing import Any, Protocol

from runtime import texts
from runtime.apply.dialogue import CONFIRM_TTL, Dialogue
from runtime.context import PausedTask
from runtime.resolve.turn import Turn
from runtime.skill import SkillRegistry
from runtime.understand import Frame, Parser

__all__ = ["Carrier", "rebind", "repeat_pending"]


class Carrier(Protocol):
    """The engine as a decision's handler sees it: what carrying the decision out needs (not the engine
    module itself: no import circle)."""

    dialogue: Dialogue
    registry: SkillRegistry
    read_only: frozenset[str]
    writes: frozenset[str]
    resolver: Any
    parser: Parser

    def run_part(self, turn: Turn, frame: Frame, part: int, *, intent: str | None = None) -> None:
        """Carry out ``frame`` as one request of the turn's message (its ``part``-th): as ``intent`` when the
        message's reading decided it, else decided now."""


MAX_REPEATS = 2


def repeat_pending(turn: Turn) -> None:
    """Ask the waiting question again after something answered in passing — at most twice; after that the
    task is set aside quietly (paused: "继续" brings it back)."""
    ctx = turn.ctx
    if ctx.active is not None and ctx.active.expected_input is not None:
        expected = ctx.active.expected_input
        expected.repeated += 1
        if expected.repeated > MAX_REPEATS:
            session = ctx.active
            if expected.field in session.asked_optional and expected.field not in session.params:
                session.asked_optional.remove(expected.field)  # unanswered: asked again when the task goes on
            ctx.push_paused(PausedTask(session=session, resume_question=expected.question, paused_at=turn.now,
                                       offered=MAX_REPEATS))
            ctx.active = None
            return
        turn.say(texts.REPEAT_PENDING.format(question=expected.question))
    elif ctx.pending_confirmation is not None:
        rebind(turn)
        turn.say(texts.REPEAT_PENDING.format(question=ctx.pending_confirmation.questions))


def rebind(turn: Turn) -> None:
    """A confirmation offered again is confirmable again: bound to the current topic, fresh expiry."""
    pending = turn.ctx.pending_confirmation
    if pending is not None:
        pending.topic_version = turn.ctx.topic_version
        pending.expires_at = max(pending.expires_at, turn.now + CONFIRM_TTL)
