"""The turn (DESIGN §3.4, §3.5): one message being handled, as one frozen object built once.

A :class:`Turn` holds what was said (its frame), by whom and when, how the conversation stands (the
context it reads and the apply step changes), and where its outcome goes (:class:`Outcome`: the replies,
the data, the trace, what it showed). The three views of DESIGN §3.5 are projections of it, assembled
when the turn is built: the router view (:attr:`Turn.view`), the model summary (:attr:`Turn.summary`), and
the exec view a skill gets (built from the turn's user, message and clock with the action's params). A
part of a message (one request of several) is a turn of its own over the same context and outcome.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from runtime.context import (
    Clarification,
    ConversationRuntimeContext,
    Focus,
    PendingConfirmation,
    SkillSession,
)
from runtime.turn import Inbound, TurnTrace
from runtime.understand import Frame
from runtime.views import ModelSummary, RouterView

__all__ = ["Outcome", "Turn"]


@dataclass
class Outcome:
    """What a turn produces as it is carried out: the replies in order, data for the caller, the trace of
    why, the last result it showed (its ``focus``) and whether a result of this message was shown."""

    trace: TurnTrace
    replies: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    focus: Focus | None = None  # the last result as carrying the turn out sees it (what it has shown, last)
    showed: bool = False
    notes: list[str] = field(default_factory=list)  # failures a stage met while deciding, for the trace


@dataclass(frozen=True, slots=True)
class Turn:
    """One message (or one part of it) being handled. Immutable: the context it carries is the one the
    apply step changes, and its :class:`Outcome` is where replies and the trace go."""

    inbound: Inbound
    frame: Frame
    ctx: ConversationRuntimeContext
    now: datetime
    tz: str
    view: RouterView
    summary: ModelSummary
    out: Outcome
    focus: Focus | None = None  # the last result still alive when the turn was built (what it is read against)
    earlier: tuple[Focus, ...] = ()
    llm: Any = None  # the turn's metered model port (the one stage that may call a model while deciding)

    # -- how the conversation stands (read live from the context) ---------------------------
    @property
    def session(self) -> SkillSession | None:
        """The active task (its expected field is the pending question)."""
        return self.ctx.active

    @property
    def pending(self) -> PendingConfirmation | None:
        """A write waiting for yes/no."""
        return self.ctx.pending_confirmation

    @property
    def clarification(self) -> Clarification | None:
        """A numbered question waiting for a pick."""
        return self.ctx.clarification

    # -- the outcome --------------------------------------------------------------------------
    @property
    def trace(self) -> TurnTrace:
        """Why the turn went where it went."""
        return self.out.trace

    @property
    def replies(self) -> list[str]:
        """The reply paragraphs so far."""
        return self.out.replies

    @property
    def data(self) -> dict[str, Any]:
        """Structured data for the caller."""
        return self.out.data

    @property
    def notes(self) -> list[str]:
        """Where a stage records a failure for the trace."""
        return self.out.notes

    def say(self, text: str) -> None:
        """Add a reply paragraph (empty text is ignored)."""
        text = text.strip()
        if text:
            self.out.replies.append(text)
