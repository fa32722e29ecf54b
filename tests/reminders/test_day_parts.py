"""The clock times people mean (DESIGN §3.4), from the user's side: a part of the day said without a clock
time takes the hour of the one table (``runtime.parsers.day_parts``), the confirmation says which, and a
follow-up right after changes it. Every expectation here is read from the table, never restated."""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

from runtime.parsers.correction import corrected_time
from runtime.parsers.day_parts import DAY_CLOCK, DAY_PARTS, WORDS, DayPart, Part, clock_of
from runtime.parsers.shift import STEP_MINUTES, shift_minutes
from runtime.parsers.timephrase import parse_time_phrase
from skills.reminders import check_when
from tests.reminders.conftest import TZ, Driver

NOW = datetime(2026, 9, 1, 10, 0, tzinfo=TZ)  # a Tuesday morning
TOMORROW = NOW.date() + timedelta(days=1)
DOCS = Path(__file__).resolve().parents[2] / "docs" / "reminders.md"
# words that count only next to a clock time (早8点; 早点睡 is no time)
SAID_ALONE = [(row, word) for row in DAY_PARTS for word in row.words if len(word) > 1]


def _moment(day: date, row: DayPart) -> datetime:
    return datetime.combine(day, row.clock, tzinfo=TZ)


@pytest.mark.parametrize(("row", "word"), SAID_ALONE, ids=[w for _, w in SAID_ALONE])
def test_a_part_of_the_day_alone_takes_its_usual_hour(row: DayPart, word: str) -> None:
    expr = parse_time_phrase(f"明天{word}提醒我给阳台的花浇水", NOW)
    assert expr is not None
    assert expr.at == _moment(TOMORROW, row) and not expr.has_time
    assert (word, row.part.value) in expr.assumed
    assert check_when(expr.to_param()) is None  # taken, not asked about


@pytest.mark.parametrize("row", DAY_PARTS, ids=[r.names[0] for r in DAY_PARTS])
def test_the_confirmation_says_which_hour_it_took(driver: Driver, row: DayPart) -> None:
    word = row.names[0]
    reply = driver.create(f"后天{word}记得提醒我把快递寄出去").reply
    day = driver.now().date() + timedelta(days=2)
    assert f"{day.month}月{day.day}日" in reply and f"{row.clock:%H:%M}" in reply
    assert f"{word}没说几点，先按{row.clock:%H:%M}" in reply and "要改直接说" in reply
    assert reply.index("把快递寄出去") < reply.index("没说几点")  # the note comes after what is reminded


def test_a_day_alone_keeps_its_hour_without_a_note(driver: Driver) -> None:
    reply = driver.create("大后天提醒我续交宽带费").reply
    assert f"{DAY_CLOCK:%H:%M}" in reply and "没说几点" not in reply


def test_a_clock_time_said_needs_no_note(driver: Driver) -> None:
    reply = driver.create("明天下午四点半提醒我接孩子放学").reply
    assert "16:30" in reply and "没说几点" not in reply


def test_a_repeat_with_a_part_of_the_day_takes_its_hour_too(driver: Driver) -> None:
    evening = clock_of(WORDS["晚上"])
    reply = driver.create("每天晚上提醒我练半小时字").reply
    assert f"每天 {evening:%H:%M}" in reply and "晚上没说几点" in reply


@pytest.mark.parametrize(("said", "hour", "next_day"), [("夜里2点", 2, True), ("睡前10点半", 22, False),
                                                        ("夜里11点", 23, False), ("半夜12点", 0, True)])
def test_late_parts_of_the_day_read_a_clock_time_around_midnight(said: str, hour: int, next_day: bool) -> None:
    expr = parse_time_phrase(f"{said}提醒我看一眼烤箱", NOW)
    assert expr is not None and expr.has_time and expr.at.hour == hour and not expr.assumed
    assert expr.at.date() == NOW.date() + timedelta(days=int(next_day))


def test_bedtime_joins_the_evening_of_a_day() -> None:
    late = clock_of(Part.LATE)
    for said, day in (("今晚睡前", NOW.date()), ("明晚睡前", TOMORROW), ("每天睡前", NOW.date())):
        expr = parse_time_phrase(f"{said}提醒我吃钙片", NOW)
        assert expr is not None and (expr.at.date(), expr.at.time()) == (day, late), said
        assert not expr.unexplained


@pytest.mark.parametrize("said", ["月底", "这个月底", "月末"])
def test_month_end_is_the_last_day_and_says_so(driver: Driver, said: str) -> None:
    now = driver.now()
    last = calendar.monthrange(now.year, now.month)[1]
    reply = driver.create(f"{said}提醒我把电费交了").reply
    assert f"{now.month}月{last}日" in reply and f"{DAY_CLOCK:%H:%M}" in reply
    assert f"{said}按最后一天算" in reply


@pytest.mark.parametrize(("said", "weeks"), [("下周末", 1), ("这周末", 0), ("下下周末", 2)])
def test_a_weekend_said_with_its_week_is_its_saturday(said: str, weeks: int) -> None:
    expr = parse_time_phrase(f"{said}提醒我带狗去打疫苗", NOW)
    monday = NOW.date() - timedelta(days=NOW.weekday())
    assert expr is not None and expr.at.date() == monday + timedelta(days=7 * weeks + 5)
    assert (said, "weekend") in expr.assumed and check_when(expr.to_param()) is None


def test_the_weekend_note_names_saturday(driver: Driver) -> None:
    assert "下周末按周六算" in driver.create("下周末提醒我去看车展").reply


def test_a_bare_weekend_still_asks_which_day() -> None:
    """周末 alone may mean every weekend: which day and time is asked, quoting it."""
    expr = parse_time_phrase("周末提醒我洗床单", NOW)
    assert expr is not None
    question = check_when(expr.to_param())
    assert question is not None and "「周末」" in question


# -- a change right after -------------------------------------------------------------------------
@pytest.mark.parametrize(("said", "minutes"), [
    ("早点", STEP_MINUTES), ("晚点", -STEP_MINUTES), ("再早一点", STEP_MINUTES), ("晚一些吧", -STEP_MINUTES),
    ("晚半小时", -30), ("提前一小时", 60), ("推迟四十分钟", -40), ("往后推一个小时", -60), ("提前一天", 1440),
    ("延后两小时吧", -120), ("早15分钟", 15),
])
def test_a_shift_says_how_much_earlier(said: str, minutes: float) -> None:
    assert shift_minutes(said) == minutes


@pytest.mark.parametrize("said", ["早上8点", "晚上", "早点睡", "晚上快走了半小时", "晚饭吃了一小时", "早8点吧"])
def test_what_is_no_shift(said: str) -> None:
    assert shift_minutes(said) is None


@pytest.mark.parametrize(("first", "change", "expected"), [
    ("明天下午提醒我去银行", "改成5点", (TOMORROW, 17, 0)),          # the day stays, the half of the day nearest
    ("明天早上提醒我去银行", "改成7点", (TOMORROW, 7, 0)),
    ("明天早上提醒我去银行", "晚上8点吧", (TOMORROW, 20, 0)),        # said with its part of the day: as said
    ("明天下午提醒我去银行", "是后天", (TOMORROW + timedelta(days=1), 15, 0)),  # a new day keeps the part
])
def test_a_change_right_after_keeps_what_it_does_not_say(first: str, change: str,
                                                           expected: tuple[date, int, int]) -> None:
    old = parse_time_phrase(first, NOW)
    new = parse_time_phrase(change, NOW)
    assert old is not None and new is not None
    at = corrected_time(new, old, change).at
    assert (at.date(), at.hour, at.minute) == expected


def test_a_change_keeps_the_part_of_the_day_it_took() -> None:
    old = parse_time_phrase("明天傍晚提醒我去银行", NOW)
    new = parse_time_phrase("后天", NOW)
    assert old is not None and new is not None
    moved = corrected_time(new, old, "后天")
    assert moved.at.time() == clock_of(Part.DUSK) and moved.assumed == old.assumed


# -- the docs --------------------------------------------------------------------------------------
def _row(row: DayPart) -> str:
    also = "、".join(w for w in row.also if len(w) > 1) or "—"
    return f"| {'/'.join(row.names)} | {also} | {row.clock:%H:%M} |"


def test_the_docs_table_is_the_table() -> None:
    text = DOCS.read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if re.match(r"\| [^|]+ \| [^|]+ \| \d\d:\d\d \|$", line)]
    assert rows == [*map(_row, DAY_PARTS), f"| a day alone (明天, 周五, 12月24日, 中秋) | — | {DAY_CLOCK:%H:%M} |"]
    assert f"{STEP_MINUTES:g} minutes" in text
