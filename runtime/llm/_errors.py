"""The LLM error tree: callers branch on the type, never on the message text."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["LLMBadOutput", "LLMError", "LLMRequestRejected", "LLMUnavailable", "UnavailableReason"]


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
    """The provider refused this request shape (HTTP 400/404/422), e.g. an unsupported ``response_format``.

    It does not count against the circuit breaker: the endpoint is up, our request was not accepted.
    """

    def __init__(self, status: int, detail: str, *, profile: str | None = None) -> None:
        super().__init__(f"LLM request rejected (HTTP {status}): {detail}", profile=profile)
        self.status = status
        self.detail = detail


class LLMBadOutput(LLMError):
    """The model answered, but not in the shape we asked for (invalid JSON, unknown label, bad tool args)."""

    def __init__(self, detail: str, *, raw: str | None = None, profile: str | None = None) -> None:
        super().__init__(f"LLM output invalid: {detail}", profile=profile)
        self.detail = detail
        self.raw = raw
