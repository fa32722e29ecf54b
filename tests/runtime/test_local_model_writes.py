"""The local intent model is a model too: what it alone decides is never kept without the user's yes
(a wrong guess given confidently is worse than a question), while rules write as before."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, select

from runtime.engine import Engine
from runtime.skill import SkillRegistry
from runtime.store import InMemoryContextStore
from runtime.turn import Inbound
from skills import all_skills
from skills.reminders.models import Reminder, as_utc
from skills.services import Services

AT = datetime.fromisoformat("2026-12-01T20:00:00+08:00")


@dataclass(frozen=True)
class Prediction:
    label: str
    confidence: float
    alternatives: tuple[tuple[str, float], ...]


class SureOfReminders:
    """A local model that reads every message as a new reminder, confidently."""

    def predict(self, text: str) -> Prediction:
        return Prediction("reminder.create", 0.97, (("reminder.create", 0.97), ("chitchat", 0.02)))


def _reminders(services: Services) -> list[Reminder]:
    with Session(services.db) as session:
        return list(session.exec(select(Reminder)).all())


def _say(engine: Engine, text: str, n: int) -> tuple[str, str]:
    result = engine.handle(Inbound(user="u", text=text, msg_id=f"m{n}", at=AT))
    return str(result.trace.stage), "\n".join(result.replies)


def test_a_reminder_only_the_local_model_read_waits_for_a_yes(services: Services) -> None:
    engine = Engine(store=InMemoryContextStore(), registry=SkillRegistry(all_skills()), services=services,
                    intent_model=SureOfReminders())
    stage, reply = _say(engine, "练腹肌这事每天晚上九点盯着点我", 1)
    assert stage == "intent_model"
    assert "确认" in reply and "21:00" in reply and _reminders(services) == []
    stage, reply = _say(engine, "不用了", 2)
    assert _reminders(services) == []
    _say(engine, "练腹肌这事每天晚上九点盯着点我", 3)
    _say(engine, "确认", 4)
    assert [r.content for r in _reminders(services)] != []


def test_a_rule_still_sets_a_reminder_at_once(services: Services) -> None:
    engine = Engine(store=InMemoryContextStore(), registry=SkillRegistry(all_skills()), services=services,
                    intent_model=SureOfReminders())
    stage, reply = _say(engine, "明天早上8点提醒我带伞", 1)
    assert stage == "rules" and "08:00" in reply
    assert [r.content for r in _reminders(services)] == ["带伞"]


def test_a_correction_before_the_yes_is_shown_in_the_question_asked_again(services: Services) -> None:
    engine = Engine(store=InMemoryContextStore(), registry=SkillRegistry(all_skills()), services=services,
                    intent_model=SureOfReminders())
    _say(engine, "练腹肌这事每天晚上九点盯着点我", 1)
    _, reply = _say(engine, "哦不对，十点", 2)
    question = reply.split("。", 1)[1]  # after "好的，改成…。": the yes/no asked again
    assert "22:00" in question and "21:00" not in question and "根据你的话理解" in question
    _say(engine, "对", 3)
    assert [as_utc(r.first_due).astimezone(AT.tzinfo).hour for r in _reminders(services)] == [22]
