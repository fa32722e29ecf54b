"""The LLM port on the official ``openai`` client, for any OpenAI-compatible endpoint.

Failures, each a typed error (``runtime.llm._errors``) so the engine gives its no-model answer:
timeouts, connection errors, 5xx, 429, 401/403 → ``LLMUnavailable``; 400/404/422 →
``LLMRequestRejected``; an HTTP 200 whose body or content is unusable (not JSON, empty, wrong fields,
a value outside the schema, broken tool arguments) → ``LLMUnavailable(bad_response)`` or
``LLMBadOutput``. Every one of them counts against the endpoint's circuit breaker, except the first
400 per optional feature (``json_schema``, ``json_object``, ``tools``) in the re-probe window: that
one makes the caller fall back to another output format, and is remembered (``formats``).

Retries: inside a turn (a ``TurnDeadline`` given) the client's own retries are off and the turn's
single retry is spent here, on a connection error, 429 or 5xx, only if time is left; each
attempt's timeout is what is left of the turn's budget, capped by the profile's timeout. Without a
deadline the client retries ``max_retries`` times by itself (direct use, benches).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import openai

from ._errors import LLMBadOutput, LLMRequestRejected, LLMUnavailable, UnavailableReason
from ._shape import check_shape
from ._tokens import estimate_completion_tokens, estimate_prompt_tokens
from ._types import Completion, Message, ToolCall, ToolSchema, Usage
from .breaker import CircuitBreaker
from .budget import MIN_CALL_S, TurnDeadline
from .formats import FormatMemory, feature_of
from .profiles import LLMConfig, LLMProfile

__all__ = ["OpenAILLM"]

# Local servers (Ollama, vLLM) ignore the key, but the client insists on one; never fall back to the
# process environment, settings are injected.
_PLACEHOLDER_KEY = "not-needed"
# a timeout is not retried inside a turn: the time is gone, and a slow model stays slow
_RETRYABLE = frozenset({UnavailableReason.CONNECTION, UnavailableReason.RATE_LIMITED, UnavailableReason.SERVER_ERROR})


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
    if isinstance(exc, openai.BadRequestError | openai.UnprocessableEntityError | openai.NotFoundError):
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
        breaker_factory: Callable[[], CircuitBreaker] | None = None,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self._config = config
        self._breaker_factory = breaker_factory or (lambda: CircuitBreaker(
            failure_threshold=config.breaker_failures, cooldown_s=config.breaker_cooldown_s))
        self._now = now
        self._breakers: dict[str, CircuitBreaker] = {}
        self._formats: dict[str, FormatMemory] = {}
        self._clients: dict[str, openai.OpenAI] = {}
        self._lock = threading.Lock()

    @property
    def turn_budget_s(self) -> float:
        """Model seconds one turn may spend (``OPENAI_TURN_BUDGET``)."""
        return self._config.turn_budget_s

    def new_deadline(self) -> TurnDeadline:
        """A fresh budget for one turn."""
        return TurnDeadline(self._config.turn_budget_s)

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

    def formats(self, profile: str) -> FormatMemory:
        """What the provider of ``profile`` (endpoint and model) refused lately."""
        settings = self._settings(profile)
        key = f"{settings.base_url}|{settings.model}"
        with self._lock:
            if key not in self._formats:
                self._formats[key] = FormatMemory(reprobe_after_s=self._config.format_reprobe_s, now=self._now)
            return self._formats[key]

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
        deadline: TurnDeadline | None = None,
        expect: Mapping[str, Any] | None = None,
    ) -> Completion:
        """Run one chat completion; see ``LLM.complete`` for the errors raised."""
        settings = self._settings(profile)
        if deadline is not None and deadline.expired:
            raise LLMUnavailable(UnavailableReason.DEADLINE, profile=profile)
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
        feature = feature_of(response_format, tools, tool_choice)
        started = time.monotonic()
        while True:
            try:
                completion = self._once(settings, kwargs, deadline)
                check_shape(completion, tools=tools, response_format=response_format, tool_choice=tool_choice,
                            expect=expect)
                break
            except LLMUnavailable as exc:
                if exc.reason in _RETRYABLE and deadline is not None and deadline.take_retry():
                    continue
                breaker.record_failure()
                raise
            except LLMRequestRejected as exc:
                forgiven = feature is not None and exc.status == 400 and self.formats(profile).refuse(feature)
                if forgiven:
                    breaker.release()
                else:
                    breaker.record_failure()
                raise LLMRequestRejected(exc.status, exc.detail, profile=profile, feature=feature,
                                         counted=not forgiven) from exc
            except LLMBadOutput:
                breaker.record_failure()
                raise
        if feature is not None:
            self.formats(profile).accept(feature)
        breaker.record_success()
        return completion.model_copy(update={"latency_ms": int((time.monotonic() - started) * 1000)})

    def _once(self, settings: LLMProfile, kwargs: dict[str, Any], deadline: TurnDeadline | None) -> Completion:
        if deadline is None:
            client = self._client(settings)
        else:
            timeout = deadline.timeout_for(settings.timeout_s)
            if timeout < MIN_CALL_S:
                raise LLMUnavailable(UnavailableReason.DEADLINE, profile=settings.name)
            client = self._client(settings).with_options(timeout=timeout, max_retries=0)
        try:
            raw = client.chat.completions.create(**kwargs)
        except openai.OpenAIError as exc:
            raise _classify(exc, settings.name) from exc
        except ValueError as exc:  # a 200 whose body is not JSON: the client lets the decode error through
            raise LLMUnavailable(UnavailableReason.BAD_RESPONSE, profile=settings.name,
                                 detail="body is not JSON") from exc
        return self._convert(raw, settings, kwargs["messages"], kwargs.get("tools"), kwargs.get("response_format"))

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
