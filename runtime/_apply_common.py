"""What every handler of a decision shares: the engine it needs, and asking the waiting question again."""

from __future__ import annotations

from typing import Any, Protocol

from runtime import texts
from runtime._dialogue import CONFIRM_TTL, Dialogue
from runtime._turnstate import TurnState
from runtime.skill import SkillRegistry

__all__ = ["Engine", "rebind", "repeat_pending"]


class Engine(Protocol):
    """What carrying out a decision needs of the engine (not the engine module itself: no import circle)."""

    dialogue: Dialogue
    registry: SkillRegistry
    read_only: frozenset[str]
    writes: frozenset[str]
    cascade: Any


def repeat_pending(turn: TurnState) -> None:
    """Ask the waiting question again after something answered in passing."""
    ctx = turn.ctx
    if ctx.active is not None and ctx.active.expected_input is not None:
        turn.say(texts.REPEAT_PENDING.format(question=ctx.active.expected_input.question))
    elif ctx.pending_confirmation is not None:
        rebind(turn)
        turn.say(texts.REPEAT_PENDING.format(question=ctx.pending_confirmation.question))


def rebind(turn: TurnState) -> None:
    """A confirmation offered again is confirmable again: bound to the current topic, fresh expiry."""
    pending = turn.ctx.pending_confirmation
    if pending is not None:
        pending.topic_version = turn.ctx.topic_version
        pending.expires_at = max(pending.expires_at, turn.now + CONFIRM_TTL)
