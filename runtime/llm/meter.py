"""Per-turn accounting and budget: wrap the port once per turn, read the totals into the turn trace.

The wrapper carries the turn's ``TurnDeadline``, so every stage that calls the model through it (the
router, then the agent) shares one budget: ``MeteredLLM(llm)`` starts one from the port's
``turn_budget_s`` (3 s by default), ``MeteredLLM(llm, deadline=...)`` uses the caller's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from ._errors import LLMError, LLMUnavailable, UnavailableReason
from ._types import LLM, Completion, Message, ToolSchema, Usage, port_accepts
from .budget import DEFAULT_TURN_BUDGET_S, TurnDeadline

__all__ = ["LLMCallRecord", "MeteredLLM"]

# Calls refused before anything went on the wire cost nothing and are not counted as model calls.
_FREE_REASONS = frozenset({UnavailableReason.NOT_CONFIGURED, UnavailableReason.CIRCUIT_OPEN,
                           UnavailableReason.DEADLINE, UnavailableReason.NO_OUTPUT_MODE})


class LLMCallRecord(BaseModel):
    """One call made during a turn (for the trace)."""

    model_config = ConfigDict(frozen=True)

    profile: str
    usage: Usage = Usage()
    latency_ms: int = 0
    error: str | None = None


class MeteredLLM:
    """An ``LLM`` that records every call and holds the turn's deadline; create one per turn.

    ``llm_calls``, ``prompt_tokens`` and ``completion_tokens`` feed ``TurnTrace``; ``errors`` lists
    the failure kinds (``"llm_unavailable:timeout"``...) for the trace's error list.
    """

    def __init__(self, inner: LLM, *, deadline: TurnDeadline | None = None) -> None:
        self._inner = inner
        budget = getattr(inner, "turn_budget_s", DEFAULT_TURN_BUDGET_S)
        self.deadline = deadline if deadline is not None else TurnDeadline(
            float(budget) if isinstance(budget, int | float) else DEFAULT_TURN_BUDGET_S)
        self._passes = {name: port_accepts(inner, name) for name in ("deadline", "expect")}
        self.records: list[LLMCallRecord] = []
        self.errors: list[str] = []

    def is_configured(self, profile: str) -> bool:
        """Delegates to the wrapped port."""
        return self._inner.is_configured(profile)

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
        """Delegates within the turn's deadline and records the call, its usage or its error."""
        extra: dict[str, Any] = {}
        if self._passes["deadline"]:
            extra["deadline"] = deadline or self.deadline  # the adapter caps each attempt by what is left
        if self._passes["expect"] and expect is not None:
            extra["expect"] = expect
        turn = deadline or self.deadline
        try:
            if self._inner.is_configured(profile):
                if turn.expired:
                    raise LLMUnavailable(UnavailableReason.DEADLINE, profile=profile)
                turn.start()
            completion = self._inner.complete(
                profile, messages, tools=tools, response_format=response_format, tool_choice=tool_choice, **extra
            )
        except LLMUnavailable as exc:
            self.errors.append(f"llm_unavailable:{exc.reason.value}")
            if exc.reason not in _FREE_REASONS:
                self.records.append(LLMCallRecord(profile=profile, error=exc.reason.value))
            raise
        except LLMError as exc:
            kind = type(exc).__name__
            self.errors.append(f"llm_error:{kind}")
            self.records.append(LLMCallRecord(profile=profile, error=kind))
            raise
        self.records.append(
            LLMCallRecord(profile=profile, usage=completion.usage, latency_ms=completion.latency_ms)
        )
        return completion

    @property
    def usage(self) -> Usage:
        """Sum of the usage of every successful call."""
        total = Usage()
        for record in self.records:
            total = total + record.usage
        return total

    @property
    def llm_calls(self) -> int:
        """Calls that went out to a model (successful or not)."""
        return len(self.records)

    @property
    def prompt_tokens(self) -> int:
        """Prompt tokens of the turn."""
        return self.usage.prompt_tokens

    @property
    def completion_tokens(self) -> int:
        """Completion tokens of the turn."""
        return self.usage.completion_tokens
