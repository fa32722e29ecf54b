"""The LLM stages inside the real engine, against the fake server (and with no LLM at all)."""

from __future__ import annotations

from datetime import datetime

from runtime.engine import Engine
from runtime.llm import LLM, LLMConfig, MeteredLLM, NoLLM, OpenAILLM, build_llm
from runtime.llm.routing import OutputMode, labels_from_registry
from runtime.llm.testkit import FakeOpenAI, error, json_reply, reply
from runtime.resolve.llm_router import LLMRouterStage
from runtime.skill import SkillRegistry
from runtime.store import InMemoryContextStore
from runtime.turn import Inbound, Stage, TurnResult
from runtime.views import ModelSummary, RouterView
from skills import all_skills, registry
from skills.services import Services

AT = datetime.fromisoformat("2026-12-01T20:00:00+08:00")
VAGUE = "嗯嗯那个啥你觉得呢"


def _engine(services: Services, llm: LLM) -> Engine:
    return Engine(store=InMemoryContextStore(), registry=SkillRegistry(all_skills()), services=services, llm=llm)


def _say(engine: Engine, text: str, n: int = 1) -> TurnResult:
    return engine.handle(Inbound(user="u1", text=text, msg_id=f"m{n}", at=AT))


def test_without_an_llm_no_model_stage_is_entered(services: Services) -> None:
    result = _say(_engine(services, NoLLM()), VAGUE)
    assert result.trace.stage is Stage.FALLBACK and result.trace.llm_calls == 0
    assert result.replies and result.replies[0]
    assert result.trace.errors == []


def test_router_then_chat_are_metered_into_the_trace(services: Services) -> None:
    with FakeOpenAI() as fake:
        llm = build_llm(fake.env())
        fake.script(json_reply({"intent": "chitchat", "confidence": 0.9}, usage=(300, 12)),
                    reply("哈哈，我也这么觉得！", usage=(60, 9)))
        result = _say(_engine(services, llm), VAGUE)
        assert result.replies == ["哈哈，我也这么觉得！"]
        assert result.trace.llm_calls == 2
        assert (result.trace.prompt_tokens, result.trace.completion_tokens) == (360, 21)
        assert [r.response_format_type for r in fake.chat_requests] == ["json_schema", None]
        assert isinstance(llm, OpenAILLM)
        llm.close()


def test_an_outage_still_gets_a_deterministic_answer(services: Services) -> None:
    with FakeOpenAI(default=error(500)) as fake:
        llm = build_llm(fake.env())
        result = _say(_engine(services, llm), VAGUE)
        assert result.replies and result.replies[0]
        assert "llm_unavailable:server_error" in result.trace.errors
        assert len(fake.chat_requests) == 3  # router (try + the turn's one retry), then fallback (one try)
        assert isinstance(llm, OpenAILLM)
        llm.close()


def test_a_stage_built_once_remembers_the_provider_mode_across_turns() -> None:
    with FakeOpenAI(supports={"json_object"}) as fake:
        base = OpenAILLM(LLMConfig.from_env(fake.env()))
        stage = LLMRouterStage(base, labels_from_registry(registry().skills))
        view = RouterView(text=VAGUE, origin="text")
        for _ in range(2):
            fake.script(json_reply({"intent": "chitchat", "confidence": 0.9}))
            metered = MeteredLLM(base)
            match, outcome = stage.decide(view, ModelSummary("无"), llm=metered)
            assert match is not None and outcome.mode is OutputMode.JSON_OBJECT
        assert [r.response_format_type for r in fake.chat_requests] == ["json_schema", "json_object", "json_object"]
        assert metered.llm_calls == 1  # the second turn paid no rejected request
        base.close()
