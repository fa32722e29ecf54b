"""The mutable working state of one turn (private to the engine)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from runtime.context import ConversationRuntimeContext, Focus
from runtime.skill import SkillRegistry
from runtime.turn import Inbound, StateSnapshot, TurnTrace
from runtime.understand.frame import Frame


@dataclass
class TurnState:
    """Context copy, clock, replies and trace of the turn being processed."""

    inbound: Inbound
    frame: Frame  # the message (or the part of it being carried out), as parsed
    ctx: ConversationRuntimeContext
    now: datetime
    tz: str
    trace: TurnTrace
    replies: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    llm: Any = None  # a per-turn MeteredLLM around the shared port
    focus: Focus | None = None  # the last result, while it is alive
    showed: bool = False  # a result of this message became the focus (a compound's parts add to it)

    def say(self, text: str) -> None:
        """Add a reply paragraph (empty text is ignored)."""
        text = text.strip()
        if text:
            self.replies.append(text)


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
