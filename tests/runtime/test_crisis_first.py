"""Crisis first (DESIGN §3.4): the crisis answer wins over an expected input, a pending yes/no, a cancel
and small talk; the waiting task is paused, not lost; a request said beside it is still carried out."""

from __future__ import annotations

import pytest

from runtime.engine import Engine
from runtime.llm.routing import labels_from_registry
from runtime.llm.tools import tools_from_skills
from runtime.skill import SkillRegistry
from runtime.store import InMemoryContextStore
from skills import registry as real_registry
from skills.datetime import SPEC as DATETIME
from skills.safety import SPEC as SAFETY
from skills.smalltalk.skill import SPEC as SMALLTALK
from tests.runtime.conftest import DINNER, EXERCISE, Bot, Ledger


@pytest.fixture
def safe_bot() -> Bot:
    ledger = Ledger()
    engine = Engine(store=InMemoryContextStore(), registry=SkillRegistry([DINNER, EXERCISE, DATETIME, SMALLTALK, SAFETY]),
                    services=ledger)
    return Bot(engine, ledger)


def test_a_crisis_pauses_the_waiting_task_which_comes_back(safe_bot: Bot) -> None:
    safe_bot.say("帮我安排晚饭")
    assert safe_bot.say("五个人").state.expected_field == "budget"
    r = safe_bot.say("其实我最近每天都在想怎么结束自己的生命")
    assert (r.trace.stage, r.trace.intent, r.trace.skill) == ("control", "chitchat", "safety")
    assert r.trace.detail.startswith("crisis: self_harm")
    assert "12356" in r.replies[0] and "预算" not in r.replies[0]
    assert r.state.active_skill is None and r.state.paused == ["dinner"]
    back = safe_bot.say("继续")
    assert back.state.expected_field == "budget" and "预算" in back.replies[0]


def test_a_pending_yes_no_is_not_taken_by_a_crisis(safe_bot: Bot) -> None:
    assert safe_bot.say("今天游泳40分钟").state.pending_confirmation == "exercise.log"
    r = safe_bot.say("好，反正我也不想活了")
    assert r.trace.intent == "chitchat" and "12356" in r.replies[0]
    assert safe_bot.ledger.logs == {} and r.state.pending_confirmation == "exercise.log"
    assert safe_bot.say("确认").state.pending_confirmation is None
    assert len(safe_bot.ledger.logs) == 1


def test_a_cancel_word_does_not_hide_a_crisis(safe_bot: Bot) -> None:
    safe_bot.say("帮我安排晚饭")
    r = safe_bot.say("算了，活着真没意思")
    assert r.trace.stage == "control" and r.trace.skill == "safety"
    assert r.state.paused == ["dinner"]  # kept, not cancelled


def test_a_request_beside_the_crisis_is_carried_out_after_the_answer(safe_bot: Bot) -> None:
    r = safe_bot.say("我爸胸口疼得厉害喘不上气，三个人预算80帮我安排晚饭")
    reply = r.replies[0]
    assert reply.startswith("请马上拨打120") and "忌口" in reply
    assert reply.index("120") < reply.index("忌口")
    assert r.trace.intent == "chitchat" and r.trace.skill == "safety" and "then dinner.plan" in r.trace.detail
    assert r.state.active_skill == "dinner" and r.state.expected_field == "dietary"
    assert safe_bot.say("没有").state.active_skill is None and safe_bot.ledger.plans[0]["people"] == 3


def test_a_symptom_said_beside_it_is_no_request(safe_bot: Bot) -> None:
    r = safe_bot.say("我妈突然晕倒了，脸色发白")
    assert r.replies[0].startswith("请马上拨打120") and r.state.active_skill is None
    assert "then" not in r.trace.detail


def test_look_alikes_get_their_normal_answer(safe_bot: Bot) -> None:
    r = safe_bot.say("今天跑步跑到喘不过来，5公里")
    assert r.trace.intent == "exercise.log" and "120" not in r.replies[0]
    assert safe_bot.say("累得要死").trace.skill != "safety"


def test_without_a_crisis_answer_registered_nothing_is_detected(bot: Bot) -> None:
    assert bot.say("我真的不想再活下去了").trace.skill != "safety"


def test_the_crisis_decider_runs_before_control() -> None:
    engine = Engine(store=InMemoryContextStore(), registry=real_registry(), services=None)
    names = [name for name, _ in engine.resolver.order]
    assert names[:3] == ["event", "crisis", "control"]


def test_the_crisis_answer_is_no_menu_key_model_label_or_public_label() -> None:
    reg = real_registry()
    crisis = reg.crisis()
    assert crisis is not None and crisis[1].intent not in reg.menu_keys()
    assert crisis[1].intent not in {label.intent for label in labels_from_registry(reg.skills)}
    assert crisis[1].intent not in {t.intent for t in tools_from_skills(reg.skills, lambda a, p: None, reg.read_only_intents())}
    assert reg.public(crisis[1].intent) == "chitchat" and crisis[1].intent not in reg.labels()
