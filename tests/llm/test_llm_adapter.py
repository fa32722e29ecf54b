"""The OpenAI adapter against the fake server over real HTTP: replies, faults, retries, the breaker."""

from __future__ import annotations

import json
import time

import pytest

from runtime.llm import (
    BreakerState,
    LLMConfig,
    LLMRequestRejected,
    LLMUnavailable,
    MeteredLLM,
    OpenAILLM,
    UnavailableReason,
)
from runtime.llm.testkit import (
    FakeOpenAI,
    delay,
    disconnect,
    error,
    json_reply,
    malformed,
    reply,
    tool_call,
)

from .conftest import ManualTime

USER = [{"role": "user", "content": "今天天气怎么样"}]


def test_plain_reply_with_usage(fake: FakeOpenAI, llm: OpenAILLM) -> None:
    fake.script(reply("晴，25度", usage=(42, 7)))
    completion = llm.complete("chat", USER)
    assert completion.content == "晴，25度"
    assert completion.usage.prompt_tokens == 42 and completion.usage.completion_tokens == 7
    assert not completion.usage.estimated
    sent = fake.chat_requests[0]
    assert sent.headers["authorization"] == "Bearer test-key"
    assert sent.model == "fake-model"
    assert sent.body is not None and sent.body["max_tokens"] == 200
    assert "今天天气怎么样" in sent.prompt_text


def test_missing_usage_is_estimated_and_flagged(fake: FakeOpenAI, llm: OpenAILLM) -> None:
    fake.script(reply("你好呀", usage=False))
    completion = llm.complete("chat", USER)
    assert completion.usage.estimated
    assert completion.usage.prompt_tokens == 3 + 4 + 7  # framing + 7 CJK chars
    assert completion.usage.completion_tokens == 3


def test_tools_tool_choice_and_response_format_reach_the_server(fake: FakeOpenAI, llm: OpenAILLM) -> None:
    tool = {"type": "function", "function": {"name": "get_weather", "description": "天气",
                                             "parameters": {"type": "object", "properties": {}}}}
    fake.script(tool_call("get_weather", {"city": "北京"}), json_reply({"intent": "chitchat"}))
    first = llm.complete("tool_agent", USER, tools=[tool], tool_choice="auto")
    assert [c.name for c in first.tool_calls] == ["get_weather"]
    assert first.tool_calls[0].parsed_arguments() == {"city": "北京"}
    assert first.finish_reason == "tool_calls"
    schema = {"type": "json_schema", "json_schema": {"name": "route", "schema": {"type": "object"}}}
    second = llm.complete("intent_routing", USER, response_format=schema)
    assert json.loads(second.content or "") == {"intent": "chitchat"}
    assert fake.chat_requests[0].tool_names == ["get_weather"]
    assert fake.chat_requests[0].tool_choice == "auto"
    assert fake.chat_requests[1].response_format_type == "json_schema"


def test_one_server_error_is_retried_by_the_client(fake: FakeOpenAI, llm: OpenAILLM) -> None:
    fake.script(error(500), reply("好的"))
    assert llm.complete("chat", USER).content == "好的"
    assert len(fake.chat_requests) == 2


def test_retries_are_bounded(fake: FakeOpenAI, llm: OpenAILLM) -> None:
    fake.script(error(503), error(503), reply("too late"))
    with pytest.raises(LLMUnavailable) as caught:
        llm.complete("chat", USER)
    assert caught.value.reason is UnavailableReason.SERVER_ERROR and caught.value.status == 503
    assert len(fake.chat_requests) == 2 and fake.pending == 1


def test_rate_limit(fake: FakeOpenAI, llm: OpenAILLM) -> None:
    fake.script(error(429, "slow down"), error(429, "slow down"))
    with pytest.raises(LLMUnavailable) as caught:
        llm.complete("chat", USER)
    assert caught.value.reason is UnavailableReason.RATE_LIMITED


def test_timeout(fake: FakeOpenAI) -> None:
    adapter = OpenAILLM(LLMConfig.from_env(fake.env(OPENAI_TIMEOUT="0.2", OPENAI_MAX_RETRIES="0")))
    fake.script(delay(3.0))
    started = time.monotonic()
    with pytest.raises(LLMUnavailable) as caught:
        adapter.complete("chat", USER)
    assert caught.value.reason is UnavailableReason.TIMEOUT
    assert time.monotonic() - started < 1.5
    adapter.close()


def test_malformed_body_and_dropped_connection(fake: FakeOpenAI, llm: OpenAILLM) -> None:
    fake.script(malformed())
    with pytest.raises(LLMUnavailable) as caught:
        llm.complete("chat", USER)
    assert caught.value.reason is UnavailableReason.BAD_RESPONSE
    assert fake.pending == 0  # a 200 is not retried
    llm.breaker("chat").record_success()
    fake.script(disconnect(), disconnect())
    with pytest.raises(LLMUnavailable) as caught:
        llm.complete("chat", USER)
    assert caught.value.reason is UnavailableReason.CONNECTION


def test_wrong_key_is_an_auth_failure(fake: FakeOpenAI) -> None:
    adapter = OpenAILLM(LLMConfig.from_env(fake.env(OPENAI_API_KEY="wrong")))
    with pytest.raises(LLMUnavailable) as caught:
        adapter.complete("chat", USER)
    assert caught.value.reason is UnavailableReason.AUTH
    adapter.close()


def test_unsupported_response_format_is_rejected_not_an_outage(manual_time: ManualTime) -> None:
    with FakeOpenAI(supports={"tools", "json_object"}) as provider:
        from runtime.llm import CircuitBreaker

        adapter = OpenAILLM(LLMConfig.from_env(provider.env()),
                            breaker_factory=lambda: CircuitBreaker(failure_threshold=1, now=manual_time))
        fmt = {"type": "json_schema", "json_schema": {"name": "x", "schema": {"type": "object"}}}
        with pytest.raises(LLMRequestRejected) as caught:
            adapter.complete("intent_routing", USER, response_format=fmt)
        assert caught.value.status == 400 and "json_schema" in caught.value.detail
        assert adapter.breaker("intent_routing").state is BreakerState.CLOSED
        assert provider.pending == 0 and provider.exhausted == 0
        adapter.close()


def test_circuit_opens_so_an_outage_costs_one_timeout_not_one_per_turn(
    fake: FakeOpenAI, llm: OpenAILLM, manual_time: ManualTime
) -> None:
    fake.script(*[error(500)] * 4)
    for _ in range(2):  # threshold 2, each call = 1 try + 1 retry
        with pytest.raises(LLMUnavailable):
            llm.complete("chat", USER)
    assert len(fake.chat_requests) == 4
    for _ in range(5):
        with pytest.raises(LLMUnavailable) as caught:
            llm.complete("intent_routing", USER)  # same endpoint: same breaker
        assert caught.value.reason is UnavailableReason.CIRCUIT_OPEN
    assert len(fake.chat_requests) == 4  # nothing went out while open
    manual_time.advance(30)
    fake.script(reply("恢复了"))
    assert llm.complete("chat", USER).content == "恢复了"  # the half-open probe
    assert llm.breaker("chat").state is BreakerState.CLOSED


def test_profiles_can_point_at_different_endpoints() -> None:
    with FakeOpenAI() as main, FakeOpenAI() as chat_server:
        env = main.env(model="router-m", OPENAI_CHAT_BASE_URL=chat_server.base_url, OPENAI_CHAT_MODEL="chat-m")
        adapter = OpenAILLM(LLMConfig.from_env(env))
        main.script(reply("route"))
        chat_server.script(reply("chat"))
        assert adapter.complete("intent_routing", USER).content == "route"
        assert adapter.complete("chat", USER).content == "chat"
        assert main.chat_requests[0].model == "router-m"
        assert chat_server.chat_requests[0].model == "chat-m"
        adapter.close()


def test_metered_llm_totals_a_turn(fake: FakeOpenAI, llm: OpenAILLM) -> None:
    meter = MeteredLLM(llm)
    fake.script(reply("a", usage=(10, 2)), reply("b", usage=False), error(500), error(500))
    meter.complete("chat", USER)
    meter.complete("chat", USER)
    with pytest.raises(LLMUnavailable):
        meter.complete("chat", USER)
    assert meter.llm_calls == 3
    assert meter.prompt_tokens == 10 + 14 and meter.completion_tokens == 3
    assert meter.usage.estimated
    assert meter.errors == ["llm_unavailable:server_error"]


def test_unconfigured_profile_raises_without_network(fake: FakeOpenAI) -> None:
    adapter = OpenAILLM(LLMConfig.from_env({"OPENAI_BASE_URL": fake.base_url, "OPENAI_CHAT_MODEL": "c"}))
    meter = MeteredLLM(adapter)
    with pytest.raises(LLMUnavailable) as caught:
        meter.complete("intent_routing", USER)
    assert caught.value.reason is UnavailableReason.NOT_CONFIGURED
    assert meter.llm_calls == 0 and fake.requests == []
    adapter.close()
