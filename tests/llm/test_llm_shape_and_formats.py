"""What counts as a usable answer, what a provider refused, and which 4xx the breaker forgives."""

from __future__ import annotations

import pytest

from runtime.llm import (
    BreakerState,
    CircuitBreaker,
    Completion,
    LLMBadOutput,
    LLMConfig,
    LLMRequestRejected,
    OpenAILLM,
    ToolCall,
    check_shape,
)
from runtime.llm.formats import FormatMemory, OutputMode, feature_of, validate_json
from runtime.llm.testkit import FakeOpenAI, error, reply

from .conftest import ManualTime

SCHEMA = {"type": "object", "required": ["intent", "confidence"],
          "properties": {"intent": {"type": "string", "enum": ["a", "b"]}, "confidence": {"type": "number"},
                         "params": {"type": "object"}}}
JSON_SCHEMA = {"type": "json_schema", "json_schema": {"name": "route", "schema": SCHEMA}}
ROUTE_TOOL = [{"type": "function", "function": {"name": "route", "parameters": SCHEMA}}]
FORCED = {"type": "function", "function": {"name": "route"}}


def _answer(content: str | None = None, *calls: tuple[str, str]) -> Completion:
    return Completion(profile="chat", content=content,
                      tool_calls=tuple(ToolCall(id=f"c{i}", name=n, arguments=a) for i, (n, a) in enumerate(calls)))


@pytest.mark.parametrize(("completion", "kwargs", "detail"), [
    (_answer(""), {}, "empty answer"),
    (_answer(None), {}, "empty answer"),
    (_answer(None, ("weather_query", "{city")), {}, "arguments of 'weather_query' is not JSON"),
    (_answer(None, ("weather_query", "[1]")), {}, "arguments of 'weather_query' is not a JSON object"),
    (_answer('{"intent": "a"'), {"response_format": JSON_SCHEMA}, "content is not JSON"),
    (_answer('{"intent": "z", "confidence": 1}'), {"response_format": JSON_SCHEMA},
     "output.intent is not one of the allowed values"),
    (_answer('{"intent": "a"}'), {"response_format": JSON_SCHEMA}, "output lacks 'confidence'"),
    (_answer('{"intent": "a", "confidence": "high"}'), {"response_format": JSON_SCHEMA},
     "output.confidence is not a number"),
    (_answer('{"intent": "a", "confidence": true}'), {"response_format": JSON_SCHEMA},
     "output.confidence is not a number"),
    (_answer('{"label": "a"}'), {"response_format": {"type": "json_object"}, "expect": SCHEMA}, "output lacks 'intent'"),
    (_answer("我觉得是a"), {"tools": ROUTE_TOOL, "tool_choice": FORCED}, "no call to 'route'"),
    (_answer(None, ("route", '{"intent": "q", "confidence": 0.5}')), {"tools": ROUTE_TOOL, "tool_choice": FORCED},
     "output.intent is not one of the allowed values"),
])
def test_unusable_answers_inside_http_200(completion: Completion, kwargs: dict[str, object], detail: str) -> None:
    args: dict[str, object] = {"tools": None, "response_format": None, "tool_choice": None, "expect": None, **kwargs}
    with pytest.raises(LLMBadOutput) as caught:
        check_shape(completion, **args)  # type: ignore[arg-type]
    assert caught.value.detail == detail


def test_usable_answers_pass() -> None:
    check_shape(_answer("你好"), tools=None, response_format=None, tool_choice=None, expect=None)
    check_shape(_answer('```json\n{"intent": "b", "confidence": 0.4, "params": {}}\n```'), tools=None,
                response_format=JSON_SCHEMA, tool_choice=None, expect=None)
    check_shape(_answer(None, ("route", '{"intent": "a", "confidence": 1}')), tools=ROUTE_TOOL,
                response_format=None, tool_choice=FORCED, expect=None)
    validate_json({"x": 1}, None)  # no schema: nothing to check


def test_feature_of_a_request() -> None:
    assert feature_of(JSON_SCHEMA, None, None) == "json_schema"
    assert feature_of({"type": "json_object"}, None, None) == "json_object"
    assert feature_of(None, ROUTE_TOOL, FORCED) == "tools" == feature_of(None, ROUTE_TOOL, None)
    assert feature_of(None, None, None) is None and feature_of({"type": "text"}, None, None) is None


def test_format_memory_forgets_a_refusal_after_the_reprobe_window() -> None:
    clock = ManualTime()
    memory = FormatMemory(reprobe_after_s=600, now=clock)
    assert memory.refuse("json_schema") and not memory.refuse("json_schema")  # news once
    assert memory.usable(list(OutputMode)) == [OutputMode.JSON_OBJECT, OutputMode.TOOL]
    clock.advance(599)
    assert memory.refused("json_schema")
    clock.advance(1)
    assert not memory.refused("json_schema") and memory.usable(list(OutputMode))[0] is OutputMode.JSON_SCHEMA
    memory.refuse("tools")
    memory.accept("tools")
    assert not memory.refused("tools")


def _adapter(fake: FakeOpenAI, clock: ManualTime) -> OpenAILLM:
    return OpenAILLM(LLMConfig.from_env(fake.env(OPENAI_MAX_RETRIES="0")),
                     breaker_factory=lambda: CircuitBreaker(failure_threshold=2, cooldown_s=30, now=clock), now=clock)


def test_a_plain_400_counts_against_the_breaker(manual_time: ManualTime) -> None:
    with FakeOpenAI(default=error(400, "bad request", retry_after_ms=None)) as fake:
        llm = _adapter(fake, manual_time)
        for _ in range(2):
            with pytest.raises(LLMRequestRejected) as caught:
                llm.complete("chat", [{"role": "user", "content": "你好"}])
            assert caught.value.counted and caught.value.feature is None
        assert llm.breaker("chat").state is BreakerState.OPEN
        llm.close()


def test_a_404_counts_too(manual_time: ManualTime) -> None:
    with FakeOpenAI(default=error(404, "model not found", retry_after_ms=None)) as fake:
        llm = _adapter(fake, manual_time)
        for _ in range(2):
            with pytest.raises(LLMRequestRejected):
                llm.complete("chat", [{"role": "user", "content": "你好"}])
        assert llm.breaker("chat").state is BreakerState.OPEN
        llm.close()


def test_the_same_format_refused_twice_in_the_window_counts_the_second_time(manual_time: ManualTime) -> None:
    with FakeOpenAI(supports={"json_object"}) as fake:
        llm = _adapter(fake, manual_time)
        outcomes = []
        for _ in range(3):
            with pytest.raises(LLMRequestRejected) as caught:
                llm.complete("intent_routing", [{"role": "user", "content": "你好"}], response_format=JSON_SCHEMA)
            outcomes.append(caught.value.counted)
        assert outcomes == [False, True, True]  # a caller that ignores the refusal is a failing caller
        assert llm.breaker("intent_routing").state is BreakerState.OPEN
        llm.close()


def test_a_success_clears_the_refusal_of_that_feature(manual_time: ManualTime) -> None:
    with FakeOpenAI(supports={"json_object"}) as fake:
        llm = _adapter(fake, manual_time)
        with pytest.raises(LLMRequestRejected):
            llm.complete("intent_routing", [{"role": "user", "content": "你好"}], response_format=JSON_SCHEMA)
        assert llm.formats("intent_routing").refused("json_schema")
        fake.supports = frozenset({"json_object", "json_schema"})  # the provider was upgraded
        fake.script(reply('{"intent": "a", "confidence": 0.5}'))
        manual_time.advance(600)
        llm.complete("intent_routing", [{"role": "user", "content": "你好"}], response_format=JSON_SCHEMA)
        assert not llm.formats("intent_routing").refused("json_schema")
        llm.close()
