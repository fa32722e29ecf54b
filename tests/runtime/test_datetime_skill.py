"""datetime.query with a fixed clock: the answers, the honest "no data yet" case, and the engine path."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.compose import core
from bot.script import ScriptRunner
from bot.settings import Settings
from runtime.clock import SettableClock
from skills.datetime import BeyondCalendar, day_kind, last_year_known
from skills.datetime.skill import answer, resolve_day

TZ = ZoneInfo("Asia/Shanghai")
WED = datetime(2026, 12, 2, 18, 30, tzinfo=TZ)  # Wednesday 2 December 2026
LATE_NOV = datetime(2026, 11, 30, 9, 0, tzinfo=TZ)


@pytest.mark.parametrize(("question", "expected"), [
    ("今天几号", "今天是2026年12月2日（星期三）。"),
    ("现在几点", "现在是18:30，2026年12月2日（星期三）。"),
    ("几点了", "现在是18:30，2026年12月2日（星期三）。"),
    ("今天星期几", "今天是星期三（12月2日）。"),
    ("下周一是几号", "下周一是12月7日（星期一）。"),
    ("明天几号", "明天是12月3日（星期四）。"),
    ("下下周三是几号", "下下周三是12月16日（星期三）。"),
    ("上周五是几号", "上周五是11月27日（星期五）。"),
    ("今天是工作日吗", "今天是12月2日（星期三），是工作日，要上班。"),
    ("周六要上班吗", "周六是12月5日（星期六），是周末，休息。"),
    ("12月31日是工作日吗", "12月31日（星期四），是工作日，要上班。"),
    ("二十一号上班吗", "21号是12月21日（星期一），是工作日，要上班。"),
    ("今年是哪年", "今年是2026年。"),
])
def test_answers_on_a_fixed_clock(question: str, expected: str) -> None:
    assert answer(question, WED) == expected


def test_time_is_read_in_the_users_timezone() -> None:
    utc_late = datetime(2026, 12, 2, 17, 30, tzinfo=ZoneInfo("UTC"))  # 01:30 on the 3rd in Shanghai
    assert answer("今天几号", utc_late.astimezone(TZ)) == "今天是2026年12月3日（星期四）。"


def test_new_year_beyond_the_calendar_data_is_answered_honestly() -> None:
    assert last_year_known() == 2026  # if chinese-calendar ships 2027 data, move the dates below on
    reply = answer("元旦放假吗", LATE_NOV)
    assert "2027年" in reply and "还没有" in reply and "2026年" in reply
    assert "1月1日" in reply
    with pytest.raises(BeyondCalendar):
        day_kind(datetime(2027, 1, 4).date())


def test_workday_question_beyond_the_data_does_not_fail() -> None:
    late_dec = datetime(2026, 12, 30, 9, 0, tzinfo=TZ)
    assert "还没有" in answer("下周一是工作日吗", late_dec)
    assert "元旦" in answer("1号放假吗", late_dec)


@pytest.mark.parametrize(("question", "now", "expected"), [
    ("国庆放假吗", datetime(2026, 9, 1, 9, 0, tzinfo=TZ), "国庆放假：10月1日（星期四）到10月7日（星期三），共7天。"),
    ("春节什么时候放假", datetime(2026, 1, 10, 9, 0, tzinfo=TZ),
     "春节放假：2月15日（星期日）到2月23日（星期一），共9天。"),
    ("五一放假吗", datetime(2026, 4, 20, 9, 0, tzinfo=TZ), "劳动节放假：5月1日（星期五）到5月5日（星期二），共5天。"),
])
def test_known_2026_holidays(question: str, now: datetime, expected: str) -> None:
    assert answer(question, now) == expected


def test_makeup_workday_and_holiday_kinds() -> None:
    assert answer("今天上班吗", datetime(2026, 10, 10, 9, 0, tzinfo=TZ)) == \
        "今天是10月10日（星期六），是调休上班日，要上班。"
    assert answer("今天放假吗", datetime(2026, 10, 2, 9, 0, tzinfo=TZ)) == \
        "今天是10月2日（星期五），是法定节假日（国庆节），放假。"


@pytest.mark.parametrize(("text", "expected"), [
    ("下周一", (2026, 12, 7)), ("这周五", (2026, 12, 4)), ("周一", (2026, 12, 7)), ("星期天", (2026, 12, 6)),
    ("12月24日", (2026, 12, 24)), ("1月3日", (2027, 1, 3)), ("3号", (2026, 12, 3)), ("1号", (2027, 1, 1)),
    ("下个月5号", (2027, 1, 5)), ("后天", (2026, 12, 4)), ("大后天", (2026, 12, 5)), ("随便", None),
    ("2月30日", None),
])
def test_resolve_day(text: str, expected: tuple[int, int, int] | None) -> None:
    day = resolve_day(text, WED.date())
    assert (None if day is None else (day.year, day.month, day.day)) == expected


def test_eleventh_of_a_month_is_not_national_day() -> None:
    assert "国庆" not in answer("十一月一号放假吗", WED)
    assert "国庆" in answer("十一放假吗", WED)


# -- through the engine, the same code path as `wxbot chat --script` ---------------------------------

@pytest.fixture(scope="module")
def runner(tmp_path_factory: pytest.TempPathFactory) -> ScriptRunner:
    directory: Path = tmp_path_factory.mktemp("dt")
    settings = Settings(data_dir=directory, intent_model=False, weather_fake=True)
    runtime = core(settings)
    return ScriptRunner(runtime.engine, SettableClock(WED))


@pytest.mark.parametrize(("text", "reply"), [
    ("今天几号", "今天是2026年12月2日（星期三）。"),
    ("现在几点", "现在是18:30，2026年12月2日（星期三）。"),
    ("今天星期几", "今天是星期三（12月2日）。"),
    ("下周一是几号", "下周一是12月7日（星期一）。"),
    ("今天是工作日吗", "今天是12月2日（星期三），是工作日，要上班。"),
])
def test_engine_answers_datetime_by_rules_without_a_model(runner: ScriptRunner, text: str, reply: str) -> None:
    out = runner.run_line(json.dumps({"user": "dt-user", "text": text, "at": WED.isoformat()}))
    assert out["stage"] == "rules" and out["intent"] == "datetime.query" and out["skill"] == "datetime"
    assert out["llm_calls"] == 0 and out["prompt_tokens"] == 0
    assert out["replies"] == [reply]
    assert out["state"] == {"active_skill": None, "expected_field": None, "paused": [],
                            "pending_confirmation": None}


def test_engine_new_year_beyond_data(runner: ScriptRunner) -> None:
    clock_runner = ScriptRunner(runner.engine, SettableClock(LATE_NOV))
    out = clock_runner.run_line(json.dumps({"user": "dt-2", "text": "元旦放假吗"}))
    assert out["stage"] == "rules" and out["intent"] == "datetime.query" and out["llm_calls"] == 0
    assert "2027年" in out["replies"][0] and "还没有" in out["replies"][0]


# --- calendar questions (issue 16): the fact asked, checked against lunar-python and chinese-calendar ---

from datetime import date, timedelta  # noqa: E402

from lunar_python import Lunar, Solar  # noqa: E402

from runtime.parsers import festivals  # noqa: E402
from skills.datetime.followup import follow_up_params, follow_up_question  # noqa: E402

DEC_1 = datetime(2026, 12, 1, 10, 0, tzinfo=TZ)   # Tuesday; lunar 丙午 year, tenth month, day 23
JAN_1 = datetime(2026, 1, 1, 8, 0, tzinfo=TZ)


def _library_day(festival: festivals.Festival, year: int) -> date:
    """The festival's day in Gregorian ``year``, computed with lunar-python directly (not our wrapper)."""
    if festival.rule is festivals.Rule.FIXED:
        return date(year, festival.month, festival.day)
    if festival.rule is festivals.Rule.NTH:
        days = [date(year, festival.month, d) for d in range(1, 29) if date(year, festival.month, d).weekday()
                == festival.weekday]
        return days[festival.nth - 1]
    if festival.rule is festivals.Rule.TERM:
        for lunar_year in (year, year + 1):
            for name, solar in Lunar.fromYmd(lunar_year, 1, 1).getJieQiTable().items():
                if solar.getYear() == year and festival.term in (name, {"DONG_ZHI": "冬至", "XIAO_HAN": "小寒",
                                                                       "DA_HAN": "大寒", "DA_XUE": "大雪"}.get(name)):
                    return date(year, solar.getMonth(), solar.getDay())
        raise AssertionError(festival.name)
    for lunar_year in (year - 1, year):
        day = festival.day
        if day == -1:
            day = Lunar.fromYmd(lunar_year, festival.month, 1).getMonth() and \
                __import__("lunar_python").LunarMonth.fromYm(lunar_year, festival.month).getDayCount()
        solar = Lunar.fromYmd(lunar_year, festival.month, day).getSolar()
        if solar.getYear() == year:
            return date(year, solar.getMonth(), solar.getDay())
    raise AssertionError(festival.name)


@pytest.mark.parametrize("festival", festivals.FESTIVALS, ids=lambda f: f.name)
def test_every_festival_date_2026_to_2030_matches_the_library(festival: festivals.Festival) -> None:
    for year in range(2026, 2031):
        expected = _library_day(festival, year)
        reply = answer(f"{year}年{festival.name}是几号", JAN_1)
        assert f"{expected.year}年{expected.month}月{expected.day}日" in reply, (year, reply)
        weekday = answer(f"{year}年{festival.name}是星期几", JAN_1)
        assert f"星期{'一二三四五六日'[expected.weekday()]}" in weekday


@pytest.mark.parametrize(("question", "pieces"), [
    ("离国庆还有几天", ["2027年10月1日", "还有304天"]),
    ("离春节还有多少天", ["2027年2月6日", "还有67天"]),
    ("还有几天过年", ["还有67天"]),
    ("距离元旦还有几天", ["还有31天"]),
    ("离周末还有几天", ["12月5日", "还有4天"]),
    ("中秋节是星期几", ["2027年9月15日", "星期三"]),
    ("圣诞节是星期几", ["2026年12月25日", "星期五"]),
    ("春节是几号", ["2027年2月6日", "正月初一", "还没公布"]),
    ("今年中秋是几号", ["2026年9月25日", "已经过去", "2027年9月15日"]),
    ("除夕是几号", ["2027年2月5日", "腊月廿九"]),
    ("母亲节是几号", ["2027年5月9日"]),
    ("今天是农历什么日子", ["农历", "十月廿三", "丙午"]),
    ("今天农历几号", ["十月廿三"]),
    ("农历八月十五是几号", ["2027年9月15日"]),
    ("冬至是哪天", ["2026年12月22日"]),
    ("下一个节气是什么", ["大雪", "2026年12月7日"]),
    ("国庆放几天假", ["还没公布", "2026年国庆节放了7天"]),
    ("2026年国庆放几天假", ["放假7天", "10月1日", "10月7日"]),
    ("今天是第几周", ["第49周"]),
    ("这个月有几个周末", ["4个周末", "5–6日"]),
    ("100天后是几号", ["2027年3月11日"]),
    ("伦敦现在几点", ["02:00", "晚8小时"]),
    ("纽约现在几点", ["11月30日", "21:00", "晚13小时"]),
    ("东京时间", ["11:00", "早1小时"]),
])
def test_calendar_questions_get_the_fact_asked(question: str, pieces: list[str]) -> None:
    reply = answer(question, DEC_1)
    for piece in pieces:
        assert piece in reply, (question, reply)


def test_a_lunar_leap_month_day() -> None:
    reply = answer("今天农历几号", datetime(2025, 8, 1, 9, 0, tzinfo=TZ))
    lunar = Solar.fromYmd(2025, 8, 1).getLunar()
    assert lunar.getMonth() < 0  # a day of 闰六月
    assert "闰六月初八" in reply


def test_london_in_summer_time() -> None:
    assert "比这里晚7小时" in answer("伦敦现在几点", datetime(2027, 7, 1, 15, 0, tzinfo=TZ))


@pytest.mark.parametrize(("previous", "fragment", "rewritten"), [
    ("下周二是几号", "那周四呢", "下周四是几号"),
    ("离春节还有几天", "那国庆呢", "离国庆还有几天"),
    ("伦敦现在几点", "那纽约呢", "纽约现在几点"),
    ("今天几号", "明天呢", "明天几号"),
    ("中秋节是星期几", "那端午呢", "端午是星期几"),
    ("离春节还有几天", "那纽约呢", None),
    ("今天几号", "好的谢谢", None),
    ("现在几点", "那周四呢", None),
])
def test_follow_up_question(previous: str, fragment: str, rewritten: str | None) -> None:
    assert follow_up_question(previous, fragment) == rewritten


def test_follow_up_answers_the_new_day() -> None:
    params = follow_up_params({"question": "下周二是几号"}, "那周四呢")
    assert params is not None
    assert "12月10日" in answer(str(params["question"]), DEC_1)
    assert (date(2026, 12, 10) - timedelta(days=2)).weekday() == 1
