"""Workouts, periods and plans as people type them: clauses parted only by spaces, a period from a day until
now, how often a week, a question about one day of a shown plan."""

from __future__ import annotations

import re
from datetime import date

import pytest

from runtime.skill import SkillRegistry
from runtime.understand.lexicon import follow_up_fragment, is_correction, yes_no
from runtime.understand.rules import RuleRouter, rules_from
from skills import all_skills
from skills.exercise import (
    corrected_log,
    extract_avoid,
    extract_days,
    extract_entries,
    extract_period,
    extract_sessions,
    find_activity,
    resolve_period,
    same_activity,
    weekly_plan,
)
from skills.exercise.skill import SPEC

TODAY = date(2026, 12, 10)  # a Thursday


@pytest.mark.parametrize(("text", "days"), [
    ("前天游了四十分钟 昨天又跑了六公里", ["前天", "昨天"]),
    ("上周二快走一个小时 上周四跳绳十五分钟 腿都软了", ["上周二", "上周四"]),
    ("1号晚上骑车二十公里 3号早上爬山俩小时", ["1号晚上", "3号早上"]),
    ("周一做了半小时瑜伽  周三打了一个钟羽毛球", ["周一", "周三"]),
    ("昨天早上跑了5公里 晚上又游了半小时", ["昨天早上", "昨天晚上"]),
])
def test_workouts_parted_only_by_spaces_are_each_on_their_day(text: str, days: list[str]) -> None:
    assert [e.get("day") for e in extract_entries(text) or []] == days


@pytest.mark.parametrize("text", ["昨天 跑了5公里", "游了半小时 累趴了", "跑了 五公里 用了半小时"])
def test_a_space_inside_one_workout_parts_nothing(text: str) -> None:
    assert extract_entries(text) is None


@pytest.mark.parametrize(("text", "start"), [
    ("上周三到现在练了几次", date(2026, 12, 2)),
    ("从5号开始到今天跑了几回", date(2026, 12, 5)),
    ("11月20号以来一共运动了多少次", date(2026, 11, 20)),
    ("自打上个月28号起游了几趟", date(2026, 11, 28)),
    ("前天到现在动了几回", date(2026, 12, 8)),
])
def test_a_period_from_a_day_until_now(text: str, start: date) -> None:
    said = extract_period(text)
    period = resolve_period(said or "", TODAY)
    assert period is not None and (period.start, period.end) == (start, TODAY)


@pytest.mark.parametrize(("text", "count"), [
    ("每周练三次", 3), ("一个礼拜能去两回", 2), ("每星期运动4天", 4), ("我想每天都练", 7), ("一周就练一次吧", 1),
    ("帮我做个计划", None),
])
def test_sessions_a_week(text: str, count: int | None) -> None:
    assert extract_sessions(text) == count


def test_a_plan_keeps_the_sessions_asked_for_when_something_is_added() -> None:
    week = weekly_plan("减脂", None, 40, per_week=2, add=["力量训练"])
    assert len(week.days) == 2 and all(d.minutes == 40 for d in week.days)
    assert any("力量训练" in (d.activity + d.note) for d in week.days)


_DAY_ASKED = next(a for a in SPEC.actions if a.name == "plan").follow.questions[0]


@pytest.mark.parametrize(("text", "weekday"), [
    ("礼拜二排的是什么", 1), ("星期四干嘛", 3), ("周日要练吗", 6), ("那周五呢", 4), ("周一都练些啥来着", 0),
])
def test_a_question_about_one_day_of_the_plan(text: str, weekday: int) -> None:
    m = re.search(_DAY_ASKED.pattern, text)
    assert m is not None and m.group(0) == text
    assert (_DAY_ASKED.apply({}, m, None, {}) or {}).get("day_asked") == weekday


@pytest.mark.parametrize("text", ["周六要练吗", "周三有安排吗", "礼拜天练啥"])
def test_a_question_about_a_day_frees_no_day(text: str) -> None:
    assert extract_days(text) is None


@pytest.mark.parametrize(("text", "day"), [
    ("哎呀记错了 不是昨天 是前天", "前天"),
    ("我说错了，应该是上周六", "上周六"),
    ("搞错日子了 是大前天晚上", "大前天晚上"),
    ("等等 写错了 不是周二是周三", "周三"),
    ("刚才记错啦，其实是前天早上", "前天早上"),
])
def test_a_slip_owned_then_the_right_day(text: str, day: str) -> None:
    assert is_correction(text)
    fragment = follow_up_fragment(text)
    assert fragment is not None
    assert (corrected_log({"activity": "瑜伽", "minutes": 30.0, "day": "昨天"}, fragment) or {}).get("day") == day


@pytest.mark.parametrize(("text", "days"), [
    ("周末两天都去爬山了 每天三个钟头", ["周六", "周日"]),
    ("上周末两天各跑了5公里", ["上周六", "上周日"]),
    ("这周末两天都游了半小时", ["这周六", "这周日"]),
])
def test_both_days_of_a_weekend(text: str, days: list[str]) -> None:
    assert [e.get("day") for e in extract_entries(text) or []] == days


@pytest.mark.parametrize(("text", "activity"), [
    ("刚游完 1500米", "游泳"), ("打了场乒乓", "乒乓球"), ("下午去打羽球了", "羽毛球"), ("琴日去游水", "游泳"),
    ("骑完车回来了", "骑车"),
])
def test_an_activity_however_it_is_called(text: str, activity: str) -> None:
    assert find_activity(text) == activity


@pytest.mark.parametrize(("text", "days"), [
    ("昨天跑了五公里前天游了一千米", ["昨天", "前天"]),
    ("周一快走四十分钟周三跳绳十分钟", ["周一", "周三"]),
    ("我今天早上呢去跑了一圈大概五公里吧然后晚上又去游了会泳大概半个小时", ["今天早上", "今天晚上"]),
])
def test_a_run_on_names_the_next_workout_by_its_day(text: str, days: list[str]) -> None:
    assert [e.get("day") for e in extract_entries(text) or []] == days


def _route(text: str) -> str | None:
    found = RuleRouter(rules_from(SkillRegistry(all_skills()).triggers())).classify(text)
    return found[0] if found else None


@pytest.mark.parametrize(("text", "intent"), [
    ("今天撸铁1h", "exercise.log"), ("早上跑了5k 用时28min", "exercise.log"), ("爬山两个小时", "exercise.log"),
    ("刚游完 1500米", "exercise.log"), ("昨天踢了两个钟波", "exercise.log"), ("明天想爬山两个小时", None),
    ("这周骑了多远", "exercise.history"), ("上周三到现在练了几回", "exercise.history"),
    ("每周练三次 每次四十分钟 帮我排个计划", "exercise.plan"),
])
def test_workouts_said_as_people_type_them_route(text: str, intent: str | None) -> None:
    assert _route(text) == intent


@pytest.mark.parametrize(("text", "fragment"), [
    ("刚才秤没校准 应该是六十三点五", "六十三点五"), ("表没按停，其实是三十五分钟", "三十五分钟"),
    ("数错圈了 应该是一千米", "一千米"), ("量的时候穿着鞋 其实是一米七三", "一米七三"),
])
def test_a_reason_then_what_is_right(text: str, fragment: str) -> None:
    assert is_correction(text) and follow_up_fragment(text) == fragment


@pytest.mark.parametrize("text", ["我都七十多岁了", "给老人家排个锻炼计划", "上了年纪 跑不动", "我岁数大了 帮我安排运动"])
def test_an_older_body_rules_out_impact(text: str) -> None:
    assert "年纪" in (extract_avoid(text) or [])
    week = weekly_plan(None, None, None, avoid=["年纪"])
    assert not {"跑步", "跳绳", "HIIT"} & {d.activity for d in week.days}


@pytest.mark.parametrize("text", ["对 就是前天", "没错 昨天晚上的", "是滴 上周六那天", "嗯嗯 今天早上", "对的 就周三"])
def test_a_yes_may_repeat_the_day(text: str) -> None:
    assert yes_no(text) is True


@pytest.mark.parametrize("text", ["不是 是前天", "不对 昨天晚上", "对 改成5公里"])
def test_a_yes_with_other_words_is_no_bare_yes(text: str) -> None:
    assert yes_no(text) is not True


_PLAN_ADDS = next(m for m in next(a for a in SPEC.actions if a.name == "plan").follow.modifiers if m.name == "add an activity")


@pytest.mark.parametrize("text", ["能再加点力量训练不", "加些撸铁的", "多安排点力量", "想练练肌肉", "再添一次力量训练"])
def test_strength_added_to_a_shown_plan(text: str) -> None:
    m = re.search(_PLAN_ADDS.pattern, text)
    assert m is not None
    assert "力量训练" in (_PLAN_ADDS.apply({}, m, None, {}) or {}).get("add", [])


@pytest.mark.parametrize(("recorded", "asked", "same"), [
    ("快走", "走路", True), ("散步", "走路", True), ("走路", "快走", False), ("慢跑", "跑步", True), ("跑步", "快走", False),
])
def test_walking_asked_plainly_covers_its_kinds(recorded: str, asked: str, same: bool) -> None:
    assert same_activity(recorded, asked) is same


@pytest.mark.parametrize(("text", "intent"), [
    ("我这个月有没有做运动", "exercise.history"), ("昨天做了什么运动", "exercise.history"),
    ("上周都练了些啥", "exercise.history"), ("这周有没有去跑步", "exercise.history"), ("帮我做个运动计划", "exercise.plan"),
])
def test_whether_or_what_of_a_period_is_a_history(text: str, intent: str) -> None:
    assert _route(text) == intent


def test_what_was_done_in_a_period_keeps_the_period() -> None:
    assert extract_period("上周都练了些啥") == "上周"
