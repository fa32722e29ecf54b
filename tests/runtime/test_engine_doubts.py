"""Where confident code used to act on the wrong reading: a reminding verb said not to be needed cancels the
reminder it names, a question asked about the time after a workout records none, "another one" counts no
one; and a doubt code has goes to the router only when a model is configured (the policy, alone)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from runtime.engine import Engine
from runtime.llm.policy import Doubt, model_decides
from runtime.skill import SkillRegistry
from runtime.store import InMemoryContextStore
from runtime.turn import Inbound, TurnResult
from skills import all_skills
from skills.services import Services

AT = datetime.fromisoformat("2026-12-01T10:00:00+08:00")  # a Tuesday morning


class Chat:
    """One user talking to the engine (no model), a minute between messages."""

    def __init__(self, services: Services) -> None:
        self.engine = Engine(store=InMemoryContextStore(), registry=SkillRegistry(all_skills()), services=services)
        self.at = AT
        self.n = 0

    def say(self, text: str) -> TurnResult:
        self.n += 1
        self.at += timedelta(minutes=1)
        return self.engine.handle(Inbound(user="u1", text=text, msg_id=f"m{self.n}", at=self.at))


@pytest.mark.parametrize("text", [
    "周五那个体检的用不到提醒我了",
    "体检那个甭喊我了",
    "周五体检的事不需要再叫我了",
])
def test_a_reminder_said_not_to_be_needed_is_cancelled_not_set(services: Services, text: str) -> None:
    chat = Chat(services)
    chat.say("周五下午4点提醒我去体检")
    chat.say("明天上午9点提醒我交报告")  # the last one set: never taken for the one the message names
    result = chat.say(text)
    pending = chat.engine.peek("u1").pending_confirmation
    assert result.trace.intent == "reminder.cancel" and pending is not None, result.replies
    assert "体检" in pending.question and "交报告" not in pending.question


def test_a_reminder_asked_for_with_a_reminding_verb_is_still_set(services: Services) -> None:
    chat = Chat(services)
    result = chat.say("周五下午4点叫我去体检")
    assert result.trace.intent == "reminder.create" and "体检" in result.replies[0]


@pytest.mark.parametrize("text", ["跑完步一般喝点啥好", "骑完车吃什么恢复得快", "打完球该不该马上洗澡"])
def test_a_question_about_after_a_workout_records_none(services: Services, text: str) -> None:
    chat = Chat(services)
    result = chat.say(text)
    ctx = chat.engine.peek("u1")
    assert result.trace.intent != "exercise.log" and ctx.active is None and ctx.pending_confirmation is None


@pytest.mark.parametrize("text", ["跑完步了", "刚游完泳，游了半小时"])
def test_a_workout_said_done_is_still_recorded(services: Services, text: str) -> None:
    assert Chat(services).say(text).trace.intent == "exercise.log"


@pytest.mark.parametrize("text", ["再换一道别的", "来个其他的"])
def test_another_one_after_a_recipe_counts_no_one(services: Services, text: str) -> None:
    chat = Chat(services)
    chat.say("可乐鸡翅怎么做")
    chat.say(text)
    focus = chat.engine.peek("u1").focus
    assert focus is not None and focus.params.get("people") != 1


def test_the_model_decides_only_a_doubt_and_only_when_configured() -> None:
    for doubt in (Doubt(unsure=True), Doubt(torn_between_writes=True), Doubt(names_domain=True),
                  Doubt(unplaced_follow_up=True), Doubt(unexplained_span=True)):
        assert model_decides(doubt, configured=True) and not model_decides(doubt, configured=False)
    assert not model_decides(Doubt(), configured=True)
