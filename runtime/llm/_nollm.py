"""The LLM used when nothing is configured: every call is ``LLMUnavailable(not_configured)``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ._errors import LLMUnavailable, UnavailableReason
from ._types import Completion, Message, ToolSchema
from .budget import TurnDeadline

__all__ = ["NoLLM"]


class NoLLM:
    """``LLM`` with no model behind it. Stages check ``is_configured`` and are never entered."""

    def is_configured(self, profile: str) -> bool:
        """Always False."""
        return False

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
        """Always raises ``LLMUnavailable(not_configured)``."""
        raise LLMUnavailable(UnavailableReason.NOT_CONFIGURED, profile=profile)
