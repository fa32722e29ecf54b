"""With a model configured (an OpenAI-compatible fake over HTTP), the model stages engage only when
the local stages cannot explain a message: colloquial chat the local model labels with confidence goes
straight to the chit-chat fallback, never to the router."""

from __future__ import annotations

from datetime import datetime

import pytest

from runtime.engine import Engine
from runtime.intent import load_default_model
from runtime.llm import OpenAILLM, build_llm
from runtime.llm.testkit import FakeOpenAI, json_reply, reply
from runtime.skill import SkillRegistry
from runtime.store import InMemoryContextStore
from runtime.turn import Inbound, Stage
from skills import all_skills
from skills.services import Services

AT = datetime.fromisoformat("2026-12-01T20:00:00+08:00")


def _engine(services: Services, llm: object) -> Engine:
    return Engine(store=InMemoryContextStore(), registry=SkillRegistry(all_skills()), services=services,
                  llm=llm, intent_model=load_default_model())  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["你说人生有意义吗", "你觉得猫和狗哪个更可爱", "如果能穿越你想去哪个朝代"])
def test_colloquial_chat_never_reaches_the_router(services: Services, text: str) -> None:
    with FakeOpenAI() as fake:
        llm = build_llm(fake.env())
        fake.script(reply("听起来不错！", usage=(50, 6)))
        result = _engine(services, llm).handle(Inbound(user="u", text=text, msg_id="m1", at=AT))
        assert result.trace.stage in (Stage.INTENT_MODEL, Stage.FALLBACK) and result.trace.stage != Stage.LLM_ROUTER
        assert result.trace.intent in ("chitchat", "unknown")
        assert all(r.response_format_type is None for r in fake.chat_requests)  # no structured routing call
        assert result.replies == ["听起来不错！"]
        assert isinstance(llm, OpenAILLM)
        llm.close()


@pytest.mark.parametrize("text", ["晚饭的事你看着办吧", "我跑步是不是跑太多了", "周末想跟朋友聚聚吃点啥好",
                                  "帮我把那个事儿取消了吧", "最近动得咋样"])
def test_chat_that_names_a_task_goes_to_the_router_before_the_chat_fallback(services: Services, text: str) -> None:
    with FakeOpenAI() as fake:
        llm = build_llm(fake.env())
        fake.script(json_reply({"intent": "chitchat", "confidence": 0.9}), reply("别担心～"))
        result = _engine(services, llm).handle(Inbound(user="u", text=text, msg_id="m1", at=AT))
        assert [r.response_format_type for r in fake.chat_requests] == ["json_schema", None]
        assert result.replies == ["别担心～"] and result.trace.llm_calls == 2
        assert isinstance(llm, OpenAILLM)
        llm.close()


def test_a_turn_the_rules_decide_makes_no_model_call(services: Services) -> None:
    with FakeOpenAI() as fake:
        llm = build_llm(fake.env())
        result = _engine(services, llm).handle(Inbound(user="u", text="三个人预算100帮我安排晚饭", msg_id="m1", at=AT))
        assert result.trace.stage == Stage.RULES and result.trace.llm_calls == 0 and fake.chat_requests == []
        assert isinstance(llm, OpenAILLM)
        llm.close()
