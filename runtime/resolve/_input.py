"""What every decider reads (DESIGN §3.4): the router view and the shape of the conversation.

Assembled once per turn before the cascade. The records it refers to belong to the turn's context;
deciders only read them (a test asserts that deciding never changes the context).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from runtime.context import Clarification, Focus, PendingConfirmation, SkillSession
from runtime.understand.frame import Frame
from runtime.views import ModelSummary, RouterView


@dataclass(frozen=True, slots=True)
class TurnInput:
    """The message, how the conversation stands, and the last result still in focus.

    ``frame``: the message as parsed (the only way to its words); ``session``: the active task (its expected field is the pending question); ``pending``: a write
    waiting for yes/no; ``clarification``: a numbered question waiting for a pick; ``focus``: the last
    result while it is alive (DESIGN §3.4), ``earlier`` the results before it still alive; ``llm``: the turn's metered model port, for the one stage
    that may call a model while deciding; ``notes``: where a stage records a failure for the trace.
    """

    view: RouterView
    frame: Frame
    summary: ModelSummary
    now: datetime
    session: SkillSession | None = None
    pending: PendingConfirmation | None = None
    clarification: Clarification | None = None
    focus: Focus | None = None
    earlier: tuple[Focus, ...] = ()
    llm: Any = None
    notes: list[str] = field(default_factory=list)
