"""Calendar phrases in reminders: festivals, lunar dates, solar terms, offsets, month ends, ranges, repeats.

Clocks spread over several years, a lunar leap month (2025 闰六月, 2028 闰五月) and festivals that
have already passed this year. Expected lunar days come from lunar-python itself (not our wrapper).
"""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from lunar_python import Lunar

from runtime.parsers.recurrence import next_occurrence
from runtime.parsers.timephrase import describe_rrule, parse_time_phrase, time_spans

TZ = ZoneInfo("Asia/Shanghai")
DEC_2026 = datetime(2026, 12, 1, 10, 0, tzinfo=TZ)     # Tuesday; 中秋, 端午, 国庆 of 2026 have passed
JUL_2025 = datetime(2025, 7, 1, 10, 0, tzinfo=TZ)      # lunar 2025 has a leap sixth month
MAY_2028 = datetime(2028, 5, 1, 10, 0, tzinfo=TZ)      # lunar 2028 has a leap fifth month
FEB_2029 = datetime(2029, 2, 1, 10, 0, tzinfo=TZ)
SEP_2030 = datetime(2030, 9, 20, 21, 0, tzinfo=TZ)


def lunar(year: int, month: int, day: int) -> date:
    """The Gregorian day of a lunar date, straight from lunar-python (month < 0: leap month)."""
    solar = Lunar.fromYmd(year, month, day).getSolar()
    return date(solar.getYear(), solar.getMonth(), solar.getDay())


def at(d: date, hour: int, minute: int = 0) -> datetime:
    return datetime(d.year, d.month, d.day, hour, minute, tzinfo=TZ)


CASES: list[tuple[str, datetime, datetime]] = [
    # the examples of the issue, said on 2026-12-01 10:00
    ("国庆前两天下午3点提醒我抢票", DEC_2026, at(date(2027, 9, 29), 15)),
    ("元旦晚上7点提醒我看跨年晚会", DEC_2026, at(date(2027, 1, 1), 19)),
    ("腊月二十三晚上提醒我祭灶", DEC_2026, at(lunar(2026, 12, 23), 20)),
    ("圣诞节晚上8点提醒我拆礼物", DEC_2026, at(date(2026, 12, 25), 20)),
    ("端午节早上提醒我包粽子", DEC_2026, at(lunar(2027, 5, 5), 8)),
    # Gregorian festivals, floating ones, parts of day after a named day
    ("平安夜晚上提醒我送苹果", DEC_2026, at(date(2026, 12, 24), 20)),
    ("情人节提醒我订花", DEC_2026, at(date(2027, 2, 14), 9)),
    ("妇女节提醒我", DEC_2026, at(date(2027, 3, 8), 9)),
    ("劳动节提醒我", DEC_2026, at(date(2027, 5, 1), 9)),
    ("五一提醒我出去玩", DEC_2026, at(date(2027, 5, 1), 9)),
    ("儿童节提醒我买玩具", DEC_2026, at(date(2027, 6, 1), 9)),
    ("母亲节提醒我给妈妈打电话", DEC_2026, at(date(2027, 5, 9), 9)),
    ("父亲节早上9点提醒我", DEC_2026, at(date(2027, 6, 20), 9)),
    ("感恩节提醒我", DEC_2026, at(date(2027, 11, 25), 9)),
    ("感恩节提醒我", MAY_2028, at(date(2028, 11, 23), 9)),
    # lunar festivals and dates (中秋 2026 has passed: next year's)
    ("春节提醒我给爸妈拜年", DEC_2026, at(lunar(2027, 1, 1), 9)),
    ("大年初一提醒我", DEC_2026, at(lunar(2027, 1, 1), 9)),
    ("除夕晚上8点提醒我看春晚", DEC_2026, at(lunar(2026, 12, 29), 20)),
    ("元宵节提醒我吃汤圆", DEC_2026, at(lunar(2027, 1, 15), 9)),
    ("正月十五提醒我吃汤圆", DEC_2026, at(lunar(2027, 1, 15), 9)),
    ("七夕提醒我", DEC_2026, at(lunar(2027, 7, 7), 9)),
    ("中秋节提醒我回家", DEC_2026, at(lunar(2027, 8, 15), 9)),
    ("农历八月十五提醒我", DEC_2026, at(lunar(2027, 8, 15), 9)),
    ("重阳节提醒我看爷爷", DEC_2026, at(lunar(2027, 9, 9), 9)),
    ("腊八提醒我煮粥", DEC_2026, at(lunar(2026, 12, 8), 9)),
    ("小年提醒我", DEC_2026, at(lunar(2026, 12, 23), 9)),
    ("正月初八早上提醒我上班", DEC_2026, at(lunar(2027, 1, 8), 8)),
    ("大年初二提醒我回娘家", DEC_2026, at(lunar(2027, 1, 2), 9)),
    ("中秋节晚上提醒我赏月", SEP_2030, at(lunar(2031, 8, 15), 20)),   # 2030's has just passed
    ("除夕提醒我贴春联", FEB_2029, at(lunar(2028, 12, 29), 9)),
    ("端午节提醒我", MAY_2028, at(lunar(2028, 5, 5), 9)),
    # the leap month: 闰六月 in 2025, 闰五月 in 2028; a plain month means the regular one
    ("闰六月初三提醒我", JUL_2025, at(lunar(2025, -6, 3), 9)),
    ("农历六月十五提醒我", JUL_2025, at(lunar(2025, 6, 15), 9)),   # the regular month, not the leap one
    ("闰五月初五提醒我", MAY_2028, at(lunar(2028, -5, 5), 9)),
    ("农历五月初五提醒我", MAY_2028, at(lunar(2028, 5, 5), 9)),
    # solar terms
    ("冬至提醒我吃饺子", DEC_2026, at(date(2026, 12, 22), 9)),
    ("清明节前一天提醒我买花", DEC_2026, at(date(2027, 4, 4), 9)),
    ("立春提醒我", DEC_2026, at(date(2027, 2, 4), 9)),
    # offsets from a named day
    ("春节前一天提醒我买年货", DEC_2026, at(lunar(2027, 1, 1), 9).replace(day=lunar(2027, 1, 1).day - 1)),
    ("七夕前三天提醒我买礼物", DEC_2026, at(date(2027, 8, 5), 9)),
    ("元旦后两天提醒我", DEC_2026, at(date(2027, 1, 3), 9)),
    ("元旦后两天提醒我", datetime(2027, 1, 2, 8, 0, tzinfo=TZ), at(date(2027, 1, 3), 9)),
    ("中秋节当天晚上提醒我", DEC_2026, at(lunar(2027, 8, 15), 20)),
    ("圣诞节前一晚提醒我", DEC_2026, at(date(2026, 12, 24), 20)),
    ("12月24日前一天提醒我", DEC_2026, at(date(2026, 12, 23), 9)),
    # month and year ends, half a month, next weekend
    ("月底提醒我交房租", DEC_2026, at(date(2026, 12, 31), 9)),
    ("月底最后一天提醒我交报告", DEC_2026, at(date(2026, 12, 31), 9)),
    ("母亲节前一天晚上提醒我买花", DEC_2026, at(date(2027, 5, 8), 20)),
    ("清明前一周提醒我订票", DEC_2026, at(date(2027, 3, 29), 9)),
    ("月初提醒我交房租", DEC_2026, at(date(2027, 1, 1), 9)),
    ("月中提醒我", DEC_2026, at(date(2026, 12, 15), 9)),
    ("下个月最后一天提醒我还信用卡", DEC_2026, at(date(2027, 1, 31), 9)),
    ("下个月底提醒我", DEC_2026, at(date(2027, 1, 31), 9)),
    ("本月15号提醒我", DEC_2026, at(date(2026, 12, 15), 9)),
    ("年底提醒我写总结", DEC_2026, at(date(2026, 12, 31), 9)),
    ("明年年初提醒我", DEC_2026, at(date(2027, 1, 1), 9)),
    ("半个月后提醒我复查", DEC_2026, at(date(2026, 12, 16), 9)),
    ("半年后提醒我换滤芯", DEC_2026, at(date(2027, 6, 1), 9)),
    ("下周末提醒我去爬山", DEC_2026, at(date(2026, 12, 12), 9)),
    # years said with the festival
    ("明年春节提醒我", DEC_2026, at(lunar(2027, 1, 1), 9)),
    ("2028年中秋提醒我", DEC_2026, at(lunar(2028, 8, 15), 9)),
    ("今年除夕提醒我", DEC_2026, at(lunar(2026, 12, 29), 9)),       # 今年 of a lunar festival: the lunar year
    # a date said in both halves of the sentence
    ("明天提醒我下午3点开会", DEC_2026, at(date(2026, 12, 2), 15)),
    ("明天下午3点开会，提前半小时提醒我", DEC_2026, at(date(2026, 12, 2), 14, 30)),
    ("12月24晚上8点提醒我", DEC_2026, at(date(2026, 12, 24), 20)),
    ("明天提醒我买中秋月饼", DEC_2026, at(date(2026, 12, 2), 9)),
    ("明天大雪提醒我带伞", DEC_2026, at(date(2026, 12, 2), 9)),
]


@pytest.mark.parametrize(("text", "now", "expected"), CASES, ids=[f"{c[0]}@{c[1]:%Y%m%d}" for c in CASES])
def test_calendar_phrase(text: str, now: datetime, expected: datetime) -> None:
    expr = parse_time_phrase(text, now)
    assert expr is not None, text
    assert expr.at == expected
    assert expr.unexplained == (), expr.unexplained
    assert expr.rrule is None


REPEATS: list[tuple[str, datetime, datetime, str, str]] = [
    ("下周一到周五每天早上7点提醒我跑步", DEC_2026, at(date(2026, 12, 7), 7), "FREQ=DAILY;COUNT=5",
     "12月7日到12月11日每天 07:00"),
    ("这周一到周五每天早上7点提醒我跑步", DEC_2026, at(date(2026, 12, 2), 7), "FREQ=DAILY;COUNT=3",
     "12月2日到12月4日每天 07:00"),
    ("周一到周五每天早上7点提醒我", DEC_2026, at(date(2026, 12, 2), 7), "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
     "工作日 07:00"),
    # a day range said with 从…开始/起 到, 至, ~
    ("从下周一开始到周五每天早上7点提醒我跑步", DEC_2026, at(date(2026, 12, 7), 7), "FREQ=DAILY;COUNT=5",
     "12月7日到12月11日每天 07:00"),
    ("下周二起，到周四每天晚上九点提醒我泡脚", DEC_2026, at(date(2026, 12, 8), 21), "FREQ=DAILY;COUNT=3",
     "12月8日到12月10日每天 21:00"),
    ("下周三至下周六每天中午12点提醒我午睡", DEC_2026, at(date(2026, 12, 9), 12), "FREQ=DAILY;COUNT=4",
     "12月9日到12月12日每天 12:00"),
    ("下周一~周三每天下午3点提醒我喝水", DEC_2026, at(date(2026, 12, 7), 15), "FREQ=DAILY;COUNT=3",
     "12月7日到12月9日每天 15:00"),
    ("从周一开始到周五每天早上7点提醒我", DEC_2026, at(date(2026, 12, 2), 7), "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
     "工作日 07:00"),
    ("每隔两小时提醒我喝水", DEC_2026, at(date(2026, 12, 1), 12), "FREQ=HOURLY;INTERVAL=2", "每2小时"),
    ("每天9点到18点每隔两小时提醒我喝水", DEC_2026, at(date(2026, 12, 1), 11),
     "FREQ=DAILY;BYHOUR=9,11,13,15,17;BYMINUTE=0;BYSECOND=0", "每天09:00–17:00每2小时"),
    ("早上9点到晚上9点每两个小时提醒我起来活动", DEC_2026, at(date(2026, 12, 1), 11),
     "FREQ=DAILY;BYHOUR=9,11,13,15,17,19,21;BYMINUTE=0;BYSECOND=0", "每天09:00–21:00每2小时"),
    ("工作日上午9点到下午6点每隔两小时提醒我喝水", DEC_2026, at(date(2026, 12, 1), 11),
     "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9,11,13,15,17;BYMINUTE=0;BYSECOND=0", "工作日09:00–17:00每2小时"),
    ("每半小时提醒我", DEC_2026, at(date(2026, 12, 1), 10, 30), "FREQ=MINUTELY;INTERVAL=30", "每30分钟"),
    ("每年春节提醒我给爸妈打电话", DEC_2026, at(lunar(2027, 1, 1), 9), "FREQ=YEARLY;X-LUNAR=1/1",
     "每年农历正月初一 09:00"),
    ("每年中秋晚上8点提醒我", DEC_2026, at(lunar(2027, 8, 15), 20), "FREQ=YEARLY;X-LUNAR=8/15",
     "每年农历八月十五 20:00"),
    ("每年除夕提醒我", DEC_2026, at(lunar(2026, 12, 29), 9), "FREQ=YEARLY;X-LUNAR=12/-1", "每年除夕 09:00"),
    ("每年农历八月十五提醒我", DEC_2026, at(lunar(2027, 8, 15), 9), "FREQ=YEARLY;X-LUNAR=8/15",
     "每年农历八月十五 09:00"),
    ("每月初一提醒我上香", DEC_2026, at(lunar(2026, 11, 1), 9), "FREQ=MONTHLY;X-LUNAR=*/1", "每月农历初一 09:00"),
    ("每月初一十五晚上八点提醒我烧香", DEC_2026, at(lunar(2026, 11, 1), 20), "FREQ=MONTHLY;X-LUNAR=*/1,*/15",
     "每月农历初一、十五 20:00"),
    ("每个月的初一和十五提醒我", DEC_2026, at(lunar(2026, 11, 1), 9), "FREQ=MONTHLY;X-LUNAR=*/1,*/15",
     "每月农历初一、十五 09:00"),
    ("每年冬至提醒我", DEC_2026, at(date(2026, 12, 22), 9), "FREQ=YEARLY;X-TERM=冬至", "每年冬至 09:00"),
    ("每年母亲节提醒我", DEC_2026, at(date(2027, 5, 9), 9), "FREQ=YEARLY;BYMONTH=5;BYDAY=2SU",
     "每年5月第2个周日 09:00"),
    ("每年圣诞节提醒我", DEC_2026, at(date(2026, 12, 25), 9), "FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=25",
     "每年12月25日 09:00"),
]


@pytest.mark.parametrize(("text", "now", "expected", "rule", "reading"), REPEATS, ids=[r[0] for r in REPEATS])
def test_calendar_repeat(text: str, now: datetime, expected: datetime, rule: str, reading: str) -> None:
    expr = parse_time_phrase(text, now)
    assert expr is not None and expr.unexplained == ()
    assert (expr.at, expr.rrule) == (expected, rule)
    assert describe_rrule(rule, expr.at) == reading


def test_several_lunar_days_a_month_come_in_turn() -> None:
    start = at(lunar(2026, 11, 1), 20)
    seen, after = [], start
    for _ in range(4):
        nxt = next_occurrence("FREQ=MONTHLY;X-LUNAR=*/1,*/15", start, after)
        assert nxt is not None
        seen.append(nxt)
        after = nxt
    assert seen == [at(lunar(2026, 11, 15), 20), at(lunar(2026, 12, 1), 20), at(lunar(2026, 12, 15), 20),
                    at(lunar(2027, 1, 1), 20)]


@pytest.mark.parametrize(("text", "minutes"), [
    ("10分钟计时器", 10), ("计时20分钟", 20), ("帮我设一个25分钟的倒计时", 25), ("倒计时一个半小时", 90),
    ("30秒计时", 0.5),
])
def test_timers(text: str, minutes: float) -> None:
    expr = parse_time_phrase(text, DEC_2026)
    assert expr is not None and expr.timer
    assert (expr.at - DEC_2026).total_seconds() == minutes * 60


@pytest.mark.parametrize(("text", "words"), [
    ("开斋节晚上提醒我", ("开斋节",)),
    ("明天下班后提醒我买菜", ("下班后",)),
    ("春节前提醒我买年货", ("春节前",)),
    ("明天早上7点和后天晚上8点提醒我吃药", ("后天晚上8点",)),
    ("明天年会前一天提醒我", ("前一天",)),
    ("下旬周五提醒我交报告", ("下旬",)),
    ("十二月二十三晚上提醒我", ("十二月二十三",)),
])
def test_unexplained_words_are_reported(text: str, words: tuple[str, ...]) -> None:
    expr = parse_time_phrase(text, DEC_2026)
    assert expr is not None and expr.unexplained == words


@pytest.mark.parametrize("text", ["农历十二月三十提醒我", "生日前一天提醒我", "下班后提醒我"])
def test_nothing_usable_is_no_time(text: str) -> None:
    # 腊月 of lunar 2026 has 29 days: 农历十二月三十 is not moved to a later year
    assert parse_time_phrase(text, DEC_2026) is None


def test_festival_words_that_name_the_content_stay_in_it() -> None:
    text = "明天提醒我买中秋月饼"
    assert [text[a:b] for a, b in time_spans(text)] == ["明天"]
