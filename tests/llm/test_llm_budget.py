"""Budgets that fit WeChat: one deadline per turn shared by every model call, at most one retry, and a
model that never answers costs one budget — measured over real HTTP and through the real engine."""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any

import pytest

from bot.settings import Settings
from runtime.engine import Engine
from runtime.llm import (
    DEFAULT_TURN_BUDGET_S,
    Completion,
    LLMConfig,
    LLMUnavailable,
    MeteredLLM,
    OpenAILLM,
    TurnDeadline,
    UnavailableReason,
    build_llm,
)
from runtime.llm.agent import FallbackAgent
from runtime.llm.routing import Router, labels_from_registry
from runtime.llm.testkit import FakeOpenAI, Mode, reply
from runtime.skill import SkillRegistry
from runtime.store import InMemoryContextStore
from runtime.turn import Inbound
from skills import all_skills
from skills.services import Services

from .conftest import ManualTime

AT = datetime.fromisoformat("2026-12-01T20:00:00+08:00")
OFFLINE = "没有模型时的回答。"
WORST_TURN_S = 3.5


def test_the_deadline_starts_at_the_first_call_and_caps_every_timeout() -> None:
    clock = ManualTime()
    deadline = TurnDeadline(3.0, now=clock)
    clock.advance(10)  # local stages take their time: not model time
    assert deadline.remaining() == 3.0 and not deadline.started
    assert deadline.timeout_for(2.0) == 2.0 and deadline.started
    clock.advance(2.0)
    assert deadline.timeout_for(2.0) == pytest.approx(1.0)
    clock.advance(0.8)
    assert deadline.expired and not deadline.take_retry()  # 0.2 s left: too little for a call


def test_one_retry_per_turn() -> None:
    deadline = TurnDeadline(3.0, now=ManualTime())
    assert deadline.take_retry() and not deadline.take_retry()
    assert not TurnDeadline(3.0, retries=0).take_retry()
    with pytest.raises(ValueError):
        TurnDeadline(0)


def test_the_turn_budget_is_a_setting() -> None:
    assert LLMConfig.from_env({}).turn_budget_s == DEFAULT_TURN_BUDGET_S == 3.0
    assert LLMConfig.from_env({"OPENAI_TURN_BUDGET": "1.5"}).turn_budget_s == 1.5
    env = Settings.from_env({"OPENAI_TURN_BUDGET": "2.5", "OPENAI_MODEL": "m"}, env_file=None).llm_env()
    assert env["OPENAI_TURN_BUDGET"] == "2.5"
    llm = build_llm(env)
    assert isinstance(llm, OpenAILLM) and llm.turn_budget_s == 2.5 and MeteredLLM(llm).deadline.budget_s == 2.5


class _OldStylePort:
    """An LLM written against the port before ``deadline``/``expect`` existed."""

    def __init__(self) -> None:
        self.calls = 0

    def is_configured(self, profile: str) -> bool:
        return True

    def complete(self, profile: str, messages: Sequence[Mapping[str, Any]], *, tools: Any = None,
                 response_format: Any = None, tool_choice: Any = None) -> Completion:
        self.calls += 1
        return Completion(profile=profile, content='{"intent": "chitchat", "confidence": 0.9}')


def test_a_port_without_the_new_keywords_still_works_and_is_still_bounded() -> None:
    clock = ManualTime()
    old = _OldStylePort()
    metered = MeteredLLM(old, deadline=TurnDeadline(3.0, now=clock))  # type: ignore[arg-type]
    outcome = Router(metered, labels_from_registry(all_skills())).route("你好", "")  # type: ignore[arg-type]
    assert outcome.intent == "chitchat" and old.calls == 1
    clock.advance(5)
    with pytest.raises(LLMUnavailable) as refused:
        metered.complete("chat", [{"role": "user", "content": "你好"}])
    assert refused.value.reason is UnavailableReason.DEADLINE and old.calls == 1
    assert metered.llm_calls == 1 and metered.errors == ["llm_unavailable:deadline"]  # a refusal is free


@pytest.fixture
def slow_model() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        fake.set_mode(Mode.SLOW, slow_s=30.0)
        yield fake


def _router_then_agent(llm: OpenAILLM, text: str) -> tuple[float, Any, Any]:
    started = time.monotonic()
    metered = MeteredLLM(llm)
    routed = Router(llm, labels_from_registry(all_skills())).route(text, "", llm=metered)
    answer = FallbackAgent(metered).answer(text, "", offline=OFFLINE)
    return time.monotonic() - started, routed, answer


def test_a_30_second_model_costs_one_budget_per_turn(slow_model: FakeOpenAI) -> None:
    llm = OpenAILLM(LLMConfig.from_env(slow_model.env()))  # the defaults
    elapsed, routed, answer = _router_then_agent(llm, "嗯嗯那个啥你觉得呢")
    assert elapsed <= WORST_TURN_S, elapsed
    assert routed.errors == ("llm_unavailable:timeout",) and answer.reply == OFFLINE and answer.failed
    assert len(slow_model.chat_requests) == 2  # router (2 s, its profile's cap), then the agent (the 1 s left)
    llm.close()


def test_a_shorter_budget_is_honoured(slow_model: FakeOpenAI) -> None:
    llm = OpenAILLM(LLMConfig.from_env(slow_model.env(OPENAI_TURN_BUDGET="1")))
    elapsed, _, answer = _router_then_agent(llm, "随便聊聊呗")
    assert elapsed <= 1.5 and answer.reply == OFFLINE
    llm.close()


def test_a_server_error_is_retried_once_within_the_turn() -> None:
    with FakeOpenAI() as fake:
        from runtime.llm.testkit import error

        fake.script(error(500), reply("你好呀！"), error(500))
        llm = OpenAILLM(LLMConfig.from_env(fake.env()))
        metered = MeteredLLM(llm)
        assert FallbackAgent(metered).answer("你好", "", offline=OFFLINE).reply == "你好呀！"
        assert FallbackAgent(metered).answer("在吗", "", offline=OFFLINE).reply == OFFLINE  # the retry is spent
        assert len(fake.chat_requests) == 3
        llm.close()


def test_the_engine_worst_turn_with_a_30_second_model(slow_model: FakeOpenAI, services: Services) -> None:
    """The engine as it is (it wraps its port in a ``MeteredLLM`` per turn) gets the budget for free."""
    llm = build_llm(slow_model.env())
    engine = Engine(store=InMemoryContextStore(), registry=SkillRegistry(all_skills()), services=services, llm=llm)
    for n, text in enumerate(["嗯嗯那个啥你觉得呢", "你说人生有意义吗"]):
        started = time.monotonic()
        result = engine.handle(Inbound(user="u1", text=text, msg_id=f"m{n}", at=AT))
        elapsed = time.monotonic() - started
        assert elapsed <= WORST_TURN_S, (text, elapsed)
        assert result.replies and result.replies[0].strip()
    assert isinstance(llm, OpenAILLM)
    llm.close()
