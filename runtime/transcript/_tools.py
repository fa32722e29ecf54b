"""What a turn's tools answered (a forecast, an error), recorded with the turn so that a re-run can
answer the same: only code changes then show as changes.

The edge wraps each port (``bot/_recording.py``); while :func:`recording_tools` is open around a turn,
every answer such a wrapper sees is appended to that turn's list (a context variable: each worker lane
is a thread of its own, so turns never mix).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from pydantic import BaseModel, ConfigDict

__all__ = ["ToolCall", "record_tool_call", "recording_tools"]


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
