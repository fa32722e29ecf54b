"""The transcript: every turn (inbound, replies, trace) and every delivery, per user, in Redis Streams."""

from runtime.transcript._entries import ToolCall, from_fields, record_tool_call, recording_tools, to_fields
from runtime.transcript.store import (
    ActiveUser,
    DeliveryEntry,
    EntryKind,
    LatencySummary,
    StatsTally,
    TranscribedTurns,
    Transcript,
    TranscriptEntry,
    TranscriptStats,
    TurnEntry,
    TurnHandler,
    UnreadableEntry,
    percentile,
    stream_id_at,
    stream_id_time,
)

__all__ = [
    "ActiveUser", "DeliveryEntry", "EntryKind", "LatencySummary", "StatsTally", "ToolCall", "TranscribedTurns", "Transcript",
    "TranscriptEntry", "TranscriptStats", "TurnEntry", "TurnHandler", "UnreadableEntry", "from_fields", "percentile",
    "record_tool_call", "recording_tools", "stream_id_at", "stream_id_time", "to_fields",
]
