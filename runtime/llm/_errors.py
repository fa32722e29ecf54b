"""The LLM error tree: callers branch on the type, never on the message text."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["LLMBadOutput", "LLMError", "LLMRequestRejected", "LLMUnavailable", "UnavailableReason", "trace_kind"]


class UnavailableReason(StrEnum):
    """Why no answer could be had from the model (recorded in the turn trace)."""

    NOT_CONFIGURED = "not_configured"
    CIRCUIT_OPEN = "circuit_open"
    TIMEOUT = "timeout"
    CONNECTION = "connection"
    RATE_LIMITED = "rate_limited"
    SERVER_ERROR = "server_error"
    AUTH = "auth"
    BAD_RESPONSE = "bad_response"
    DEADLINE = "deadline"
    """The turn's model time is spent: no call was made."""
    NO_OUTPUT_MODE = "no_output_mode"
    """The provider refused every structured-output format lately: no call was made."""


class LLMError(Exception):
    """Base of every error raised by the LLM port."""

    def __init__(self, message: str, *, profile: str | None = None) -> None:
        super().__init__(message)
        self.profile = profile


class LLMUnavailable(LLMError):
    """No usable answer: the model is not configured, down, slow, rate-limited or the circuit is open.

    The caller degrades to a deterministic answer; ``reason`` goes into the trace.
    """

    def __init__(
        self,
        reason: UnavailableReason,
        *,
        profile: str | None = None,
        status: int | None = None,
        detail: str = "",
    ) -> None:
        super().__init__(f"LLM unavailable ({reason.value}){': ' + detail if detail else ''}", profile=profile)
        self.reason = reason
        self.status = status
        self.detail = detail


class LLMRequestRejected(LLMError):
    """The provider refused this request (HTTP 400/404/422), e.g. an unsupported ``response_format``.

    ``feature`` names the optional feature the request used (``json_schema``, ``json_object``,
    ``tools``) when the refusal may be about it: the first such refusal per feature (in the re-probe
    window) does not count against the circuit breaker — the caller falls back to another format —
    every other one does (``counted``).
    """

    def __init__(self, status: int, detail: str, *, profile: str | None = None, feature: str | None = None,
                 counted: bool = True) -> None:
        super().__init__(f"LLM request rejected (HTTP {status}): {detail}", profile=profile)
        self.status = status
        self.detail = detail
        self.feature = feature
        self.counted = counted


class LLMBadOutput(LLMError):
    """The model answered, but not in the shape we asked for (invalid JSON, unknown label, bad tool args)."""

    def __init__(self, detail: str, *, raw: str | None = None, profile: str | None = None) -> None:
        super().__init__(f"LLM output invalid: {detail}", profile=profile)
        self.detail = detail
        self.raw = raw


def trace_kind(exc: LLMError) -> str:
    """The short failure kind for a turn trace: ``llm_unavailable:timeout``, ``llm_error:LLMBadOutput``..."""
    if isinstance(exc, LLMUnavailable):
        return f"llm_unavailable:{exc.reason.value}"
    return f"llm_error:{type(exc).__name__}"
