"""exercise.plan / log / history called directly, with idempotent logging and MET energy."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlmodel import Session, func, select

from runtime.views import ExecView
from skills.exercise import MET_PATH, activities, estimate, find_activity
from skills.exercise import skill as exercise
from skills.models import ExerciseLog
from skills.profile import skill as profile
from skills.services import Services

View = Callable[..., ExecView]
TZ = ZoneInfo("Asia/Shanghai")


def test_met_table_is_sourced_and_sane() -> None:
    text = MET_PATH.read_text(encoding="utf-8")
    assert "Compendium of Physical Activities" in text
    assert all(1.0 <= a.met <= 20 for a in activities().values())
    assert find_activity("今天跑了5公里") == "跑步" and find_activity("撸铁一小时") == "力量训练"
    assert find_activity("今天好累") is None


def test_energy_is_met_times_kg_times_hours() -> None:
    assert estimate("游泳", minutes=60, distance_km=None, weight_kg=70).kcal == 420
    by_speed = estimate("跑步", minutes=30, distance_km=5, weight_kg=60)  # 10 km/h
    assert by_speed.met == 9.8 and by_speed.kcal == 294
    by_distance = estimate("跑步", minutes=None, distance_km=8, weight_kg=60)
    assert by_distance.minutes_estimated and by_distance.minutes == 60
    with pytest.raises(ValueError):
        estimate("跳绳", minutes=None, distance_km=3, weight_kg=60)


def test_log_uses_default_weight_and_says_so(services: Services, make_view: View) -> None:
    result = exercise.log(make_view(msg_id="e1"), {"activity": "跑步", "distance_km": 5.0}, services)
    assert result.ok and "60公斤" in result.reply and result.dto["weight_assumed"] is True
    assert set(result.dto) == {"activity", "minutes", "distance_km", "kcal", "met", "weight_assumed",
                               "recorded_now"}


def test_log_is_idempotent_on_msg_id_and_uses_profile_weight(services: Services, make_view: View) -> None:
    profile.update(make_view(msg_id="w"), {"weight_kg": 80.0}, services)
    params = {"activity": "游泳", "minutes": 30.0}
    first = exercise.log(make_view(msg_id="e2"), params, services)
    again = exercise.log(make_view(msg_id="e2"), params, services)
    assert first.dto["recorded_now"] and not again.dto["recorded_now"]
    assert first.dto["kcal"] == 240 and "默认" not in first.reply
    with Session(services.db) as session:
        assert session.exec(select(func.count()).select_from(ExerciseLog)).one() == 1


def test_log_unknown_activity_or_missing_amount(services: Services, make_view: View) -> None:
    assert not exercise.log(make_view(), {"activity": "冥想打坐", "minutes": 20.0}, services).ok
    assert not exercise.log(make_view(msg_id="e9"), {"activity": "跳绳"}, services).ok


def test_log_spec_and_confirmation() -> None:
    action = exercise.SPEC.actions[1]
    assert action.intent == "exercise.log" and action.writes
    assert action.any_of == (("minutes", "distance_km"),)
    assert action.confirm_text is not None
    assert action.confirm_text({"activity": "跑了", "distance_km": 5.0}) == "确认记录：跑步 5公里吗？"


def test_history_by_period_per_activity(services: Services, make_view: View) -> None:
    now = datetime(2026, 12, 2, 20, 0, tzinfo=TZ)  # Wednesday
    for i, (days_ago, act, minutes) in enumerate([(0, "跑步", 30.0), (1, "跑步", 20.0), (4, "游泳", 40.0),
                                                   (9, "跳绳", 10.0)]):
        exercise.log(make_view(msg_id=f"h{i}", now=now - timedelta(days=days_ago)),
                     {"activity": act, "minutes": minutes}, services)
    week = exercise.history(make_view(now=now), {"period": "这周"}, services)
    assert week.dto["times"] == 2 and set(week.dto["per_activity"]) == {"跑步"}
    assert week.dto["per_activity"]["跑步"]["minutes"] == 50 and "本周" in week.reply and "2次" in week.reply
    last7 = exercise.history(make_view(now=now), {}, services)  # no period: the last 7 days
    assert set(last7.dto["per_activity"]) == {"跑步", "游泳"} and "最近7天" in last7.reply
    assert [e.name for e in last7.entities] == ["跑步", "游泳"] and all(e.kind == "activity" for e in last7.entities)
    month = exercise.history(make_view(now=now), {"period": "上个月"}, services)
    assert month.dto["period"] == "11月" and set(month.dto["per_activity"]) == {"游泳", "跳绳"}
    runs = exercise.history(make_view(now=now), {"period": "本月", "activity": "跑步"}, services)
    assert runs.dto["times"] == 2 and [e.kind for e in runs.entities] == ["workout", "workout"]
    assert "12月1日" in runs.reply and "12月2日" in runs.reply
    other = exercise.history(make_view(user="nobody", now=now), {"period": "今年"}, services)
    assert "今年还没有记录" in other.reply and other.dto["times"] == 0


def test_weekly_plan_depends_on_goal_and_level(services: Services, make_view: View) -> None:
    lean = exercise.plan(make_view(), {"goal": "减脂", "level": "新手", "minutes": 40.0}, services)
    bulk = exercise.plan(make_view(), {"goal": "增肌", "level": "老手"}, services)
    assert len(lean.dto["days"]) == 3 and all(d["minutes"] == 40 for d in lean.dto["days"])
    assert len(bulk.dto["days"]) == 5 and sum(d["activity"] == "力量训练" for d in bulk.dto["days"]) >= 3
    assert "周一" in lean.reply and lean.dto["weekly_kcal"] > 0
    profile.update(make_view(msg_id="g"), {"goal": "控糖"}, services)
    assert exercise.plan(make_view(), {}, services).dto["goal"] == "控糖"
