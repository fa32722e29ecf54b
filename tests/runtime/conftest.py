"""A toy skill set and an engine on an in-memory store, for engine behaviour tests."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from runtime.engine import Engine
from runtime.skill import ActionSpec, SkillRegistry, SkillResult, SkillSpec, SlotSpec, SlotType
from runtime.store import InMemoryContextStore
from runtime.turn import Inbound, Origin, TurnResult
from runtime.views import ExecView
from skills.datetime import SPEC as DATETIME
from skills.dinner.skill import SPEC as DINNER_SKILL
from skills.exercise.skill import SPEC as EXERCISE_SKILL
from skills.smalltalk.skill import SPEC as SMALLTALK

TZ = ZoneInfo("Asia/Shanghai")
START = datetime(2026, 11, 30, 18, 0, tzinfo=TZ)


class Ledger:
    """Records what the toy skills did (the 'SQL' of these tests), idempotent by message id."""

    def __init__(self) -> None:
        self.plans: list[dict[str, Any]] = []
        self.logs: dict[str, dict[str, Any]] = {}


def _plan(view: ExecView, params: Mapping[str, Any], services: Ledger) -> SkillResult:
    services.plans.append(dict(params))
    return SkillResult(reply=f"为{params['people']}人安排好了，预算{params['budget']:.0f}元。",
                       facts={"people": params["people"], "budget": params["budget"]})


def _log(view: ExecView, params: Mapping[str, Any], services: Ledger) -> SkillResult:
    services.logs.setdefault(view.msg_id, dict(params))
    return SkillResult(reply=f"记下了：{params['activity']}。")


def _activity(text: str) -> str | None:
    for word in ("跑步", "骑车", "游泳"):
        if word in text:
            return word
    return None


DINNER = SkillSpec("dinner", (ActionSpec(
    "plan", "dinner.plan", _plan, repeatable=True, task="安排晚饭", slots=(
        SlotSpec("people", SlotType.COUNT, "几个人吃？", minimum=1, maximum=20, hint="告诉我人数就行，比如“3个人”"),
        SlotSpec("budget", SlotType.MONEY, "预算大概多少钱？", hint="比如“100元”"),
        SlotSpec("dietary", SlotType.TEXT_LIST, "有什么忌口吗？", required=False, ask_once=True),
    )),), triggers=tuple(t for t in DINNER_SKILL.triggers if t.intent == "dinner.plan"))
EXERCISE = SkillSpec("exercise", (ActionSpec(
    "log", "exercise.log", _log, writes=True, any_of=(("minutes", "distance_km"),), task="记录运动",
    confirm_text=lambda p: f"确认记录{p['activity']}吗？", slots=(
        SlotSpec("activity", SlotType.TEXT, "做了什么运动？", extract=_activity),
        SlotSpec("minutes", SlotType.DURATION, "运动了多久？", required=False),
        SlotSpec("distance_km", SlotType.DISTANCE, "多少公里？", required=False),
    )),), triggers=tuple(t for t in EXERCISE_SKILL.triggers if t.intent == "exercise.log"))


class Bot:
    """Sends messages as users on a settable clock."""

    def __init__(self, engine: Engine, ledger: Ledger) -> None:
        self.engine = engine
        self.ledger = ledger
        self.now = START
        self._n = 0

    def say(self, text: str, user: str = "u1", *, after: timedelta | None = None) -> TurnResult:
        if after:
            self.now += after
        self._n += 1
        return self.engine.handle(Inbound(user=user, text=text, msg_id=f"m{self._n}", at=self.now))

    def event(self, event: str, key: str | None = None, user: str = "u1") -> TurnResult:
        self._n += 1
        return self.engine.handle(Inbound(user=user, event=event, key=key, origin=Origin.EVENT,
                                          msg_id=f"m{self._n}", at=self.now))


@pytest.fixture
def bot() -> Bot:
    ledger = Ledger()
    engine = Engine(store=InMemoryContextStore(), registry=SkillRegistry([DINNER, EXERCISE, DATETIME, SMALLTALK]),
                    services=ledger)
    return Bot(engine, ledger)
