"""Test kit: a real OpenAI-compatible HTTP server with scripted replies, faults and behaviour modes.

Used by wxbot's own tests and by anyone writing conversation tests that need a model.
"""

from __future__ import annotations

from ._modes import ROLE_PLAY, IdealAnswer, Mode, RequestKind, message_of, mode_step, request_kind
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
    "ROLE_PLAY",
    "FakeOpenAI",
    "IdealAnswer",
    "Mode",
    "RequestKind",
    "RecordedRequest",
    "Reply",
    "Step",
    "delay",
    "disconnect",
    "error",
    "json_reply",
    "malformed",
    "message_of",
    "mode_step",
    "reply",
    "request_kind",
    "respond",
    "tool_call",
    "tool_calls",
]
