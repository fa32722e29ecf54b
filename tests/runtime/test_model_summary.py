"""The model summary (DESIGN §3.5) says what the bot last showed and what it is asking, in one templated
sentence: the kind of thing shown and its size, never the user's own records, ids or JSON."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest

from runtime.engine import Engine
from runtime.skill import SkillRegistry
from runtime.store import InMemoryContextStore
from runtime.summary import MAX_SUMMARY_CHARS
from runtime.turn import Inbound
from skills import all_skills
from skills.services import Services

AT = datetime.fromisoformat("2026-12-01T10:00:00+08:00")


def _summary_after(services: Services, *said: str, later: timedelta = timedelta(minutes=1)) -> str:
    engine = Engine(store=InMemoryContextStore(), registry=SkillRegistry(all_skills()), services=services)
    at = AT
    for n, text in enumerate(said):
        engine.handle(Inbound(user="u1", text=text, msg_id=f"m{n}", at=at))
        at += timedelta(minutes=1)
    text = engine.model_summary(engine.peek("u1"), at - timedelta(minutes=1) + later).text
    assert 0 < len(text) <= MAX_SUMMARY_CHARS and not re.search(r"[{}\[\]\"]|#\d", text), text
    return text


@pytest.mark.parametrize(("said", "words"), [
    (("4个人预算120安排晚饭", "不吃辣"), ("4人", "预算120元", "晚饭菜单", "道菜")),
    (("糖醋排骨怎么做",), ("糖醋排骨", "做法")),
    (("土豆能做什么",), ("道菜来挑",)),
    (("帮我制定运动计划",), ("运动计划", "每次30分钟")),
    (("今天几号",), ("今天几号",)),
])
def test_it_says_what_was_last_shown(services: Services, said: tuple[str, ...], words: tuple[str, ...]) -> None:
    text = _summary_after(services, *said)
    assert all(word in text for word in words), text


def test_a_yes_no_waiting_tells_the_task_not_the_users_values(services: Services) -> None:
    text = _summary_after(services, "我体重72.5公斤")
    assert "是否确认更新健康档案" in text and "72.5" not in text


def test_a_list_of_the_users_reminders_is_told_by_its_size_not_its_contents(services: Services) -> None:
    text = _summary_after(services, "明天上午9点提醒我交房租", "周五晚上8点提醒我给妈妈打电话", "我的提醒")
    assert "2条提醒" in text and "房租" not in text and "妈妈" not in text


@pytest.mark.parametrize(("said", "words"), [
    (("3个人吃晚饭",), ("安排晚饭", "预算")),          # the field asked for
    (("今天跑了5公里",), ("是否确认记录运动",)),  # a pending yes/no: the task, not the values
])
def test_it_says_what_is_being_asked(services: Services, said: tuple[str, ...], words: tuple[str, ...]) -> None:
    text = _summary_after(services, *said)
    assert all(word in text for word in words), text


def test_a_result_no_longer_in_view_is_not_told(services: Services) -> None:
    text = _summary_after(services, "糖醋排骨怎么做", later=timedelta(hours=2))
    assert "糖醋排骨" not in text
