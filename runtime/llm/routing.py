"""LLM intent routing: a ≤ 400-token prompt, structured output, validation, at most one repair, then ``unknown``.

Structured output is asked for as a ``json_schema`` response format; a provider that refuses it
(HTTP 400) is asked again in JSON mode, then with a single forced tool call. The refusal is kept in
the provider's ``FormatMemory`` (the adapter's, when the port has one) and forgotten after the
re-probe window, so a provider without json_schema costs the extra request once per window, never
pins the process to a worse format. Every answer is checked against the schema (by the adapter, and
again here against the label set); a bad one is repaired once only when the turn still has its retry.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ._errors import LLMBadOutput, LLMError, LLMRequestRejected, UnavailableReason, trace_kind
from ._labels import RouteLabel, labels_from_registry
from ._route_prompt import (
    CUT_MARK,
    MESSAGE_KEPT_CHARS,
    PROMPT_TOKEN_BUDGET,
    TOOL_NAME,
    RoutePrompt,
    build_prompt,
    route_schema,
)
from ._shape import strip_fence
from ._types import LLM, Completion, port_accepts
from .budget import deadline_of
from .formats import DEFAULT_REPROBE_S, FormatMemory, OutputMode
from .profiles import Profile

__all__ = [
    "CUT_MARK",
    "MESSAGE_KEPT_CHARS",
    "PROMPT_TOKEN_BUDGET",
    "OutputMode",
    "RouteDecision",
    "RouteLabel",
    "RouteOutcome",
    "RoutePrompt",
    "Router",
    "build_messages",
    "build_prompt",
    "labels_from_registry",
]

Scalar = str | int | float | bool
_ALL_MODES = (OutputMode.JSON_SCHEMA, OutputMode.JSON_OBJECT, OutputMode.TOOL)


class RouteDecision(BaseModel):
    """What the model chose (validated against the label set by ``Router``)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    intent: str
    confidence: float = Field(ge=0.0, le=1.0)
    params: dict[str, Scalar] = Field(default_factory=dict)


class RouteOutcome(BaseModel):
    """The routing result for the trace: the decision, how it was asked for, what went wrong."""

    model_config = ConfigDict(frozen=True)

    intent: str = "unknown"
    confidence: float = 0.0
    params: dict[str, Scalar] = Field(default_factory=dict)
    mode: OutputMode | None = None
    repaired: bool = False
    errors: tuple[str, ...] = ()

    def decided(self, threshold: float) -> bool:
        """True when the router chose a real intent with enough confidence to act on."""
        return self.intent != "unknown" and self.confidence >= threshold

    @property
    def failed(self) -> bool:
        """The model gave no usable answer (unavailable, refused, malformed): use the no-model answer."""
        return self.intent == "unknown" and self.confidence == 0.0 and bool(self.errors)


def build_messages(labels: Sequence[RouteLabel], summary: str, text: str) -> list[dict[str, Any]]:
    """The routing prompt's messages (see ``build_prompt`` for the budget and what gives way)."""
    return list(build_prompt(labels, summary, text).messages)


def _feature(mode: OutputMode) -> str:
    return "tools" if mode is OutputMode.TOOL else mode.value


class Router:
    """Routes one message with the ``intent_routing`` profile. Never raises: failures give ``unknown``."""

    def __init__(self, llm: LLM, labels: Sequence[RouteLabel], *, reprobe_after_s: float = DEFAULT_REPROBE_S,
                 now: Callable[[], float] = time.monotonic) -> None:
        self._llm = llm
        self._labels = tuple(labels)
        self._by_intent = {lb.intent: lb for lb in self._labels}
        self._own_memory = FormatMemory(reprobe_after_s=reprobe_after_s, now=now)

    @property
    def available(self) -> bool:
        """True when the routing profile has a model."""
        return self._llm.is_configured(Profile.INTENT_ROUTING)

    @property
    def labels(self) -> tuple[RouteLabel, ...]:
        """The label set the router chooses from."""
        return self._labels

    @property
    def formats(self) -> FormatMemory:
        """The provider's format memory: the adapter's own when the port has one, else the router's."""
        shared = getattr(self._llm, "formats", None)
        if callable(shared) and self.available:
            found = shared(Profile.INTENT_ROUTING)
            if isinstance(found, FormatMemory):
                return found
        return self._own_memory

    def prompt(self, text: str, summary: str) -> RoutePrompt:
        """The prompt ``route`` would send for ``text`` (for benches and traces)."""
        return build_prompt(self._labels, summary, text)

    def route(self, text: str, summary: str, *, llm: LLM | None = None) -> RouteOutcome:
        """Classify ``text`` given the model summary sentence.

        ``llm`` overrides the port for this call (the turn's ``MeteredLLM``, whose deadline bounds
        the calls) while the router, and what it learnt about the provider, lives as long as the engine.
        """
        port = llm if llm is not None else self._llm
        prompt = self.prompt(text, summary)
        memory = self.formats
        modes = memory.usable(_ALL_MODES)
        if not modes:
            return RouteOutcome(errors=(f"llm_unavailable:{UnavailableReason.NO_OUTPUT_MODE.value}",))
        errors: list[str] = []
        try:
            answer, mode = self._ask(port, prompt, modes, memory)
        except LLMError as exc:
            return RouteOutcome(errors=(trace_kind(exc),))
        try:
            if isinstance(answer, LLMBadOutput):
                raise answer
            return self._outcome(self._parse(answer, mode), mode, repaired=False, errors=errors)
        except LLMBadOutput as exc:
            errors.append(f"bad_output:{exc.detail}")
            first_raw = exc.raw or ""
        deadline = deadline_of(port)
        if deadline is not None and not deadline.take_retry():
            return RouteOutcome(mode=mode, errors=tuple(errors))
        repair = RoutePrompt(
            messages=(*prompt.messages, {"role": "assistant", "content": first_raw[:300]},
                      {"role": "user", "content": f"上面的输出无效（{errors[-1][11:][:80]}）。请只输出符合要求的JSON对象。"}),
            schema=prompt.schema, tokens=prompt.tokens, summary_kept=prompt.summary_kept,
            enum_kept=prompt.enum_kept, params_kept=prompt.params_kept, message_cut=prompt.message_cut)
        try:
            decision = self._parse(self._call(port, repair, mode), mode)
        except LLMBadOutput as exc:
            errors.append(f"bad_output:{exc.detail}")
            return RouteOutcome(mode=mode, repaired=True, errors=tuple(errors))
        except LLMError as exc:
            errors.append(trace_kind(exc))
            return RouteOutcome(mode=mode, repaired=True, errors=tuple(errors))
        return self._outcome(decision, mode, repaired=True, errors=errors)

    def _ask(self, port: LLM, prompt: RoutePrompt, modes: Sequence[OutputMode],
             memory: FormatMemory) -> tuple[Completion | LLMBadOutput, OutputMode]:
        """The first answer in the first format the provider takes (a bad answer is returned, with
        its format, for the repair); refusals are remembered."""
        last: LLMRequestRejected | None = None
        for mode in modes:
            try:
                return self._call(port, prompt, mode), mode
            except LLMRequestRejected as exc:
                last = exc
                memory.refuse(_feature(mode))  # this provider does not take this format, for a while
            except LLMBadOutput as exc:
                return exc, mode
        assert last is not None
        raise last

    def _call(self, port: LLM, prompt: RoutePrompt, mode: OutputMode) -> Completion:
        expect = route_schema(self._labels)
        messages = list(prompt.messages)
        if mode is OutputMode.JSON_SCHEMA:
            return _complete(port, messages, expect, response_format=prompt.response_format())
        if mode is OutputMode.JSON_OBJECT:
            return _complete(port, messages, expect, response_format={"type": "json_object"})
        tool = {"type": "function", "function": {"name": TOOL_NAME, "description": "给出意图", "parameters": prompt.schema}}
        choice = {"type": "function", "function": {"name": TOOL_NAME}}
        return _complete(port, messages, expect, tools=[tool], tool_choice=choice)

    def _parse(self, completion: Completion, mode: OutputMode) -> RouteDecision:
        if mode is OutputMode.TOOL:
            call = next((c for c in completion.tool_calls if c.name == TOOL_NAME), None)
            raw = call.arguments if call is not None else (completion.content or "")
        else:
            raw = completion.content or ""
        try:
            value = json.loads(strip_fence(raw))
        except json.JSONDecodeError as exc:
            raise LLMBadOutput("not JSON", raw=raw) from exc
        try:
            decision = RouteDecision.model_validate(value)
        except ValidationError as exc:
            raise LLMBadOutput("wrong fields", raw=raw) from exc
        if decision.intent not in self._by_intent:
            raise LLMBadOutput("intent not in label set", raw=raw)
        return decision

    def _outcome(self, decision: RouteDecision, mode: OutputMode, *, repaired: bool,
                 errors: list[str]) -> RouteOutcome:
        allowed = self._by_intent[decision.intent].params
        # params are a hint the engine still parses by slot type; keep only known slot names.
        params = {k: v for k, v in decision.params.items() if k in allowed}
        return RouteOutcome(intent=decision.intent, confidence=decision.confidence, params=params, mode=mode,
                            repaired=repaired, errors=tuple(errors))


def _complete(port: LLM, messages: list[dict[str, Any]], expect: Mapping[str, Any], **kwargs: Any) -> Completion:
    """``port.complete`` for the routing profile, telling the port the schema when it can check it."""
    if port_accepts(port, "expect"):
        kwargs["expect"] = expect
    return port.complete(Profile.INTENT_ROUTING, messages, **kwargs)
