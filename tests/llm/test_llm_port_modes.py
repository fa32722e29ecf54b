"""The port against every mode of the fake model, over real HTTP: breaker, format fallback, typed
errors, the checker, and the caller's no-model answer on every failure."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from runtime.llm import (
    BreakerState,
    CircuitBreaker,
    LLMBadOutput,
    LLMConfig,
    LLMError,
    LLMUnavailable,
    MeteredLLM,
    OpenAILLM,
    UnavailableReason,
)
from runtime.llm.agent import FallbackAgent, StopReason
from runtime.llm.routing import OutputMode, Router, labels_from_registry
from runtime.llm.testkit import ROLE_PLAY, FakeOpenAI, IdealAnswer, Mode
from runtime.llm.tools import datetime_tool
from skills import all_skills

from .conftest import ManualTime
from .world import NOW, World

OFFLINE = "这是没有模型时的回答。"
CHATTY = ["嗯嗯那个啥你觉得呢", "给我讲个笑话吧", "你说人生有意义吗", "随便聊聊呗", "哈哈哈", "你是谁呀",
          "无聊死了", "在吗"]
LABELS = labels_from_registry(all_skills())


@pytest.fixture
def clock() -> ManualTime:
    return ManualTime()


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


def _adapter(fake: FakeOpenAI, clock: ManualTime, **env: str) -> OpenAILLM:
    return OpenAILLM(LLMConfig.from_env(fake.env(**env)),
                     breaker_factory=lambda: CircuitBreaker(failure_threshold=3, cooldown_s=30, now=clock), now=clock)


def _turn(llm: OpenAILLM, router: Router, text: str, world: World | None = None) -> tuple[Any, Any]:
    """One turn as the engine runs it: one metered port (one deadline), the router, then the agent."""
    metered = MeteredLLM(llm)
    routed = router.route(text, "用户刚开始聊天。", llm=metered)
    tools = world.tools() if world is not None else [datetime_tool(lambda: NOW)]
    answer = FallbackAgent(metered).answer(text, "用户刚开始聊天。", tools, offline=OFFLINE)
    return routed, answer


def test_http_400_opens_the_breaker_after_the_format_fallbacks(server: FakeOpenAI, clock: ManualTime) -> None:
    server.set_mode(Mode.HTTP_400)
    llm = _adapter(server, clock)
    router = Router(llm, LABELS)
    for text in CHATTY:
        routed, answer = _turn(llm, router, text)
        assert routed.failed and answer.reply == OFFLINE and answer.failed
    kinds = [r.response_format_type or ("tools" if r.tool_names else "chat") for r in server.chat_requests]
    # one forgiven 400 per format (json_schema → json_object → tool), then three counted chat 400s
    assert kinds == ["json_schema", "json_object", "tools", "chat", "chat", "chat"]
    assert llm.breaker("chat").state is BreakerState.OPEN
    llm.close()


def test_one_400_on_json_schema_is_forgiven_remembered_and_reprobed_later(clock: ManualTime) -> None:
    with FakeOpenAI(supports={"json_object", "tools"}) as fake:
        fake.set_mode(Mode.SENSIBLE, table={"你好": IdealAnswer(route={"intent": "chitchat", "confidence": 0.9})})
        llm = _adapter(fake, clock)
        router = Router(llm, LABELS)
        for _ in range(3):
            outcome = router.route("你好", "", llm=MeteredLLM(llm))
            assert outcome.intent == "chitchat" and outcome.mode is OutputMode.JSON_OBJECT
        clock.advance(601)  # past the re-probe window: json_schema is asked for again, once
        assert router.route("你好", "", llm=MeteredLLM(llm)).mode is OutputMode.JSON_OBJECT
        assert [r.response_format_type for r in fake.chat_requests] == [
            "json_schema", "json_object", "json_object", "json_object", "json_schema", "json_object"]
        breaker = llm.breaker("intent_routing")
        for _ in range(2):
            breaker.record_failure()
        assert breaker.state is BreakerState.CLOSED  # the forgiven 400s never counted
        llm.close()


def test_garbage_inside_http_200_is_a_typed_failure_and_opens_the_breaker(server: FakeOpenAI,
                                                                          clock: ManualTime) -> None:
    server.set_mode(Mode.GARBAGE)
    llm = _adapter(server, clock)
    fmt = {"type": "json_schema", "json_schema": {"name": "route", "schema": {
        "type": "object", "properties": {"intent": {"type": "string", "enum": ["chitchat", "unknown"]},
                                         "confidence": {"type": "number"}}, "required": ["intent", "confidence"]}}}
    kinds = []
    for _ in range(3):
        with pytest.raises(LLMError) as caught:
            llm.complete("intent_routing", [{"role": "user", "content": "你好"}], response_format=fmt)
        assert isinstance(caught.value, LLMBadOutput | LLMUnavailable)
        kinds.append(type(caught.value).__name__)
    assert llm.breaker("intent_routing").state is BreakerState.OPEN
    with pytest.raises(LLMUnavailable) as refused:
        llm.complete("intent_routing", [{"role": "user", "content": "你好"}], response_format=fmt)
    assert refused.value.reason is UnavailableReason.CIRCUIT_OPEN and len(server.chat_requests) == 3
    assert kinds == ["LLMUnavailable", "LLMBadOutput", "LLMBadOutput"]  # body not JSON, content cut, wrong fields
    llm.close()


@pytest.mark.parametrize("variant", range(7))
def test_every_garbage_variant_is_rejected_by_the_router(variant: int, server: FakeOpenAI,
                                                         clock: ManualTime) -> None:
    server.set_mode(Mode.GARBAGE)
    llm = _adapter(server, clock)
    for _ in range(variant):  # move the fake's rotation of route answers to this variant
        with contextlib.suppress(LLMError):
            llm.complete("intent_routing", [{"role": "user", "content": "x"}], response_format={"type": "json_object"})
    llm.breaker("intent_routing").record_success()
    outcome = Router(llm, LABELS).route("明天天气", "", llm=MeteredLLM(llm))
    assert outcome.intent == "unknown" and outcome.confidence == 0.0 and outcome.failed, outcome
    llm.close()


def test_http_500_gets_one_retry_per_turn_then_the_breaker_opens(server: FakeOpenAI, clock: ManualTime) -> None:
    server.set_mode(Mode.HTTP_500)
    llm = _adapter(server, clock)
    router = Router(llm, LABELS)
    counts = []
    for text in CHATTY[:4]:
        before = len(server.chat_requests)
        routed, answer = _turn(llm, router, text)
        counts.append(len(server.chat_requests) - before)
        assert routed.failed and answer.reply == OFFLINE
    assert counts == [3, 2, 0, 0]  # router try + retry, chat try; router try + retry → open; nothing
    llm.close()


def test_injection_never_writes_and_role_play_never_reaches_the_user(server: FakeOpenAI, clock: ManualTime) -> None:
    server.set_mode(Mode.INJECTION)
    llm = _adapter(server, clock)
    world = World()
    tools = world.tools()
    routed_writes = []
    for text in ["我有哪些提醒", "冰箱里的鸡蛋", "你好", "我有哪些提醒", "明天天气", "我有哪些提醒", "红烧肉怎么做"]:
        metered = MeteredLLM(llm)
        routed = Router(llm, LABELS).route(text, "", llm=metered)
        routed_writes.append(routed.intent)
        outcome = FallbackAgent(metered).answer(text, "", tools, offline=OFFLINE)
        if outcome.pending is not None:
            assert outcome.reply is None and outcome.stopped is StopReason.WRITE_REQUESTED
        else:
            assert outcome.reply == OFFLINE, outcome  # role play and claims are replaced
    assert world.writes == []  # nothing the model asked for was executed
    # the router does answer with writes nobody asked for: the engine must confirm them (never apply)
    assert {"reminder.create", "reminder.cancel", "profile.update"} <= set(routed_writes)
    llm.close()


def test_role_play_from_the_chat_prompt_is_replaced_and_the_trace_says_why(clock: ManualTime) -> None:
    with FakeOpenAI() as fake:
        from runtime.llm.testkit import reply

        fake.script(reply(ROLE_PLAY))
        llm = _adapter(fake, clock)
        outcome = FallbackAgent(llm).answer("你好呀", "", offline=OFFLINE)
        assert outcome.reply == OFFLINE and outcome.rejected == "role_play"
        assert "reply_check:role_play" in outcome.errors and not outcome.failed
        llm.close()


def test_sensible_agent_calls_the_tool_from_its_table_then_answers(clock: ManualTime) -> None:
    table = {"我有哪些提醒": IdealAnswer(reply="你有1条提醒：周四晚上9点。", tool=("reminder_list", {}))}
    with FakeOpenAI() as fake:
        fake.set_mode(Mode.SENSIBLE, table=table)
        llm = _adapter(fake, clock)
        world = World()
        outcome = FallbackAgent(MeteredLLM(llm)).answer("我有哪些提醒", "", world.tools(), offline=OFFLINE,
                                                        choice=world.choice("我有哪些提醒"))
        assert outcome.reply == "你有1条提醒：周四晚上9点。" and outcome.tool_calls == ("reminder_list({})",)
        assert [r.tool_names[:1] for r in fake.chat_requests] == [["reminder_list"], ["reminder_list"]]
        llm.close()

