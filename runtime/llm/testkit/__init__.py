"""Test kit: a real OpenAI-compatible HTTP server with scripted replies and faults.

Used by wxbot's own tests and by anyone writing conversation tests that need a model.
"""

from __future__ import annotations

from ._script import (
    RecordedRequest,
    Reply,
    Step,
    delay,
    disconnect,
    error,
    json_reply,
    malformed,
    reply,
    respond,
    tool_call,
    tool_calls,
)
from ._server import FakeOpenAI

__all__ = [
    "FakeOpenAI",
    "RecordedRequest",
    "Reply",
    "Step",
    "delay",
    "disconnect",
    "error",
    "json_reply",
    "malformed",
    "reply",
    "respond",
    "tool_call",
    "tool_calls",
]
