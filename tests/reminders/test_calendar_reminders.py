"""Calendar reminders end to end on a controllable clock: ranges end, hourly windows, lunar years, timers,
everyday cancel phrasings, and the refusal of a time that leaves a word unexplained."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from lunar_python import Lunar

from skills.reminders import TIMER, parse_target
from tests.reminders.conftest import TZ, Driver


def t(year: int, month: int, day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=TZ)


def test_a_weekday_range_fires_those_days_only(driver: Driver) -> None:
    reply = driver.create("下周一到周五每天早上7点提醒我跑步").reply
    assert "12月7日到12月11日每天 07:00" in reply
    fired = [p for day in range(7, 14) for p in driver.advance_to(t(2026, 12, day, 7))]
    assert len(fired) == 5
    assert driver.run("list", {}).data["count"] == 0


def test_every_two_hours_within_a_window(driver: Driver) -> None:
    driver.create("每天9点到18点每隔两小时提醒我喝水")  # said at 20:00: tomorrow 09:00 first
    times = []
    moment = t(2026, 12, 2, 8)
    while moment < t(2026, 12, 3, 8):
        moment += timedelta(minutes=30)
        if driver.advance_to(moment):
            times.append(moment.hour)
    assert times == [9, 11, 13, 15, 17]


def test_every_two_hours_from_now(driver: Driver) -> None:
    assert "每2小时" in driver.create("每隔两小时提醒我起来走走").reply
    assert driver.advance(hours=1, minutes=59) == []
    assert len(driver.advance(minutes=1)) == 1
    assert len(driver.advance(hours=2)) == 1


def test_a_lunar_festival_repeats_on_the_lunar_calendar(driver: Driver) -> None:
    driver.create("每年中秋晚上8点提醒我给爸妈打电话")
    for year in (2027, 2028, 2029):
        solar = Lunar.fromYmd(year, 8, 15).getSolar()
        day = t(solar.getYear(), solar.getMonth(), solar.getDay(), 20)
        assert driver.advance_to(day - timedelta(minutes=1)) == []
        assert [p.text for p in driver.advance_to(day)] == ["⏰ 提醒：给爸妈打电话"]


def test_a_festival_reminder_fires_on_the_festival(driver: Driver) -> None:
    reply = driver.create("腊月二十三晚上提醒我祭灶").reply
    solar = Lunar.fromYmd(2026, 12, 23).getSolar()
    assert f"{solar.getMonth()}月{solar.getDay()}日" in reply and "20:00" in reply
    assert len(driver.advance_to(t(solar.getYear(), solar.getMonth(), solar.getDay(), 20))) == 1


@pytest.mark.parametrize("text", ["开斋节晚上提醒我吃饭", "明天下班后提醒我买菜", "春节前提醒我买年货",
                                  "明天早上7点和后天晚上8点提醒我吃药"])
def test_create_refuses_a_time_with_an_unexplained_word(driver: Driver, text: str) -> None:
    result = driver.create(text)
    assert result.ok is False and "「" in result.reply
    assert driver.run("list", {}).data["count"] == 0


def test_a_timer_counts_down_and_stops(driver: Driver) -> None:
    assert "开始计时10分钟" in driver.create("10分钟计时器").reply
    driver.clock.advance(timedelta(minutes=3, seconds=30))
    left = driver.run("list", {"kind": TIMER})
    assert "还剩6分30秒" in left.reply
    stopped = driver.run("cancel", {"target": parse_target("停止计时器")})
    assert stopped.reply == "计时器已停止。"
    assert driver.advance(minutes=10) == []
    assert "没有进行中的计时器" in driver.run("list", {"kind": TIMER}).reply


def test_a_timer_pushes_when_it_ends(driver: Driver) -> None:
    driver.create("计时20分钟")
    assert driver.advance(minutes=19) == []
    assert [p.text for p in driver.advance(minutes=1)] == ["⏰ 提醒：计时结束"]


@pytest.mark.parametrize(("text", "target"), [
    ("喝水那个提醒以后不要了", "喝水"), ("把去银行那个提醒取消掉", "去银行"), ("取消第2个", 2), ("取消第二个提醒", 2),
    ("第2个不要了", 2), ("以后别提醒我喝水了", "喝水"), ("不用再提醒我吃药了", "吃药"), ("取消明天开会的提醒", "开会"),
    ("喝水的提醒删了吧", "喝水"), ("取消所有提醒", "全部"), ("停止计时器", TIMER), ("取消提醒", None),
])
def test_everyday_cancel_phrasings(text: str, target: int | str | None) -> None:
    assert parse_target(text) == target


def test_cancel_by_content_picks_that_reminder(driver: Driver) -> None:
    driver.create("明天早上8点提醒我喝水")
    driver.create("后天提醒我去银行")
    result = driver.cancel("把去银行那个提醒取消掉")
    assert result.reply == "已取消提醒：去银行"
    assert "喝水" in driver.run("list", {}).reply
