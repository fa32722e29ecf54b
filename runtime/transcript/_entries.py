"""Transcript entries: typed records and their pure (de)serialisation to Redis Stream fields, and the
tool answers a turn's entry holds.

A stream entry has two fields: ``kind`` (readable with ``XRANGE`` by hand) and ``data`` (the JSON
of the entry without its stream id). Reading fills ``id`` from the stream id.

What a turn's tools answered (a forecast, an error), recorded with the turn so that a re-run can
answer the same: only code changes then show as changes.

The edge wraps each port (``bot/_recording.py``); while :func:`recording_tools` is open around a turn,
every answer such a wrapper sees is appended to that turn's list (a context variable: each worker lane
is a thread of its own, so turns never mix).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from runtime.turn import Inbound, TurnTrace


class ToolCall(BaseModel):
    """One answer of a tool: ``result`` (JSON-ready) or ``error`` (its type and detail)."""

    model_config = ConfigDict(frozen=True)

    tool: str  # e.g. "weather.forecast"
    args: dict[str, Any]
    result: dict[str, Any] | None = None
    error: dict[str, str] | None = None
    cached: bool = False  # the answer came from the bot's cache, not from the service


_calls: ContextVar[list[ToolCall] | None] = ContextVar("wxbot_tool_calls", default=None)


@contextmanager
def recording_tools() -> Iterator[list[ToolCall]]:
    """Collect the tool answers of the turn run inside (the list fills as the turn runs)."""
    calls: list[ToolCall] = []
    token = _calls.set(calls)
    try:
        yield calls
    finally:
        _calls.reset(token)


def record_tool_call(call: ToolCall) -> None:
    """Add ``call`` to the turn being recorded (nothing happens outside :func:`recording_tools`)."""
    calls = _calls.get()
    if calls is not None:
        calls.append(call)


class EntryKind(StrEnum):
    """What one transcript entry records."""

    TURN = "turn"
    DELIVERY = "delivery"


class TurnEntry(BaseModel):
    """One processed turn: the inbound message, the replies the engine produced and the trace."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["turn"] = "turn"
    id: str = ""
    recorded_at: datetime
    inbound: Inbound
    replies: list[str] = Field(default_factory=list)
    trace: TurnTrace
    tools: list[ToolCall] = Field(default_factory=list)  # what the turn's tools answered (re-runs replay it)


class DeliveryEntry(BaseModel):
    """One piece of text that left (or tried to leave) the bot: a reply or a scheduled push."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["delivery"] = "delivery"
    id: str = ""
    recorded_at: datetime
    user: str
    text: str
    channel: str
    outcome: str
    ref: str = ""
    push: bool = False


TranscriptEntry = Annotated[TurnEntry | DeliveryEntry, Field(discriminator="kind")]
_ENTRY: TypeAdapter[TurnEntry | DeliveryEntry] = TypeAdapter(TranscriptEntry)


class UnreadableEntry(BaseModel):
    """A stream entry that no longer parses (old shape, hand-edited); kept visible, never fatal."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["unreadable"] = "unreadable"
    id: str
    raw: dict[str, str]
    reason: str


def to_fields(entry: TurnEntry | DeliveryEntry) -> dict[str, str]:
    """The stream fields of ``entry`` (its ``id`` is assigned by Redis, so it is left out)."""
    # pydantic-core writes the compact JSON itself (no intermediate dict, no second encoder pass)
    return {"kind": entry.kind, "data": entry.model_dump_json(exclude={"id"})}


def from_fields(entry_id: str, fields: dict[str, str]) -> TurnEntry | DeliveryEntry | UnreadableEntry:
    """Restore one entry read from the stream; a broken one becomes an :class:`UnreadableEntry`."""
    try:
        data: dict[str, Any] = json.loads(fields.get("data", ""))
        data["id"] = entry_id
        return _ENTRY.validate_python(data)
    except (ValueError, ValidationError) as exc:
        return UnreadableEntry(id=entry_id, raw=fields, reason=str(exc).splitlines()[0][:200])


def stream_id_at(moment: datetime) -> str:
    """The smallest stream id at or after ``moment`` (stream ids are milliseconds since the epoch)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return f"{int(moment.timestamp() * 1000)}-0"


def stream_id_time(entry_id: str) -> datetime:
    """When an entry was appended, from its stream id."""
    millis = int(entry_id.split("-", 1)[0])
    return datetime.fromtimestamp(millis / 1000, tz=UTC)
