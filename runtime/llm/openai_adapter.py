"""The LLM port on the official ``openai`` client, for any OpenAI-compatible endpoint.

Retries: we use the client's own ``max_retries`` (default 1 per profile) rather than tenacity. The
client already knows which failures are retryable (connection errors, timeouts, 408/409/429/5xx,
``x-should-retry``), honours ``Retry-After``/``retry-after-ms`` and backs off with jitter; wrapping it
in tenacity would either multiply attempts or duplicate that classification. One retry keeps the
worst case bounded at about ``2 x timeout + 0.5 s``; the circuit breaker then sees one failure per
logical call, after the retries were spent.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import openai

from ._errors import LLMRequestRejected, LLMUnavailable, UnavailableReason
from ._tokens import estimate_completion_tokens, estimate_prompt_tokens
from ._types import Completion, Message, ToolCall, ToolSchema, Usage
from .breaker import CircuitBreaker
from .profiles import LLMConfig, LLMProfile

__all__ = ["OpenAILLM"]

# Local servers (Ollama, vLLM) ignore the key, but the client insists on one; never fall back to the
# process environment, settings are injected.
_PLACEHOLDER_KEY = "not-needed"


def _classify(exc: openai.OpenAIError, profile: str) -> LLMUnavailable | LLMRequestRejected:
    if isinstance(exc, openai.APITimeoutError):
        return LLMUnavailable(UnavailableReason.TIMEOUT, profile=profile)
    if isinstance(exc, openai.APIConnectionError):
        return LLMUnavailable(UnavailableReason.CONNECTION, profile=profile)
    if isinstance(exc, openai.APIResponseValidationError):
        return LLMUnavailable(UnavailableReason.BAD_RESPONSE, profile=profile, status=exc.status_code)
    if isinstance(exc, openai.RateLimitError):
        return LLMUnavailable(UnavailableReason.RATE_LIMITED, profile=profile, status=exc.status_code)
    if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
        return LLMUnavailable(UnavailableReason.AUTH, profile=profile, status=exc.status_code)
    if isinstance(exc, openai.BadRequestError | openai.UnprocessableEntityError):
        return LLMRequestRejected(exc.status_code, _error_detail(exc), profile=profile)
    if isinstance(exc, openai.APIStatusError):
        return LLMUnavailable(UnavailableReason.SERVER_ERROR, profile=profile, status=exc.status_code)
    return LLMUnavailable(UnavailableReason.BAD_RESPONSE, profile=profile, detail=type(exc).__name__)


def _error_detail(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, Mapping):
        message = body.get("message")
        if isinstance(message, str):
            return message[:200]
    return str(exc.message)[:200]


class OpenAILLM:
    """``LLM`` over OpenAI-compatible chat completions, one circuit breaker per endpoint."""

    def __init__(
        self,
        config: LLMConfig,
        *,
        breaker_factory: Callable[[], CircuitBreaker] = CircuitBreaker,
    ) -> None:
        self._config = config
        self._breaker_factory = breaker_factory
        self._breakers: dict[str, CircuitBreaker] = {}
        self._clients: dict[str, openai.OpenAI] = {}
        self._lock = threading.Lock()

    def is_configured(self, profile: str) -> bool:
        """True when ``profile`` has a model configured."""
        settings = self._config.get(profile)
        return settings is not None and settings.configured

    def breaker(self, profile: str) -> CircuitBreaker:
        """The breaker guarding the endpoint of ``profile`` (shared by profiles on the same base URL)."""
        settings = self._settings(profile)
        with self._lock:
            if settings.base_url not in self._breakers:
                self._breakers[settings.base_url] = self._breaker_factory()
            return self._breakers[settings.base_url]

    def close(self) -> None:
        """Close the HTTP connection pools."""
        with self._lock:
            for client in self._clients.values():
                client.close()
            self._clients.clear()

    def _settings(self, profile: str) -> LLMProfile:
        settings = self._config.get(profile)
        if settings is None or not settings.configured:
            raise LLMUnavailable(UnavailableReason.NOT_CONFIGURED, profile=profile)
        return settings

    def _client(self, settings: LLMProfile) -> openai.OpenAI:
        with self._lock:
            client = self._clients.get(settings.name)
            if client is None:
                client = openai.OpenAI(
                    api_key=settings.api_key.get_secret_value() or _PLACEHOLDER_KEY,
                    base_url=settings.base_url,
                    timeout=settings.timeout_s,
                    max_retries=settings.max_retries,
                )
                self._clients[settings.name] = client
            return client

    def complete(
        self,
        profile: str,
        messages: Sequence[Message],
        *,
        tools: Sequence[ToolSchema] | None = None,
        response_format: Mapping[str, Any] | None = None,
        tool_choice: str | Mapping[str, Any] | None = None,
    ) -> Completion:
        """Run one chat completion; see ``LLM.complete`` for the errors raised."""
        settings = self._settings(profile)
        breaker = self.breaker(profile)
        if not breaker.allow():
            raise LLMUnavailable(UnavailableReason.CIRCUIT_OPEN, profile=profile)
        kwargs: dict[str, Any] = {
            "model": settings.model,
            "messages": [dict(m) for m in messages],
            "max_tokens": settings.max_tokens,
            "temperature": settings.temperature,
        }
        if tools:
            kwargs["tools"] = [dict(t) for t in tools]
        if tool_choice is not None:
            kwargs["tool_choice"] = tool_choice if isinstance(tool_choice, str) else dict(tool_choice)
        if response_format is not None:
            kwargs["response_format"] = dict(response_format)
        started = time.monotonic()
        try:
            raw = self._client(settings).chat.completions.create(**kwargs)
            completion = self._convert(raw, settings, messages, tools, response_format)
        except openai.OpenAIError as exc:
            error = _classify(exc, profile)
            if isinstance(error, LLMRequestRejected):
                breaker.release()
            else:
                breaker.record_failure()
            raise error from exc
        except LLMUnavailable:
            breaker.record_failure()
            raise
        except ValueError as exc:  # a 200 whose body is not JSON: the client lets the decode error through
            breaker.record_failure()
            raise LLMUnavailable(UnavailableReason.BAD_RESPONSE, profile=profile, detail="body is not JSON") from exc
        breaker.record_success()
        return completion.model_copy(update={"latency_ms": int((time.monotonic() - started) * 1000)})

    @staticmethod
    def _convert(
        raw: Any,
        settings: LLMProfile,
        messages: Sequence[Message],
        tools: Sequence[ToolSchema] | None,
        response_format: Mapping[str, Any] | None,
    ) -> Completion:
        choices = getattr(raw, "choices", None)
        if not choices:
            raise LLMUnavailable(UnavailableReason.BAD_RESPONSE, profile=settings.name, detail="no choices")
        choice = choices[0]
        message = choice.message
        calls = tuple(
            ToolCall(id=c.id, name=c.function.name, arguments=c.function.arguments or "{}")
            for c in (message.tool_calls or ())
            if getattr(c, "function", None) is not None
        )
        if raw.usage is not None:
            usage = Usage(prompt_tokens=raw.usage.prompt_tokens, completion_tokens=raw.usage.completion_tokens)
        else:
            usage = Usage(
                prompt_tokens=estimate_prompt_tokens(messages, tools, response_format),
                completion_tokens=estimate_completion_tokens(
                    message.content, [c.name + c.arguments for c in calls]
                ),
                estimated=True,
            )
        return Completion(
            profile=settings.name,
            model=str(raw.model or settings.model),
            content=message.content,
            tool_calls=calls,
            finish_reason=choice.finish_reason,
            usage=usage,
        )
