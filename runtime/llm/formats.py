"""What a provider accepts for structured output, learnt from its refusals and forgotten after a while.

A provider that answers HTTP 400 to ``response_format: json_schema`` is asked in JSON mode next, then
with one forced tool call. The refusal is remembered for ``reprobe_after_s`` (default 10 minutes,
``OPENAI_FORMAT_REPROBE``) — long enough that the extra request is rare, short enough that a provider
upgraded (or a one-off 400) does not pin the whole process to a worse format.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping
from enum import StrEnum

from ._errors import LLMBadOutput

__all__ = ["DEFAULT_REPROBE_S", "FormatMemory", "OutputMode", "feature_of", "validate_json"]

DEFAULT_REPROBE_S = 600.0


class OutputMode(StrEnum):
    """How structured output is requested from the provider, best first."""

    JSON_SCHEMA = "json_schema"
    JSON_OBJECT = "json_object"
    TOOL = "tool"


def feature_of(response_format: Mapping[str, object] | None, tools: object,
               tool_choice: object) -> str | None:
    """The optional feature a request relies on (``json_schema``, ``json_object`` or ``tools``), if any."""
    if response_format is not None:
        kind = str(response_format.get("type"))
        if kind in (OutputMode.JSON_SCHEMA.value, OutputMode.JSON_OBJECT.value):
            return kind
    if tools or isinstance(tool_choice, Mapping):
        return "tools"
    return None


class FormatMemory:
    """Features one provider refused, each with when; thread-safe, ``now`` injectable (monotonic s)."""

    def __init__(self, *, reprobe_after_s: float = DEFAULT_REPROBE_S,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.reprobe_after_s = reprobe_after_s
        self._now = now
        self._refused: dict[str, float] = {}
        self._lock = threading.Lock()

    def refused(self, feature: str) -> bool:
        """True while a refusal of ``feature`` is remembered (an old one is forgotten: re-probe)."""
        with self._lock:
            return self._refused_locked(feature)

    def _refused_locked(self, feature: str) -> bool:
        at = self._refused.get(feature)
        if at is None:
            return False
        if self._now() - at >= self.reprobe_after_s:
            del self._refused[feature]
            return False
        return True

    def refuse(self, feature: str) -> bool:
        """Remember a refusal; True when it is news (not already remembered)."""
        with self._lock:
            news = not self._refused_locked(feature)
            if news:
                self._refused[feature] = self._now()
            return news

    def accept(self, feature: str) -> None:
        """The feature worked: forget any refusal."""
        with self._lock:
            self._refused.pop(feature, None)

    def usable(self, modes: Iterable[OutputMode]) -> list[OutputMode]:
        """``modes`` not refused now, in order (a tool call needs the ``tools`` feature)."""
        return [m for m in modes if not self.refused("tools" if m is OutputMode.TOOL else m.value)]


_TYPES: dict[str, type | tuple[type, ...]] = {
    "string": str, "number": (int, float), "integer": int, "boolean": bool, "object": dict, "array": list,
}


def validate_json(value: object, schema: object, *, where: str = "output") -> None:
    """Check ``value`` against the small JSON-Schema subset our prompts use (type, properties,
    required, enum); raises ``LLMBadOutput`` naming the first violation."""
    if not isinstance(schema, dict):
        return
    kind = schema.get("type")
    expected = _TYPES.get(str(kind)) if kind else None
    if expected is not None and (not isinstance(value, expected) or (kind != "boolean" and isinstance(value, bool))):
        raise LLMBadOutput(f"{where} is not a {kind}")
    enum = schema.get("enum")
    if isinstance(enum, list) and value not in enum:
        raise LLMBadOutput(f"{where} is not one of the allowed values")
    if isinstance(value, dict):
        for name in schema.get("required") or ():
            if name not in value:
                raise LLMBadOutput(f"{where} lacks {name!r}")
        properties = schema.get("properties") or {}
        if isinstance(properties, dict):
            for name, sub in properties.items():
                if name in value:
                    validate_json(value[name], sub, where=f"{where}.{name}")
