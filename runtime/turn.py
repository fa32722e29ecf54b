"""What goes into a turn and what comes out of it: the inbound message, the trace, the result."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator


class Origin(StrEnum):
    """Where a turn's input came from. Routers may read it; skills never do (DESIGN §6.3)."""

    TEXT = "text"
    VOICE = "voice"
    MENU = "menu"
    EVENT = "event"
    PUSH = "push"


class Stage(StrEnum):
    """The cascade stages, in order (DESIGN §3.1)."""

    EVENT = "event"
    CONTROL = "control"
    EXPECTED_INPUT = "expected_input"
    RULES = "rules"
    INTENT_MODEL = "intent_model"
    LLM_ROUTER = "llm_router"
    FALLBACK = "fallback"


class Inbound(BaseModel):
    """One message or event from a user, already parsed from its transport."""

    model_config = ConfigDict(frozen=True)

    user: str = Field(min_length=1, max_length=128)
    text: str = ""
    origin: Origin = Origin.TEXT
    event: str | None = None
    key: str | None = None
    msg_id: str
    at: datetime

    @field_validator("at")
    @classmethod
    def _aware(cls, value: datetime) -> datetime:
        if value.tzinfo is None:
            raise ValueError("Inbound.at must be timezone-aware")
        return value


class StateSnapshot(BaseModel):
    """The public summary of a user's conversation state (the script contract's ``state``)."""

    model_config = ConfigDict(frozen=True)

    active_skill: str | None = None
    expected_field: str | None = None
    paused: list[str] = Field(default_factory=list)
    pending_confirmation: str | None = None


class TurnTrace(BaseModel):
    """Why a turn went where it went: one deciding stage, the intent, costs and errors."""

    turn_id: str = ""
    user: str = ""
    msg_id: str = ""
    stage: Stage = Stage.FALLBACK
    intent: str = "unknown"
    confidence: float = 1.0
    skill: str | None = None
    action: str | None = None
    detail: str = ""
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    tokens_estimated: bool = False
    latency_ms: float = 0.0
    errors: list[str] = Field(default_factory=list)
    state_before: StateSnapshot = Field(default_factory=StateSnapshot)
    state_after: StateSnapshot = Field(default_factory=StateSnapshot)


class TurnResult(BaseModel):
    """The outcome of one turn: replies to deliver (in order), the trace and the new state."""

    replies: list[str]
    trace: TurnTrace
    state: StateSnapshot
    data: dict[str, Any] = Field(default_factory=dict)
