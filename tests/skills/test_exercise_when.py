"""The day a workout was done, the period a history asks about, corrections of a log, and a plan that
keeps what the person said (avoid, free days, additions) — pure readers and the skill functions."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from sqlmodel import Session, select

from runtime.views import ExecView
from skills.exercise import (
    confirm_log,
    corrected_log,
    delete_confirm_text,
    delete_log,
    extract_add,
    extract_avoid,
    extract_day,
    extract_days,
    extract_period,
    resolve_day,
    resolve_period,
    weekly_plan,
)
from skills.exercise import skill as exercise
from skills.models import ExerciseLog
from skills.services import Services

View = Callable[..., ExecView]
TZ = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 12, 2, 20, 0, tzinfo=TZ)  # a Wednesday evening

DAYS = [
    ("昨晚跑了5公里", "昨天晚上", "12-01 20:00"), ("前天游了一个钟头", "前天", "11-30 12:00"),
    ("上周六打了两小时球", "上周六", "11-28 12:00"), ("今天跑步了", "今天", "12-02 20:00"),
    ("下午去游泳了", "今天下午", "12-02 16:00"), ("今早骑车骑了十来公里", "今天早上", "12-02 07:00"),
    ("周一晚上慢跑了五公里", "周一晚上", "11-30 20:00"), ("周五跑了", "周五", "11-27 12:00"),
    ("3号早上游了二十多分钟", "3号早上", "11-03 07:00"), ("12月1日跑了步", "12月1日", "12-01 12:00"),
    ("三天前跑了5公里", "3天前", "11-29 12:00"), ("大前天快走了一小时", "大前天", "11-29 12:00"),
    ("昨天下午3点游泳", "昨天下午3点", "12-01 15:00"), ("上上周日爬山了", "上上周日", "11-22 12:00"),
    ("9点跑了3公里", "今天9点", "12-02 09:00"), ("前儿个打了羽毛球", "前天", "11-30 12:00"),
    ("上个月1号跑了步", "上个月1号", "11-01 12:00"), ("晚饭后散步了40分钟", "今天晚上", "12-02 20:00"),
]


@pytest.mark.parametrize(("text", "said", "at"), DAYS)
def test_the_day_of_a_workout(text: str, said: str, at: str) -> None:
    assert extract_day(text) == said
    when = resolve_day(said, NOW)
    assert when is not None and not when.future and when.at.strftime("%m-%d %H:%M") == at


@pytest.mark.parametrize("text", ["跑了5公里", "跑了半小时", "刚练完", "游泳一个钟头", "跑了3千米"])
def test_amounts_are_never_a_day(text: str) -> None:
    assert extract_day(text) is None


def test_a_day_still_to_come_is_no_log_day() -> None:
    ahead = resolve_day("这周五", NOW)
    assert ahead is not None and ahead.future
    late = resolve_day("今天晚上8点半", NOW)  # said at eight: it happened, just now
    assert late is not None and not late.future and late.at == NOW
    assert resolve_day("11月31日", NOW) is None


PERIODS = [
    ("这个月运动了几次", "本月", "12-01", "12-02"), ("那上个月呢", "11月", "11-01", "11-30"),
    ("上周的呢", "上周", "11-23", "11-29"), ("这礼拜练了几回", "本周", "11-30", "12-02"),
    ("最近三天呢", "最近3天", "11-30", "12-02"), ("过去两周的运动情况", "最近14天", "11-19", "12-02"),
    ("最近一个月", "最近30天", "11-03", "12-02"), ("近7天", "最近7天", "11-26", "12-02"),
    ("今年锻炼了多少次", "今年", "01-01", "12-02"), ("去年呢", "去年", "01-01", "12-31"),
    ("十月份跑了几次", "10月", "10-01", "10-31"), ("最近运动得怎么样", "最近", "11-03", "12-02"),
    ("这一周", "本周", "11-30", "12-02"), ("过去半个月", "最近15天", "11-18", "12-02"),
    ("上个周末打了几次球", "上周末", "11-28", "11-29"), ("昨天运动了多少", "昨天", "12-01", "12-01"),
]


@pytest.mark.parametrize(("text", "name", "start", "end"), PERIODS)
def test_the_period_of_a_history_question(text: str, name: str, start: str, end: str) -> None:
    plain = extract_period(text)
    assert plain is not None
    period = resolve_period(plain, date(2026, 12, 2))
    assert period is not None and period.name == name
    assert (period.start.strftime("%m-%d"), period.end.strftime("%m-%d")) == (start, end)


def test_a_workout_told_is_not_a_history_question() -> None:
    action = exercise.SPEC.actions[2]
    period = action.slot("period")
    assert action.intent == "exercise.history" and period is not None and period.extract is not None
    assert period.extract("今天跑了5公里") is None and period.extract("昨天游泳了") is None
    assert period.extract("今天跑了几公里") == "今天" and period.extract("上个月呢") == "上个月"


def test_a_log_on_the_day_said_and_its_confirmation(services: Services, make_view: View) -> None:
    params = {"activity": "跑步", "distance_km": 5.0, "day": "昨天晚上"}
    assert confirm_log(params) == "确认记录：昨天晚上 跑步 5公里吗？"
    assert confirm_log({**params, "previous": {"activity": "跑步"}}).startswith("确认把刚才那条改成：昨天晚上")
    result = exercise.log(make_view(msg_id="d1", now=NOW), params, services)
    assert result.ok and "12月1日（昨天晚上）" in result.reply
    assert [e.kind for e in result.entities] == ["workout"] and result.entities[0].name == "跑步"
    with Session(services.db) as session:
        row = session.exec(select(ExerciseLog)).one()
    assert row.done_at.replace(tzinfo=ZoneInfo("UTC")).astimezone(TZ) == datetime(2026, 12, 1, 20, 0, tzinfo=TZ)
    ahead = exercise.log(make_view(msg_id="d2", now=NOW), {**params, "day": "这周五"}, services)
    assert not ahead.ok and "还没到" in ahead.reply


def test_a_correction_changes_what_it_names_and_keeps_the_rest() -> None:
    before = {"activity": "游泳", "minutes": 60.0, "day": "前天"}
    assert corrected_log(before, "大前天") == {**before, "day": "大前天"}
    assert corrected_log(before, "50分钟") == {**before, "minutes": 50.0}
    assert corrected_log({**before, "minutes": None, "distance_km": 1.0}, "1.5公里") == \
        {**before, "minutes": None, "distance_km": 1.5}
    assert corrected_log(before, "跑步") == {**before, "activity": "跑步"}
    assert corrected_log(before, "好的") is None


def test_a_shown_workout_is_deleted_exactly(services: Services, make_view: View) -> None:
    for i, act in enumerate(["跑步", "跑步", "游泳"]):
        exercise.log(make_view(msg_id=f"r{i}", now=NOW), {"activity": act, "minutes": 30.0 + i}, services)
    shown = exercise.history(make_view(now=NOW), {"period": "今天", "activity": "跑步"}, services)
    first = shown.entities[0].ref
    assert delete_confirm_text({"target": first}).startswith("确认删除这条运动记录：12月2日 跑步")
    delete_log(make_view(msg_id="del", now=NOW), {"target": first}, services)
    with Session(services.db) as session:
        left = sorted(r.minutes or 0 for r in session.exec(select(ExerciseLog)).all())
    assert left == [31.0, 32.0]


AVOID = [("膝盖不好别安排跑跳", ["膝盖", "跑跳"]), ("我腰不太好", ["腰"]), ("不想游泳也不想跑步", ["游泳", "跑步"]),
         ("有高血压", ["血压"]), ("跳绳就算了", ["跳绳"]), ("想加点力量训练", None), ("周末有空", None),
         ("我脚踝崴过，别安排跳的", ["脚踝", "跳"])]


@pytest.mark.parametrize(("text", "expected"), AVOID)
def test_restrictions_by_name(text: str, expected: list[str] | None) -> None:
    assert extract_avoid(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("只有周末有空", [5, 6]), ("周二周四晚上有空", [1, 3]), ("工作日没空", [5, 6]), ("周一到周三能练", [0, 1, 2]),
    ("一周的运动计划", None), ("周末", None), ("周一三五晚上有空", [0, 2, 4]), ("周六日有空", [5, 6]),
    # days said one after another with any weekday word, and a busy clause then a free one without a comma
    ("星期三星期天可以", [2, 6]), ("平时要上班 礼拜四礼拜天才有空", [3, 6]), ("上班日不方便但周五周日成", [4, 6]),
    ("礼拜一礼拜五不可以", [1, 2, 3, 5, 6]),
])
def test_free_days(text: str, expected: list[int] | None) -> None:
    assert extract_days(text) == expected


@pytest.mark.parametrize(("text", "expected"), [("想加点力量训练", ["力量训练"]), ("多安排点有氧", ["有氧"]),
                                                ("再加个瑜伽", ["瑜伽"]), ("膝盖不好", None)])
def test_additions(text: str, expected: list[str] | None) -> None:
    assert extract_add(text) == expected


def test_a_plan_keeps_to_what_was_said() -> None:
    knee = weekly_plan("减脂", "中级", 40, avoid=["膝盖"])
    assert not {d.activity for d in knee.days} & {"跑步", "跳绳"} and len(knee.days) == 4
    weekend = weekly_plan("减脂", "初级", 40, avoid=["膝盖"], days=[5, 6])
    assert [d.weekday for d in weekend.days] == [5, 6]
    more = weekly_plan("保持", "初级", 30, avoid=["跑步"], add=["有氧"])
    assert len(more.days) == 4 and "跑步" not in {d.activity for d in more.days} and more.changes
    strength = weekly_plan("减脂", "初级", 20, days=[5, 6], add=["力量训练"])
    assert all("力量训练" in d.activity or "力量训练" in d.note for d in strength.days)


def test_plan_follow_ups_change_the_plan_and_keep_the_rest(services: Services, make_view: View) -> None:
    follow = exercise.SPEC.actions[0].follow
    first = {"goal": "减脂", "minutes": 40.0}

    def said(text: str, params: dict[str, object]) -> dict[str, object]:
        for rule in follow.modifiers:
            m = rule.regex.search(text)
            built = rule.apply(params, m, None, {"minutes": 40, "level": "初级"}) if m else None
            if built is not None:
                return dict(built)
        raise AssertionError(f"no follow-up reads {text!r}")

    knee = said("膝盖不好别安排跑跳", first)
    weekend = said("只有周末有空", knee)
    short = said("每次只能练20分钟", weekend)
    assert short == {"goal": "减脂", "minutes": 20.0, "avoid": ["膝盖", "跑跳"], "days": [5, 6]}
    assert said("强度大一点", short)["level"] == "中级"
    reply = exercise.plan(make_view(now=NOW), short, services).reply
    assert "膝盖不好" in reply and "只在周六、周日练" in reply and "20分钟" in reply and "周一 " not in reply


def test_a_history_follow_up_naming_every_activity_drops_the_filter() -> None:
    activity = exercise.SPEC.actions[2].slot("activity")
    assert activity is not None and activity.extract is not None
    assert activity.extract("近三个月的运动") == "运动" and activity.extract("今年跑了多少公里") == "跑步"
    assert activity.extract("那上个月呢") is None
