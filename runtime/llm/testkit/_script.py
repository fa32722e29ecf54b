"""Scripted steps for the fake OpenAI server: replies, tool calls and faults."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "Delay",
    "Disconnect",
    "Dynamic",
    "HTTPFault",
    "Malformed",
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


@dataclass(frozen=True)
class RecordedRequest:
    """One request the fake received, for assertions on what the prompt contained."""

    method: str
    path: str
    headers: Mapping[str, str]
    body: Mapping[str, Any] | None
    raw: bytes

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The chat messages sent."""
        return list((self.body or {}).get("messages") or [])

    @property
    def model(self) -> str | None:
        """The model requested."""
        value = (self.body or {}).get("model")
        return str(value) if value is not None else None

    @property
    def tool_names(self) -> list[str]:
        """Names of the tools offered to the model, in order."""
        return [str(t.get("function", {}).get("name")) for t in (self.body or {}).get("tools") or []]

    @property
    def tool_choice(self) -> Any:
        """The ``tool_choice`` sent, if any."""
        return (self.body or {}).get("tool_choice")

    @property
    def response_format_type(self) -> str | None:
        """``json_schema``, ``json_object``, ``text`` or None."""
        fmt = (self.body or {}).get("response_format")
        return str(fmt.get("type")) if isinstance(fmt, Mapping) else None

    @property
    def prompt_text(self) -> str:
        """Every message's text content joined by newlines (what the model read)."""
        parts: list[str] = []
        for message in self.messages:
            content = message.get("content")
            if isinstance(content, str):
                parts.append(content)
            elif isinstance(content, list):
                parts.extend(str(p.get("text", "")) for p in content if isinstance(p, Mapping))
        return "\n".join(parts)


@dataclass(frozen=True)
class Reply:
    """A 200 chat completion. ``usage`` None omits the field; a tuple fixes (prompt, completion)."""

    content: str | None = None
    tool_calls: tuple[tuple[str, str, str], ...] = ()  # (id, name, arguments JSON)
    usage: tuple[int, int] | None | bool = True
    finish_reason: str | None = None


@dataclass(frozen=True)
class HTTPFault:
    """An HTTP error response with an OpenAI-style error body."""

    status: int
    message: str = "fake error"
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Delay:
    """Wait ``seconds`` (interruptible on shutdown), then run ``then``."""

    seconds: float
    then: Step


@dataclass(frozen=True)
class Malformed:
    """A 200 whose body is not valid JSON."""

    body: bytes = b'{"id": "chatcmpl-broken", "choices": [{"message": '


@dataclass(frozen=True)
class Disconnect:
    """Close the connection without any response."""


@dataclass(frozen=True)
class Dynamic:
    """Compute the step from the request (e.g. echo part of the prompt)."""

    fn: Callable[[RecordedRequest], Step]


Step = Reply | HTTPFault | Delay | Malformed | Disconnect | Dynamic


def reply(content: str, *, usage: tuple[int, int] | bool = True, finish_reason: str | None = None) -> Reply:
    """A plain text answer. ``usage=False`` omits ``usage``; a tuple sets (prompt, completion) tokens."""
    return Reply(content=content, usage=None if usage is False else usage, finish_reason=finish_reason)


def json_reply(value: Any, *, usage: tuple[int, int] | bool = True) -> Reply:
    """A text answer whose content is ``value`` as JSON (for response_format requests)."""
    return reply(json.dumps(value, ensure_ascii=False), usage=usage)


def tool_call(name: str, arguments: Mapping[str, Any] | str | None = None, *, call_id: str | None = None,
              usage: tuple[int, int] | bool = True) -> Reply:
    """One tool call; ``arguments`` may be a dict or raw (possibly broken) JSON text."""
    return tool_calls((name, arguments, call_id), usage=usage)


def tool_calls(*calls: tuple[str, Mapping[str, Any] | str | None, str | None],
               usage: tuple[int, int] | bool = True) -> Reply:
    """Several tool calls in one answer: ``(name, arguments, call_id or None)`` each."""
    built: list[tuple[str, str, str]] = []
    for index, (name, arguments, call_id) in enumerate(calls):
        text = arguments if isinstance(arguments, str) else json.dumps(arguments or {}, ensure_ascii=False)
        built.append((call_id or f"call_{name}_{index}", name, text))
    return Reply(tool_calls=tuple(built), usage=None if usage is False else usage)


def error(status: int, message: str = "fake error", *, retry_after_ms: int | None = 1) -> HTTPFault:
    """An HTTP error. 429/5xx carry ``retry-after-ms`` (default 1 ms) so client retries stay fast."""
    headers = {"retry-after-ms": str(retry_after_ms)} if retry_after_ms is not None else {}
    return HTTPFault(status=status, message=message, headers=headers)


def delay(seconds: float, then: Step | None = None) -> Delay:
    """Answer late (to trigger a client timeout); ``then`` defaults to a short reply."""
    return Delay(seconds=seconds, then=then if then is not None else reply("迟到的回答"))


def malformed(body: bytes | None = None) -> Malformed:
    """A 200 with a broken JSON body."""
    return Malformed(body) if body is not None else Malformed()


def disconnect() -> Disconnect:
    """Drop the connection without answering."""
    return Disconnect()


def respond(fn: Callable[[RecordedRequest], Step]) -> Dynamic:
    """A step computed from the request it answers."""
    return Dynamic(fn)
