"""datetime.query with a fixed clock: the answers, the honest "no data yet" case, and the engine path."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.app import build_runtime
from bot.script import ScriptRunner
from bot.settings import Settings
from runtime.clock import SettableClock
from skills.datetime._calendar import BeyondCalendar, day_kind, last_year_known
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
    runtime = build_runtime(settings)
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
