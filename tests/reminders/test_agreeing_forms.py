"""Agreeing forms are one fact, disagreeing ones are asked about with both readings, and a festival's food
or custom is content (DESIGN §3.4). Calendar facts come from lunar-python and chinese-calendar here, not
from the parser under test."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import chinese_calendar
import pytest
from lunar_python import Lunar, Solar

from runtime.parsers import festivals
from runtime.parsers.timephrase import parse_time_phrase
from skills.reminders import check_when, extract_content
from tests.reminders.conftest import TZ

NOW = datetime(2026, 1, 5, 10, 0, tzinfo=TZ)  # a Monday; chinese-calendar knows 2026
WEEKDAYS = "一二三四五六日"
LUNAR_FESTIVALS = [f for f in festivals.FESTIVALS if f.rule is festivals.Rule.LUNAR]


def _solar(lunar_year: int, month: int, day: int) -> date:
    if day < 0:  # the lunar year's last day (除夕)
        return _solar(lunar_year + 1, 1, 1) - timedelta(days=1)
    s = Lunar.fromYmd(lunar_year, month, day).getSolar()
    return date(s.getYear(), s.getMonth(), s.getDay())


def _next(festival: festivals.Festival) -> date:
    """The festival's next day after NOW, by lunar-python alone."""
    return min(d for y in (2025, 2026) if (d := _solar(y, festival.month, festival.day)) > NOW.date())


def _md(day: date) -> str:
    return f"{day.month}月{day.day}日"


@pytest.mark.parametrize("festival", LUNAR_FESTIVALS, ids=lambda f: f.name)
def test_a_date_and_its_lunar_festival_are_one_day(festival: festivals.Festival) -> None:
    day = _next(festival)
    expr = parse_time_phrase(f"{_md(day)}{festival.name}晚上提醒我回家看看", NOW)
    assert expr is not None and expr.at.date() == day and expr.at.hour == 20
    assert not expr.unexplained and not expr.readings
    assert check_when(expr.to_param()) is None


@pytest.mark.parametrize("festival", LUNAR_FESTIVALS, ids=lambda f: f.name)
def test_a_date_a_day_off_its_festival_is_asked_with_both_readings(festival: festivals.Festival) -> None:
    day = _next(festival)
    wrong = day + timedelta(days=1)
    expr = parse_time_phrase(f"{_md(wrong)}{festival.name}提醒我回家看看", NOW)
    assert expr is not None
    assert dict(expr.readings) == {_md(wrong): wrong, festival.name: day}
    question = check_when(expr.to_param())
    assert question is not None
    assert f"「{_md(wrong)}」是周{WEEKDAYS[wrong.weekday()]}" in question
    assert f"「{festival.name}」是{_md(day)}（周{WEEKDAYS[day.weekday()]}）" in question


@pytest.mark.parametrize("holiday", ["National Day", "Labour Day"])
def test_a_date_and_its_public_holiday_are_one_day(holiday: str) -> None:
    festival = next(f for f in festivals.FESTIVALS if f.statutory == holiday)
    day = date(2026, festival.month, festival.day)
    assert chinese_calendar.get_holiday_detail(day) == (True, holiday)
    expr = parse_time_phrase(f"{_md(day)}{festival.name}上午10点提醒我挂国旗", NOW)
    assert expr is not None and expr.at == datetime(2026, day.month, day.day, 10, tzinfo=TZ)
    assert not expr.unexplained


@pytest.mark.parametrize("offset", range(0, 35, 3))
def test_lunar_and_gregorian_of_one_day_agree(offset: int) -> None:
    day = NOW.date() + timedelta(days=offset + 1)
    lunar = Solar.fromYmd(day.year, day.month, day.day).getLunar()
    if lunar.getMonth() < 0:
        return  # a leap month: said as 闰…, not part of this check
    said = f"农历{lunar.getMonthInChinese()}月{lunar.getDayInChinese()}"
    for text in (f"{said}（{_md(day)}）提醒我去寺里上香", f"公历{_md(day)}也就是{said}提醒我去寺里上香"):
        expr = parse_time_phrase(text, NOW)
        assert expr is not None and expr.at.date() == day, text
        assert not expr.unexplained and check_when(expr.to_param()) is None, text
        assert extract_content(text) == "去寺里上香", text


@pytest.mark.parametrize("offset", range(1, 15))
def test_a_weekday_and_the_date_it_names_agree(offset: int) -> None:
    day = NOW.date() + timedelta(days=offset)
    weekday = f"周{WEEKDAYS[day.weekday()]}"
    for text in (f"{_md(day)}{weekday}晚上7点提醒我部门聚餐", f"{weekday}（{_md(day)}）晚上7点提醒我部门聚餐"):
        expr = parse_time_phrase(text, NOW)
        assert expr is not None and expr.at == datetime.combine(day, datetime.min.time(), TZ).replace(hour=19)
        assert not expr.unexplained, text
        assert extract_content(text) == "部门聚餐", text


@pytest.mark.parametrize("offset", range(1, 15))
def test_a_weekday_that_is_not_the_date_shows_both(offset: int) -> None:
    day = NOW.date() + timedelta(days=offset)
    other = day + timedelta(days=1 if day.weekday() < 6 else -1)  # the same week, a day off
    expr = parse_time_phrase(f"{_md(day)}周{WEEKDAYS[other.weekday()]}提醒我交房租", NOW)
    assert expr is not None
    assert [d for _, d in expr.readings] == [day, other]
    question = check_when(expr.to_param())
    assert question is not None and f"回我「{_md(day)}」或「{_md(other)}」" in question


def test_the_answer_keeps_what_both_readings_share() -> None:
    mid_autumn = _next(next(f for f in LUNAR_FESTIVALS if f.name == "中秋节"))
    expr = parse_time_phrase(f"{_md(mid_autumn + timedelta(days=1))}中秋节晚上8点提醒我赏月", NOW)
    assert expr is not None and expr.shared == "晚上8点"
    answer = parse_time_phrase(f"{expr.shared} 中秋节", NOW)
    assert answer is not None and answer.at == datetime.combine(mid_autumn, datetime.min.time(), TZ).replace(hour=20)


def test_days_said_apart_are_not_two_readings_of_one() -> None:
    expr = parse_time_phrase("明天提醒我周五要交报告", NOW)
    assert expr is not None and expr.unexplained == ("周五",) and not expr.readings


# -- a festival's food or custom is content -------------------------------------------------------
THINGS = [(f, thing) for f in festivals.FESTIVALS for thing in f.things]
CUSTOMS = [(f, custom) for f in festivals.FESTIVALS for custom in f.customs]


def _festival_day(festival: festivals.Festival) -> date:
    return next(festivals.occurrences(festival, NOW.date() + timedelta(days=1)))


@pytest.mark.parametrize(("festival", "thing"), THINGS, ids=[f"{f.name}-{t}" for f, t in THINGS])
def test_a_festival_thing_in_the_content_is_content(festival: festivals.Festival, thing: str) -> None:
    for text, content in ((f"{festival.name}晚上提醒我买{thing}", f"买{thing}"),
                          (f"明天提醒我去超市买{festival.words[-1]}{thing}", f"去超市买{festival.words[-1]}{thing}")):
        expr = parse_time_phrase(text, NOW)
        assert expr is not None and not expr.unexplained, text
        assert extract_content(text) == content, text
    expr = parse_time_phrase(f"{festival.name}晚上提醒我买{thing}", NOW)
    assert expr is not None and expr.at.date() == _festival_day(festival)


@pytest.mark.parametrize(("festival", "custom"), CUSTOMS, ids=[f"{f.name}-{c}" for f, c in CUSTOMS])
def test_a_festival_custom_in_the_content_is_content(festival: festivals.Festival, custom: str) -> None:
    text = f"{festival.name}下午提醒我{custom}"
    expr = parse_time_phrase(text, NOW)
    assert expr is not None and not expr.unexplained and expr.at.date() == _festival_day(festival)
    assert extract_content(text) == custom


@pytest.mark.parametrize(("text", "content"), [
    ("正月十五晚上提醒我煮几个元宵", "煮几个元宵"), ("明天提醒我吃元宵", "吃元宵"), ("元宵节那天提醒我给爸妈买元宵", "给爸妈买元宵"),
    ("腊八早上提醒我熬腊八粥", "熬腊八粥"), ("下周六提醒我订中秋月饼", "订中秋月饼"),
])
def test_a_festival_word_that_names_a_food_is_no_second_time(text: str, content: str) -> None:
    expr = parse_time_phrase(text, NOW)
    assert expr is not None and not expr.unexplained and not expr.readings
    assert extract_content(text) == content


def test_a_festival_alone_still_says_when() -> None:
    expr = parse_time_phrase("元宵提醒我去看灯", NOW)
    lantern = _festival_day(festivals.WORDS["元宵节"])
    assert expr is not None and expr.at.date() == lantern and expr.said == "元宵"
