"""An edit changes only the slots it names (DESIGN §3.4, "one frame per message"): a property test.

Generated corrections and moves — many leads, operation words, new values, particles and reasons said
beside them — are applied to a reminder just set, to a workout waiting for its yes and to one just
recorded, and to a profile change waiting for its yes. The words of an operation or a reason are never
stored as content: the reminder's content, the workout's activity and the profile's other values stay
exactly as they were, while the slot named takes its new value.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.compose import core
from bot.settings import Settings
from runtime.turn import Inbound
from skills.reminders import store as reminders

START = datetime.fromisoformat("2026-12-07T09:00:00+08:00")  # a Monday morning
_counter = itertools.count()

CONTENTS = ("交社保材料", "去取干洗的衣服", "给妈妈打电话", "带孩子去打疫苗", "还信用卡", "去银行办卡", "吃降压药")
LEADS = ("", "哦", "不对", "不对不对", "等下", "哎呀", "嗯", "那个", "麻烦")
MOVES = ("改到", "改成", "挪到", "换到", "调到", "推到", "还是", "")
TIMES = ("十一点", "11点半", "下午四点", "晚上八点", "八点一刻", "中午")
TAILS = ("", "吧", "哈", "就行", "呗")
REASONS = ("", " 那会儿我在开会", "，我八点还没到家", " 因为要接孩子", "，上午要带孙子", " 九点我都睡了",
           " 怕来不及")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    folder: Path = tmp_path_factory.mktemp("edits")
    made = core(Settings.from_env({"DATA_DIR": str(folder), "WEATHER_FAKE": "true"}))
    yield made
    made.services.db.dispose()


def _say(built: object, user: str, text: str, at: datetime) -> str:
    engine = built.engine  # type: ignore[attr-defined]
    result = engine.handle(Inbound(user=user, text=text, msg_id=f"m{next(_counter)}", at=at))
    return "\n".join(result.replies)


def _contents(built: object, user: str) -> list[str]:
    return [r.content for r in reminders.list_active(built.services.db, user)]  # type: ignore[attr-defined]


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=st.sampled_from(CONTENTS), lead=st.sampled_from(LEADS), move=st.sampled_from(MOVES),
       when=st.sampled_from(TIMES), tail=st.sampled_from(TAILS), reason=st.sampled_from(REASONS))
def test_moving_a_reminder_keeps_what_it_reminds_of(built: object, content: str, lead: str, move: str, when: str,
                                                     tail: str, reason: str) -> None:
    user = f"u{next(_counter)}"
    _say(built, user, f"后天上午十点提醒我{content}", START)
    assert _contents(built, user) == [content]
    separator = " " if lead and not move else ""
    edit = f"{lead}{separator}{move}{when}{tail}{reason}"
    reply = _say(built, user, edit, START + timedelta(minutes=1))
    assert _contents(built, user) == [content], (edit, reply)
    for words in (move, reason.strip(" ，")):
        if words:
            assert f"提醒你：{words}" not in reply and f"：{content}{words}" not in reply, (edit, reply)


WORKOUT_EDITS = ("不对，是6公里", "哦不对 6公里 我记错了", "不是5公里是6公里", "改成6公里吧 刚才说错了", "应该是6公里")


@pytest.mark.parametrize("edit", WORKOUT_EDITS)
def test_correcting_a_workout_before_the_yes_keeps_the_activity(built: object, edit: str) -> None:
    user = f"u{next(_counter)}"
    asked = _say(built, user, "今天跑了5公里", START)
    assert "跑步" in asked and "5公里" in asked
    again = _say(built, user, edit, START + timedelta(minutes=1))
    assert "跑步" in again and "6公里" in again and "记错" not in again and "说错" not in again, again


@pytest.mark.parametrize("edit", ("不对，是昨天 今天下雨没去", "哎呀记错了 是昨天", "不是今天是昨天", "改成昨天吧"))
def test_moving_a_recorded_workout_to_another_day_keeps_the_activity(built: object, edit: str) -> None:
    user = f"u{next(_counter)}"
    _say(built, user, "今天游了40分钟", START)
    _say(built, user, "对", START + timedelta(seconds=30))
    moved = _say(built, user, edit, START + timedelta(minutes=1))
    assert "游泳" in moved and "下雨" not in moved and "记错" not in moved, moved
