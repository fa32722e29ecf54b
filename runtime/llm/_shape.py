"""Is an HTTP 200 answer usable? Empty content, broken JSON and schema violations are failures too."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ._errors import LLMBadOutput
from ._types import Completion, ToolSchema
from .formats import validate_json

__all__ = ["check_shape", "strip_fence"]


def strip_fence(raw: str) -> str:
    """The text inside a Markdown code fence (```json … ```), or the text itself."""
    text = raw.strip()
    if text.startswith("```"):
        text = text.strip("`")
        if text.lower().startswith("json"):
            text = text[4:]
    return text.strip()


def _json_object(raw: str, where: str) -> dict[str, Any]:
    try:
        value = json.loads(strip_fence(raw))
    except json.JSONDecodeError as exc:
        raise LLMBadOutput(f"{where} is not JSON", raw=raw) from exc
    if not isinstance(value, dict):
        raise LLMBadOutput(f"{where} is not a JSON object", raw=raw)
    return value


def _forced(tool_choice: str | Mapping[str, Any] | None) -> str | None:
    if isinstance(tool_choice, Mapping):
        name = tool_choice.get("function", {}).get("name")
        return str(name) if name else None
    return None


def _parameters(tools: Sequence[ToolSchema] | None, name: str) -> Any:
    for tool in tools or ():
        function = tool.get("function") or {}
        if function.get("name") == name:
            return function.get("parameters")
    return None


def check_shape(completion: Completion, *, tools: Sequence[ToolSchema] | None,
                response_format: Mapping[str, Any] | None, tool_choice: str | Mapping[str, Any] | None,
                expect: Mapping[str, Any] | None) -> None:
    """Raise ``LLMBadOutput`` when the answer is not the shape the request asked for.

    Always: some content or a tool call, and every tool call's arguments a JSON object. A forced
    function call: that call present, arguments valid for its parameters. A JSON response format:
    content a JSON object, valid for its ``json_schema`` (or for ``expect``, in JSON mode).
    """
    content = completion.content or ""
    if not content.strip() and not completion.tool_calls:
        raise LLMBadOutput("empty answer", raw=content)
    for call in completion.tool_calls:
        _json_object(call.arguments or "{}", f"arguments of {call.name!r}")
    forced = _forced(tool_choice)
    if forced is not None:
        chosen = next((c for c in completion.tool_calls if c.name == forced), None)
        if chosen is None:
            raise LLMBadOutput(f"no call to {forced!r}", raw=content)
        schema = _parameters(tools, forced) or expect
        try:
            validate_json(_json_object(chosen.arguments, "arguments"), schema)
        except LLMBadOutput as exc:
            raise LLMBadOutput(exc.detail, raw=chosen.arguments) from exc
        return
    kind = str((response_format or {}).get("type"))
    if kind not in ("json_schema", "json_object"):
        return
    value = _json_object(content, "content")
    schema = ((response_format or {}).get("json_schema") or {}).get("schema") if kind == "json_schema" else expect
    try:
        validate_json(value, schema or expect)
    except LLMBadOutput as exc:
        raise LLMBadOutput(exc.detail, raw=content) from exc
