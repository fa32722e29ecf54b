"""The public state summary of a context (the script contract's ``state``)."""

from __future__ import annotations

from runtime.context import ConversationRuntimeContext
from runtime.skill import SkillRegistry
from runtime.turn import StateSnapshot

__all__ = ["snapshot"]


def snapshot(ctx: ConversationRuntimeContext, registry: SkillRegistry) -> StateSnapshot:
    """The public state summary of a context (the script contract's ``state``), intents as reported."""
    active = ctx.active
    pending = ctx.pending_confirmation
    expected = None
    if active and active.expected_input:
        expected = active.expected_input.field
    elif ctx.clarification is not None:
        expected = "choice"
    return StateSnapshot(
        active_skill=active.skill if active else None,
        expected_field=expected,
        paused=[p.session.skill for p in ctx.paused],
        pending_confirmation=registry.public(pending.intent) if pending else None,
    )
