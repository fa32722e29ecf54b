"""ConversationRuntimeContext: the typed, versioned state of one user's conversation (DESIGN §3.3).

Pure data plus pure (de)serialisation. Storage lives in :mod:`runtime.store`.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

SCHEMA_VERSION = 3
MAX_PAUSED = 3
MAX_RECENT = 8
MAX_PROCESSED = 16
MAX_EARLIER = 2


class ExpectedInput(BaseModel):
    """A field the bot has just asked for, and how to parse the answer."""

    field: str
    type: str
    question: str
    asked_at: datetime
    attempts: int = 0
    options: list[str] = Field(default_factory=list)
    repeated: int = 0  # how often it was asked again after something else was answered in passing
    partial: str = ""  # the words of a value that could not be used as it was ("那天早上"): an answer
    # giving only the rest ("7点") is read together with them
    established: dict[str, Any] | None = None  # the time the question already established (its day): an
    # answer that names no day keeps it ("明天放学以后…" asked, "下午4点半" is tomorrow at 16:30)


class SkillSession(BaseModel):
    """A skill action in progress: what is collected, what is missing, what was asked."""

    skill: str
    action: str
    intent: str
    params: dict[str, Any] = Field(default_factory=dict)
    missing: list[str] = Field(default_factory=list)
    asked_optional: list[str] = Field(default_factory=list)
    expected_input: ExpectedInput | None = None
    topic_version: int = 0
    started_at: datetime | None = None
    by_model: bool = False  # its intent or a value came from a model: confirmed with the user first


class PausedTask(BaseModel):
    """An interrupted session and the question that resumes it."""

    session: SkillSession
    resume_question: str
    paused_at: datetime
    offered: int = 0  # how often going back to it was offered


class PendingConfirmation(BaseModel):
    """A write action waiting for the user's yes/no."""

    skill: str
    action: str
    intent: str
    params: dict[str, Any] = Field(default_factory=dict)
    question: str
    msg_id: str
    expires_at: datetime
    topic_version: int
    amend: bool = False  # a correction of the record the last run made: the action's amend runs
    also: list[PendingConfirmation] = Field(default_factory=list)
    """Writes of the same message asked together ("今天称了65公斤 还跑了半小时步"): a yes carries them all
    out, a no drops them all."""

    @property
    def questions(self) -> str:
        """Every question this confirmation asks, one per line."""
        return "\n".join(p.question for p in (self, *self.also))


class ClarifyOption(BaseModel):
    """One numbered option of a clarifying question."""

    label: str
    intent: str
    params: dict[str, Any] = Field(default_factory=dict)


class Clarification(BaseModel):
    """An ambiguous message turned into a numbered question (itself an expected input)."""

    text: str
    question: str
    options: list[ClarifyOption]
    asked_at: datetime


class RecentMessage(BaseModel):
    """A message relevant to the active task."""

    role: Literal["user", "bot"]
    text: str
    at: datetime


class ProcessedTurn(BaseModel):
    """A message already handled, with its replies: a redelivered message gets the same answer."""

    msg_id: str
    replies: list[str] = Field(default_factory=list)
    stage: str = ""
    intent: str = ""
    skill: str | None = None


class FocusEntity(BaseModel):
    """One entity a result showed, as shown (see :class:`runtime.skill.Entity`)."""

    kind: str
    name: str
    ref: Any = None
    attrs: dict[str, Any] = Field(default_factory=dict)


class Focus(BaseModel):
    """The last result (DESIGN §3.4): the action that ran, its params, and the entities it showed,
    numbered in the order shown. A follow-up is read against it; it expires with its topic."""

    skill: str = ""
    action: str = ""
    intent: str
    params: dict[str, Any] = Field(default_factory=dict)
    entities: list[FocusEntity] = Field(default_factory=list)
    shown: dict[str, Any] = Field(default_factory=dict)
    at: datetime
    ref: Any = None  # what the run made (a record id), for an amending correction
    topic_version: int = 0


class Summary(BaseModel):
    """Structured long-term facts: short, typed, reusable (defaults and the model summary)."""

    goal: str | None = None
    constraints: dict[str, Any] = Field(default_factory=dict)
    confirmed: list[str] = Field(default_factory=list)
    open_items: list[str] = Field(default_factory=list)
    help_offered: bool = False
    resume_offers: int = 0  # how often the paused task was offered again since it was paused


class ConversationRuntimeContext(BaseModel):
    """One user's conversation state, persisted between turns with compare-and-set on ``version``."""

    user: str
    schema_version: int = SCHEMA_VERSION
    version: int = 0
    topic_version: int = 0
    active: SkillSession | None = None
    paused: list[PausedTask] = Field(default_factory=list)
    pending_confirmation: PendingConfirmation | None = None
    clarification: Clarification | None = None
    focus: Focus | None = None
    earlier: list[Focus] = Field(default_factory=list)  # the results before it, newest first (a few)
    queued: list[str] = Field(default_factory=list)  # requests of one message still to carry out, in order
    recent: list[RecentMessage] = Field(default_factory=list)
    summary: Summary = Field(default_factory=Summary)
    processed: list[ProcessedTurn] = Field(default_factory=list)
    updated_at: datetime | None = None

    @classmethod
    def empty(cls, user: str, *, version: int = 0) -> ConversationRuntimeContext:
        """A fresh context (``version`` keeps compare-and-set working over a replaced blob)."""
        return cls(user=user, version=version)

    def remember(self, role: Literal["user", "bot"], text: str, at: datetime) -> None:
        """Keep ``text`` among the recent messages of the active task (bounded)."""
        self.recent.append(RecentMessage(role=role, text=text[:200], at=at))
        del self.recent[:-MAX_RECENT]

    def already(self, msg_id: str) -> ProcessedTurn | None:
        """The earlier outcome of ``msg_id`` if this context already processed it."""
        return next((p for p in self.processed if p.msg_id == msg_id), None)

    def mark_processed(self, turn: ProcessedTurn) -> None:
        """Remember a processed message (bounded), saved atomically with the state it produced."""
        self.processed.append(turn)
        del self.processed[:-MAX_PROCESSED]

    def show(self, focus: Focus) -> None:
        """Make ``focus`` the last result; the one before it stays reachable for a while (bounded)."""
        if self.focus is not None:
            self.earlier = [self.focus, *self.earlier][:MAX_EARLIER]
        self.focus = focus

    def push_paused(self, task: PausedTask) -> None:
        """Pause a task; the oldest falls off past :data:`MAX_PAUSED`."""
        self.paused.append(task)
        del self.paused[:-MAX_PAUSED]


class ContextCorrupt(ValueError):
    """A stored blob that cannot be read as a context; carries the raw text."""

    def __init__(self, user: str, raw: str, reason: str) -> None:
        super().__init__(f"corrupt context for {user}: {reason}")
        self.user = user
        self.raw = raw
        self.reason = reason


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    # v1 kept paused sessions bare and the summary as free text.
    paused = []
    for item in data.get("paused", []):
        if isinstance(item, dict) and "session" not in item:
            paused.append({"session": item, "resume_question": "要继续刚才的事吗？",
                           "paused_at": data.get("updated_at") or "1970-01-01T00:00:00+00:00"})
        else:
            paused.append(item)
    data["paused"] = paused
    summary = data.get("summary")
    if isinstance(summary, str) or summary is None:
        data["summary"] = {"open_items": [summary] if summary else []}
    data["schema_version"] = 2
    return data


def _v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    # v2 kept the last query's frame in the summary; v3 keeps a focus beside it, with what was shown.
    summary = data.get("summary")
    frame = summary.pop("last_query", None) if isinstance(summary, dict) else None
    if isinstance(frame, dict) and "intent" in frame and "at" in frame:
        data["focus"] = {"intent": frame["intent"], "params": frame.get("params") or {}, "at": frame["at"],
                         "ref": frame.get("ref"), "topic_version": data.get("topic_version", 0)}
    data["schema_version"] = 3
    return data


MIGRATIONS = {1: _v1_to_v2, 2: _v2_to_v3}


def dump_context(ctx: ConversationRuntimeContext) -> str:
    """Serialise a context to JSON text."""
    return ctx.model_dump_json(exclude_none=False)


def load_context(user: str, raw: str | bytes) -> ConversationRuntimeContext:
    """Parse a stored blob, migrating old schema versions; raise :class:`ContextCorrupt` if unreadable."""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    try:  # the common case, a current blob: pydantic-core parses and validates in one pass
        ctx = ConversationRuntimeContext.model_validate_json(text)
        if ctx.schema_version == SCHEMA_VERSION:
            ctx.user = user
            return ctx
    except ValueError:  # ValidationError included: the path below migrates or says what is wrong
        pass
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("not an object")
        version = int(data.get("schema_version", 1))
        while version < SCHEMA_VERSION:
            data = MIGRATIONS[version](data)
            version = int(data["schema_version"])
        if version > SCHEMA_VERSION:
            raise ValueError(f"schema_version {version} is newer than this code")
        data["user"] = user
        return ConversationRuntimeContext.model_validate(data)
    except (ValueError, KeyError, TypeError) as exc:
        raise ContextCorrupt(user, text, str(exc)[:200]) from exc
