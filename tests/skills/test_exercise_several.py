"""Several workouts in one message are read clause by clause and recorded together; a correction's day is the
one said instead; a relative day is confirmed with its date; free and busy days are read clause by clause."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from runtime.views import ExecView
from skills.exercise import confirm_log, corrected_log, extract_add, extract_days, extract_entries
from skills.exercise import skill as exercise
from skills.services import Services

View = Callable[..., ExecView]
NOW = datetime(2026, 12, 10, 21, 0, tzinfo=ZoneInfo("Asia/Shanghai"))  # a Thursday


def test_each_clause_is_one_workout_on_its_own_day() -> None:
    found = extract_entries("周一游了半小时，周二跑了4公里，今天跳绳15分钟")
    assert found == [{"activity": "游泳", "minutes": 30.0, "day": "周一"},
                     {"activity": "跑步", "distance_km": 4.0, "day": "周二"},
                     {"activity": "跳绳", "minutes": 15.0, "day": "今天"}]


def test_days_joined_in_one_clause_repeat_the_workout() -> None:
    found = extract_entries("上周二和周五都打了一小时篮球")
    assert [e["day"] for e in found or []] == ["上周二", "上周五"]
    assert all(e["minutes"] == 60.0 and e["activity"] == "篮球" for e in found or [])


def test_a_part_of_the_day_alone_keeps_the_day_before() -> None:
    found = extract_entries("昨天跑了5公里，晚上又游了20分钟")
    assert [e["day"] for e in found or []] == ["昨天", "昨天晚上"]


@pytest.mark.parametrize("text", ["昨晚骑车骑了十五公里", "跑步5公里用了30分钟", "周一跑了5公里，周二也去游泳了"])
def test_one_workout_or_one_without_an_amount_is_no_list(text: str) -> None:
    assert extract_entries(text) is None


def test_several_are_confirmed_with_their_dates_and_recorded_once(services: Services, make_view: View) -> None:
    params = {"entries": extract_entries("周一游了半小时，周二跑了4公里"), "activity": "游泳", "minutes": 30.0}
    asked = confirm_log({**params, "_now": NOW})
    assert "1. 12月7日（周一） 游泳 30分钟" in asked and "2. 12月8日（周二） 跑步 4公里" in asked
    done = exercise.log(make_view(params, msg_id="m1", now=NOW), params, services)
    again = exercise.log(make_view(params, msg_id="m1", now=NOW), params, services)
    assert done.reply.startswith("记下了这2次运动") and len(done.entities) == 2
    assert again.reply.startswith("这些已经记过了")
    week = exercise.history(make_view(msg_id="m2", now=NOW), {"period": "本周"}, services)
    assert "运动2次" in week.reply


def test_a_relative_day_is_confirmed_with_its_date() -> None:
    assert confirm_log({"activity": "游泳", "distance_km": 1.0, "day": "上个月20号", "_now": NOW}) == \
        "确认记录：11月20日（上个月20号） 游泳 1公里吗？"
    assert confirm_log({"activity": "跑步", "minutes": 30.0, "day": "今天早上", "_now": NOW}).startswith("确认记录：今天早上")


@pytest.mark.parametrize("fragment", ["不是昨天，是大前天下午", "昨天，是大前天下午", "不对，大前天下午"])
def test_the_day_a_correction_says_instead(fragment: str) -> None:
    previous = {"activity": "跳绳", "minutes": 20.0, "day": "昨天晚上"}
    assert (corrected_log(previous, fragment) or {}).get("day") == "大前天下午"


@pytest.mark.parametrize(("text", "days"), [
    ("平时上班没时间，只有周二和周六能练", [1, 5]),
    ("工作日没空，只能周六周日练", [5, 6]),
    ("周五我得值班，别给我排周五", [0, 1, 2, 3, 5, 6]),
    ("只有周末有空", [5, 6]),
    ("下周帮我安排点运动", None),
])
def test_free_and_busy_days_clause_by_clause(text: str, days: list[int] | None) -> None:
    assert extract_days(text) == days


def test_an_activity_to_add_said_with_its_verb() -> None:
    assert extract_add("能不能加一些练力量的") == ["力量训练"]


def test_a_correction_of_several_changes_the_one_it_names() -> None:
    previous = {"entries": extract_entries("周一游了半小时，周二跑了4公里"), "activity": "游泳", "minutes": 30.0}
    changed = corrected_log(previous, "周二是5公里") or {}
    assert [e.get("distance_km") or e.get("minutes") for e in changed.get("entries", [])] == [30.0, 5.0]
    assert corrected_log(previous, "是5公里") is None  # names no workout of the several
