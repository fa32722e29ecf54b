"""Table-driven tests of the Chinese time phrase parser on a fixed clock."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from runtime.parsers.timephrase import TimeExpr, describe_rrule, format_when, parse_time_phrase, time_spans

TZ = ZoneInfo("Asia/Shanghai")
EVENING = datetime(2026, 12, 1, 20, 0, tzinfo=TZ)   # Tuesday 20:00
MORNING = datetime(2026, 12, 1, 7, 30, tzinfo=TZ)   # Tuesday 07:30


def at(month: int, day: int, hour: int, minute: int = 0, year: int = 2026) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=TZ)


# (text, now, expected first occurrence, expected rrule, has_time, matched phrase)
CASES: list[tuple[str, datetime, datetime, str | None, bool, str]] = [
    # relative days; a date without a time means 09:00
    ("今天", MORNING, at(12, 1, 9), None, False, "今天"),
    ("明天", EVENING, at(12, 2, 9), None, False, "明天"),
    ("后天", EVENING, at(12, 3, 9), None, False, "后天"),
    ("大后天", EVENING, at(12, 4, 9), None, False, "大后天"),
    ("后天早上7点提醒我带伞", EVENING, at(12, 3, 7), None, True, "后天早上7点"),
    ("明天下午3点开会", EVENING, at(12, 2, 15), None, True, "明天下午3点"),
    ("明天 8:00", EVENING, at(12, 2, 8), None, True, "明天 8:00"),
    ("明天晚上十点", EVENING, at(12, 2, 22), None, True, "明天晚上十点"),
    ("明天凌晨3点", EVENING, at(12, 2, 3), None, True, "明天凌晨3点"),
    # weekdays, this / next week
    ("周五", EVENING, at(12, 4, 9), None, False, "周五"),
    ("星期五", EVENING, at(12, 4, 9), None, False, "星期五"),
    ("礼拜天", EVENING, at(12, 6, 9), None, False, "礼拜天"),
    ("周二", EVENING, at(12, 8, 9), None, False, "周二"),          # today's 09:00 has passed → next week
    ("周二晚上9点", EVENING, at(12, 1, 21), None, True, "周二晚上9点"),  # still ahead today
    ("这周六", EVENING, at(12, 5, 9), None, False, "这周六"),
    ("本周日", EVENING, at(12, 6, 9), None, False, "本周日"),
    ("下周三", EVENING, at(12, 9, 9), None, False, "下周三"),
    ("下个星期一上午十点", EVENING, at(12, 7, 10), None, True, "下个星期一上午十点"),
    ("下下周一", EVENING, at(12, 14, 9), None, False, "下下周一"),
    ("周四晚上9点提醒我倒垃圾", EVENING, at(12, 3, 21), None, True, "周四晚上9点"),
    ("周末", EVENING, at(12, 5, 9), None, False, "周末"),
    # month days
    ("下个月1号", EVENING, at(1, 1, 9, year=2027), None, False, "下个月1号"),
    ("下月15日", EVENING, at(1, 15, 9, year=2027), None, False, "下月15日"),
    ("12月24日", EVENING, at(12, 24, 9), None, False, "12月24日"),
    ("12月3号", EVENING, at(12, 3, 9), None, False, "12月3号"),
    ("十二月三号", EVENING, at(12, 3, 9), None, False, "十二月三号"),
    ("12月24日晚上8点", EVENING, at(12, 24, 20), None, True, "12月24日晚上8点"),
    ("3月1日", EVENING, at(3, 1, 9, year=2027), None, False, "3月1日"),   # passed this year → next
    ("2027年1月5日", EVENING, at(1, 5, 9, year=2027), None, False, "2027年1月5日"),
    ("明年1月5号", EVENING, at(1, 5, 9, year=2027), None, False, "明年1月5号"),
    ("5号", EVENING, at(12, 5, 9), None, False, "5号"),
    ("1号", EVENING, at(1, 1, 9, year=2027), None, False, "1号"),   # passed this month → next
    # parts of day and clock forms
    ("早上8点", EVENING, at(12, 2, 8), None, True, "早上8点"),
    ("早上8点", MORNING, at(12, 1, 8), None, True, "早上8点"),
    ("上午9点半", MORNING, at(12, 1, 9, 30), None, True, "上午9点半"),
    ("中午12点", MORNING, at(12, 1, 12), None, True, "中午12点"),
    ("中午1点", MORNING, at(12, 1, 13), None, True, "中午1点"),
    ("下午3点", MORNING, at(12, 1, 15), None, True, "下午3点"),
    ("下午3点45分", MORNING, at(12, 1, 15, 45), None, True, "下午3点45分"),
    ("傍晚6点", MORNING, at(12, 1, 18), None, True, "傍晚6点"),
    ("晚上8点半", EVENING, at(12, 1, 20, 30), None, True, "晚上8点半"),
    ("晚上12点", EVENING, at(12, 2, 0), None, True, "晚上12点"),
    ("今晚9点", EVENING, at(12, 1, 21), None, True, "今晚9点"),
    ("今晚", MORNING, at(12, 1, 20), None, False, "今晚"),
    ("明早7点", EVENING, at(12, 2, 7), None, True, "明早7点"),
    ("明早", EVENING, at(12, 2, 8), None, False, "明早"),
    ("明晚", EVENING, at(12, 2, 20), None, False, "明晚"),
    ("凌晨3点", EVENING, at(12, 2, 3), None, True, "凌晨3点"),
    ("下午", EVENING, at(12, 2, 15), None, False, "下午"),
    ("8点", MORNING, at(12, 1, 8), None, True, "8点"),
    ("8点", EVENING, at(12, 2, 8), None, True, "8点"),          # passed → next occurrence
    ("7点", EVENING, at(12, 2, 7), None, True, "7点"),
    ("9点", EVENING, at(12, 1, 21), None, True, "9点"),         # 1-11 without 上午/下午: first ahead
    ("3点", MORNING, at(12, 1, 15), None, True, "3点"),
    ("8点半", MORNING, at(12, 1, 8, 30), None, True, "8点半"),
    ("5点45", MORNING, at(12, 1, 17, 45), None, True, "5点45"),
    ("两点半", MORNING, at(12, 1, 14, 30), None, True, "两点半"),
    ("十一点", MORNING, at(12, 1, 11), None, True, "十一点"),
    ("3点一刻", MORNING, at(12, 1, 15, 15), None, True, "3点一刻"),
    ("8点零5分", MORNING, at(12, 1, 8, 5), None, True, "8点零5分"),
    ("8:30", MORNING, at(12, 1, 8, 30), None, True, "8:30"),
    ("20:00", MORNING, at(12, 1, 20), None, True, "20:00"),
    ("20：00", EVENING, at(12, 2, 20), None, True, "20：00"),     # exactly now → tomorrow
    ("7点", MORNING, at(12, 1, 19), None, True, "7点"),
    # durations
    ("10分钟后", EVENING, at(12, 1, 20, 10), None, True, "10分钟后"),
    ("十分钟以后", EVENING, at(12, 1, 20, 10), None, True, "十分钟以后"),
    ("半小时后", EVENING, at(12, 1, 20, 30), None, True, "半小时后"),
    ("半个小时之后", EVENING, at(12, 1, 20, 30), None, True, "半个小时之后"),
    ("一刻钟后", EVENING, at(12, 1, 20, 15), None, True, "一刻钟后"),
    ("一个半小时后", EVENING, at(12, 1, 21, 30), None, True, "一个半小时后"),
    ("3小时以后", EVENING, at(12, 1, 23), None, True, "3小时以后"),
    ("两个钟头后", EVENING, at(12, 1, 22), None, True, "两个钟头后"),
    ("1小时30分钟后", EVENING, at(12, 1, 21, 30), None, True, "1小时30分钟后"),
    ("10分钟后再提醒我", EVENING, at(12, 1, 20, 10), None, True, "10分钟后"),
    ("两天后", EVENING, at(12, 3, 9), None, False, "两天后"),
    ("两天后早上8点", EVENING, at(12, 3, 8), None, True, "两天后早上8点"),
    ("一周后", EVENING, at(12, 8, 9), None, False, "一周后"),
    ("一个月后", EVENING, at(1, 1, 9, year=2027), None, False, "一个月后"),
    # recurrence
    ("每天", EVENING, at(12, 2, 9), "FREQ=DAILY", False, "每天"),
    ("每天8点", EVENING, at(12, 2, 8), "FREQ=DAILY", True, "每天8点"),
    ("每天早上8点提醒我吃药", MORNING, at(12, 1, 8), "FREQ=DAILY", True, "每天早上8点"),
    ("每晚10点", MORNING, at(12, 1, 22), "FREQ=DAILY", True, "每晚10点"),
    ("每周一", EVENING, at(12, 7, 9), "FREQ=WEEKLY;BYDAY=MO", False, "每周一"),
    ("每个星期三晚上7点", EVENING, at(12, 2, 19), "FREQ=WEEKLY;BYDAY=WE", True, "每个星期三晚上7点"),
    ("每周一三五晚上7点", EVENING, at(12, 2, 19), "FREQ=WEEKLY;BYDAY=MO,WE,FR", True, "每周一三五晚上7点"),
    ("工作日", EVENING, at(12, 2, 9), "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", False, "工作日"),
    ("工作日早上8点", EVENING, at(12, 2, 8), "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", True, "工作日早上8点"),
    ("周一到周五早上7点半", EVENING, at(12, 2, 7, 30), "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", True,
     "周一到周五早上7点半"),
    ("每周末", EVENING, at(12, 5, 9), "FREQ=WEEKLY;BYDAY=SA,SU", False, "每周末"),
    ("每月1号", EVENING, at(1, 1, 9, year=2027), "FREQ=MONTHLY;BYMONTHDAY=1", False, "每月1号"),
    ("每个月15号晚上8点", EVENING, at(12, 15, 20), "FREQ=MONTHLY;BYMONTHDAY=15", True, "每个月15号晚上8点"),
    ("每月最后一天", EVENING, at(12, 31, 9), "FREQ=MONTHLY;BYMONTHDAY=-1", False, "每月最后一天"),
    ("每隔两天", EVENING, at(12, 3, 9), "FREQ=DAILY;INTERVAL=2", False, "每隔两天"),
    ("每年12月24日", EVENING, at(12, 24, 9), "FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=24", False, "每年12月24日"),
]


@pytest.mark.parametrize(("text", "now", "expected", "rrule", "has_time", "phrase"), CASES,
                         ids=[f"{c[0]}@{c[1]:%H%M}" for c in CASES])
def test_phrase(text: str, now: datetime, expected: datetime, rrule: str | None, has_time: bool,
                phrase: str) -> None:
    expr = parse_time_phrase(text, now)
    assert expr is not None
    assert expr.at == expected
    assert expr.at.utcoffset() == expected.utcoffset()
    assert expr.rrule == rrule
    assert expr.has_time is has_time
    assert text[expr.span[0]:expr.span[1]] == phrase


@pytest.mark.parametrize("text", [
    "", "你好", "提醒我买一点水果", "一点", "早点睡", "提醒我3号线换乘", "晚点再说",
    "2月30号", "25点", "8点70分", "3号楼",
])
def test_no_time(text: str) -> None:
    assert parse_time_phrase(text, EVENING) is None


def test_phrase_in_the_middle_gives_span_for_content() -> None:
    text = "提醒我明天下午3点开会"
    expr = parse_time_phrase(text, EVENING)
    assert expr is not None
    assert text[:expr.span[0]] + text[expr.span[1]:] == "提醒我开会"


def test_past_explicit_day_is_returned_as_is() -> None:
    expr = parse_time_phrase("今天早上7点", EVENING)
    assert expr is not None and expr.at == at(12, 1, 7) and expr.at < EVENING


def test_the_most_complete_phrase_wins() -> None:
    expr = parse_time_phrase("3号 后天早上7点", EVENING)
    assert expr is not None and expr.at == at(12, 3, 7)


def test_param_round_trip() -> None:
    expr = parse_time_phrase("每周一三五晚上7点", EVENING)
    assert expr is not None
    param = expr.to_param()
    assert param == {"at": "2026-12-02T19:00:00+08:00", "rrule": "FREQ=WEEKLY;BYDAY=MO,WE,FR",
                     "has_time": True, "span": [0, 9], "said": "每周一三五晚上7点", "dated": True}
    assert TimeExpr.from_param(param) == expr


def test_a_time_knows_whether_a_day_was_named() -> None:
    for said, dated in (("后天下午3点", True), ("周五", True), ("中秋晚上", True), ("下午3点", False),
                        ("8点半", False), ("中午", False)):
        expr = parse_time_phrase(said, EVENING)
        assert expr is not None and expr.dated is dated, said


def test_from_param_rejects_naive() -> None:
    with pytest.raises(ValueError):
        TimeExpr.from_param({"at": "2026-12-02T19:00:00"})


def test_naive_now_is_rejected() -> None:
    with pytest.raises(ValueError):
        parse_time_phrase("明天", datetime(2026, 12, 1, 20, 0))


def test_other_timezone_keeps_wall_clock() -> None:
    now = datetime(2026, 12, 1, 20, 0, tzinfo=ZoneInfo("Europe/Berlin"))
    expr = parse_time_phrase("明天早上7点", now)
    assert expr is not None and expr.at == datetime(2026, 12, 2, 7, 0, tzinfo=ZoneInfo("Europe/Berlin"))


def test_time_spans_lists_every_phrase() -> None:
    text = "明天早上7点和后天晚上8点"
    assert [text[a:b] for a, b in time_spans(text)] == ["明天早上7点", "后天晚上8点"]


def test_format_when() -> None:
    assert format_when(at(12, 3, 7)) == "12月3日（周四）07:00"
    assert format_when(at(1, 10, 21, 5, year=2027)) == "1月10日（周日）21:05"


@pytest.mark.parametrize(("rule", "text"), [
    ("FREQ=DAILY", "每天 08:00"),
    ("FREQ=WEEKLY;BYDAY=MO", "每周一 08:00"),
    ("FREQ=WEEKLY;BYDAY=MO,WE,FR", "每周一、三、五 08:00"),
    ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "工作日 08:00"),
    ("FREQ=MONTHLY;BYMONTHDAY=1", "每月1号 08:00"),
    ("FREQ=DAILY;INTERVAL=2", "每2天 08:00"),
])
def test_describe_rrule(rule: str, text: str) -> None:
    assert describe_rrule(rule, at(12, 2, 8)) == text
