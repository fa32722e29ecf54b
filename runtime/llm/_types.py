"""Value types and the one port of the LLM layer."""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict

from ._errors import LLMBadOutput
from .budget import TurnDeadline

__all__ = ["LLM", "Completion", "Message", "ToolCall", "ToolSchema", "Usage", "port_accepts"]

Message = Mapping[str, Any]
"""One chat message in the OpenAI wire shape (``role``, ``content``, optional ``tool_calls``...)."""

ToolSchema = Mapping[str, Any]
"""One tool in the OpenAI wire shape: ``{"type": "function", "function": {name, description, parameters}}``."""


class Usage(BaseModel):
    """Tokens one call cost. ``estimated`` is True when the provider returned no usage and we counted."""

    model_config = ConfigDict(frozen=True)

    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated: bool = False

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            estimated=self.estimated or other.estimated,
        )


class ToolCall(BaseModel):
    """A tool call the model asked for. ``arguments`` is the raw JSON text the model produced."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    arguments: str = "{}"

    def parsed_arguments(self) -> dict[str, Any]:
        """The arguments as a dict; raises ``LLMBadOutput`` when they are not a JSON object."""
        try:
            value = json.loads(self.arguments or "{}")
        except json.JSONDecodeError as exc:
            raise LLMBadOutput(f"tool {self.name!r} arguments are not JSON", raw=self.arguments) from exc
        if not isinstance(value, dict):
            raise LLMBadOutput(f"tool {self.name!r} arguments are not an object", raw=self.arguments)
        return value

    def signature(self) -> str:
        """A canonical ``name(args)`` string, used to detect a repeated identical call."""
        try:
            canon = json.dumps(json.loads(self.arguments or "{}"), sort_keys=True, ensure_ascii=False)
        except json.JSONDecodeError:
            canon = self.arguments
        return f"{self.name}({canon})"


class Completion(BaseModel):
    """What one chat completion produced."""

    model_config = ConfigDict(frozen=True)

    profile: str
    model: str = ""
    content: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    finish_reason: str | None = None
    usage: Usage = Usage()
    latency_ms: int = 0

    def as_assistant_message(self) -> dict[str, Any]:
        """The assistant message to append to the conversation before sending tool results back."""
        message: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            message["tool_calls"] = [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                for c in self.tool_calls
            ]
        return message


@runtime_checkable
class LLM(Protocol):
    """The LLM port. Implementations: ``OpenAILLM`` (any OpenAI-compatible endpoint) and ``NoLLM``.

    ``complete`` raises ``LLMUnavailable`` (not configured, outage, timeout, circuit open, the turn's
    time spent), ``LLMRequestRejected`` (the provider refused the request) or ``LLMBadOutput`` (an
    answer that is not the shape asked for). ``deadline`` is the turn's shared model-time budget;
    ``expect`` a JSON schema the content must satisfy where the provider is not told one (JSON mode).
    """

    def is_configured(self, profile: str) -> bool:
        """True when a model is configured for ``profile`` (a stage that needs it may be entered)."""
        ...

    def complete(
        self,
        profile: str,
        messages: Sequence[Message],
        *,
        tools: Sequence[ToolSchema] | None = None,
        response_format: Mapping[str, Any] | None = None,
        tool_choice: str | Mapping[str, Any] | None = None,
        deadline: TurnDeadline | None = None,
        expect: Mapping[str, Any] | None = None,
    ) -> Completion:
        """Run one chat completion with the settings of ``profile``."""
        ...


def port_accepts(port: object, keyword: str) -> bool:
    """Whether ``port.complete`` takes ``keyword`` (ports written before it was added do not).

    Asked for every turn's metered port: the answer is kept per ``complete`` function (reading a
    signature costs ~20 µs)."""
    complete = getattr(port, "complete", None)
    target = getattr(complete, "__func__", complete)  # a bound method: its function, shared by the instances
    try:
        return _accepts(target, keyword)
    except TypeError:  # not hashable: ask every time
        return _reads_keyword(target, keyword)


@functools.lru_cache(maxsize=256)
def _accepts(complete: object, keyword: str) -> bool:
    return _reads_keyword(complete, keyword)


def _reads_keyword(complete: object, keyword: str) -> bool:
    if complete is None:
        return False
    try:
        return keyword in inspect.signature(complete).parameters  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
