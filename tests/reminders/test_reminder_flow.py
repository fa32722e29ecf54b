"""Reminders end to end on a controllable clock: create → due → push, recurrence, cancel, snooze."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, select

from skills.reminders.models import OccurrenceState, Reminder, ReminderOccurrence
from skills.reminders.schedule import fire_due, missed_notice
from tests.reminders.conftest import TZ, Driver


def t(month: int, day: int, hour: int, minute: int = 0, second: int = 0) -> datetime:
    return datetime(2026, month, day, hour, minute, second, tzinfo=TZ)


def test_one_off_fires_once_on_time(driver: Driver) -> None:
    result = driver.create("后天早上7点提醒我带伞")
    assert result.reply == "好的，12月3日（周四）07:00 提醒你：带伞"
    assert driver.advance_to(t(12, 3, 6, 59, 59)) == []
    pushes = driver.advance_to(t(12, 3, 7, 0, 0))
    assert [(p.user, p.text) for p in pushes] == [("u1", "⏰ 提醒：带伞")]
    assert driver.advance_to(t(12, 5, 7)) == []


def test_create_is_idempotent_on_message_id(driver: Driver, engine: object) -> None:
    first = driver.create("明天早上8点提醒我开会", msg_id="same")
    second = driver.create("明天早上8点提醒我开会", msg_id="same")
    assert first.data["reminder_id"] == second.data["reminder_id"]
    assert second.data["created"] is False
    assert len(driver.advance_to(t(12, 2, 8))) == 1


def test_relative_duration(driver: Driver) -> None:
    assert driver.create("10分钟后提醒我关火").reply == "好的，12月1日（周二）20:10 提醒你：关火"
    assert driver.advance(minutes=9, seconds=59) == []
    assert [p.text for p in driver.advance(seconds=1)] == ["⏰ 提醒：关火"]


def test_weekday_next_week_and_next_month(driver: Driver) -> None:
    driver.create("周五下午3点提醒我交周报")
    driver.create("下周三提醒我体检")
    driver.create("下个月1号提醒我交房租")
    listing = driver.run("list", {}).reply
    assert "1. 12月4日（周五）15:00 交周报" in listing
    assert "2. 12月9日（周三）09:00 体检" in listing
    assert "3. 1月1日（周五）09:00 交房租" in listing
    assert [p.text for p in driver.advance_to(t(12, 4, 15))] == ["⏰ 提醒：交周报"]
    assert [p.text for p in driver.advance_to(t(12, 9, 9))] == ["⏰ 提醒：体检"]
    assert [p.text for p in driver.advance_to(datetime(2027, 1, 1, 9, tzinfo=TZ))] == ["⏰ 提醒：交房租"]


def test_recurring_fires_again_the_next_day(driver: Driver) -> None:
    reply = driver.create("每天早上8点提醒我吃药").reply
    assert reply == "好的，每天 08:00（第一次：12月2日（周三）08:00） 提醒你：吃药"
    assert len(driver.advance_to(t(12, 2, 8))) == 1
    assert driver.advance_to(t(12, 2, 23)) == []
    assert len(driver.advance_to(t(12, 3, 8))) == 1
    assert "每天 08:00 吃药（下次 12月4日（周五）08:00）" in driver.run("list", {}).reply
    # one jump across three mornings in script mode: three pushes, as if the scheduler had run
    assert len(driver.advance_to(t(12, 6, 9))) == 3


def test_workday_rule_skips_the_weekend(driver: Driver) -> None:
    driver.create("工作日早上7点半提醒我打卡")
    fired = [len(driver.advance_to(t(12, d, 7, 30))) for d in range(2, 9)]
    assert fired == [1, 1, 1, 0, 0, 1, 1]  # Wed Thu Fri | Sat Sun | Mon Tue


def test_list_is_numbered_and_empty_list_says_so(driver: Driver) -> None:
    assert "没有待提醒" in driver.run("list", {}).reply
    driver.create("明天早上8点提醒我开会")
    assert driver.run("list", {}).reply.startswith("你的提醒（共1条）：\n1. 12月2日（周三）08:00 开会")


def test_cancel_by_number_content_and_all(driver: Driver) -> None:
    for text in ("明天早上8点提醒我开会", "后天提醒我带伞", "每天晚上10点提醒我睡觉"):
        driver.create(text)
    # soonest first: 1 睡觉 (tonight 22:00), 2 开会, 3 带伞
    assert driver.cancel("取消第2个提醒").reply == "已取消提醒：开会"
    assert driver.cancel("取消带伞的提醒").reply == "已取消提醒：带伞"
    assert driver.cancel("取消开会的提醒").ok is False
    assert driver.cancel("取消所有提醒").reply == "已取消提醒：睡觉"
    assert driver.advance_to(t(12, 5, 23)) == []
    assert "没有待提醒" in driver.run("list", {}).reply


def test_cancel_all_and_confirm_text(driver: Driver) -> None:
    from skills.reminders.skill import cancel_confirm_text

    driver.create("明天早上8点提醒我开会")
    driver.create("后天提醒我带伞")
    assert cancel_confirm_text({"target": "全部"}) == "确认取消全部提醒吗？"
    assert cancel_confirm_text({"target": 2}) == "确认取消第2个提醒吗？"
    assert cancel_confirm_text({"target": "带伞"}) == "确认取消「带伞」的提醒吗？"
    assert driver.cancel("全部取消").reply == "已取消全部2条提醒。"


def test_snooze_repeats_the_last_pushed_reminder(driver: Driver) -> None:
    assert driver.snooze("10分钟后再提醒我").ok is False  # nothing pushed yet
    driver.create("明天早上8点提醒我开会")
    driver.advance_to(t(12, 2, 8))
    result = driver.snooze("10分钟后再提醒我")
    assert result.reply == "好的，12月2日（周三）08:10 再提醒你：开会"
    assert [p.text for p in driver.advance_to(t(12, 2, 8, 10))] == ["⏰ 提醒：开会"]
    assert driver.snooze("等会再提醒我").reply == "好的，12月2日（周三）08:20 再提醒你：开会"  # default 10 min


def test_snooze_of_recurring_does_not_shift_the_rule(driver: Driver) -> None:
    driver.create("每天早上8点提醒我吃药")
    driver.advance_to(t(12, 2, 8))
    driver.snooze("半小时后再提醒我")
    assert len(driver.advance_to(t(12, 2, 8, 30))) == 1
    assert len(driver.advance_to(t(12, 3, 8))) == 1
    assert len(driver.advance_to(t(12, 3, 9))) == 0


def test_past_time_is_refused(driver: Driver) -> None:
    result = driver.create("今天早上7点提醒我跑步")
    assert result.ok is False and "过去" in result.reply


def test_catch_up_after_downtime(driver: Driver, engine: object) -> None:
    """Live scheduler after an outage: < 1 h late → delivered with a note; older → missed, told later."""
    driver.create("明天早上7点提醒我带伞")
    driver.create("明天早上8点提醒我开会")
    driver.create("每天早上6点提醒我吃药")
    fired = fire_due(driver.services.db, t(12, 2, 8, 30))  # scheduler was down 05:00 → 08:30
    assert [p.text for p in fired.pushes] == ["⏰ 提醒：开会（原定08:00，晚了30分钟）"]
    assert fired.missed == 2
    with Session(driver.services.db) as session:
        notice = missed_notice(session, "u1")
        session.commit()
        assert notice is not None and "2条提醒" in notice and "带伞" in notice and "吃药" in notice
        assert missed_notice(session, "u1") is None
    # the daily rule resumes from the next morning, without one missed row per skipped day
    assert fire_due(driver.services.db, t(12, 2, 9)).pushes == ()
    assert len(fire_due(driver.services.db, t(12, 3, 6)).pushes) == 1


def test_unsubscribed_users_get_nothing(driver: Driver) -> None:
    from skills.models import User

    driver.create("明天早上8点提醒我开会")
    driver.create("每天早上9点提醒我喝水")
    with Session(driver.services.db) as session:
        user = session.get(User, "u1")
        assert user is not None
        user.subscribed = False
        session.add(user)
        session.commit()
    assert driver.advance_to(t(12, 2, 9)) == []
    with Session(driver.services.db) as session:
        states = {o.state for o in session.exec(select(ReminderOccurrence)).all()}
        assert OccurrenceState.CANCELLED.value in states
        assert session.exec(select(Reminder)).first() is not None


def test_due_boundary_is_inclusive_and_pushes_are_ordered(driver: Driver) -> None:
    driver.create("明天早上8点提醒我B")
    driver.create("明天早上7点提醒我A")
    pushes = driver.advance_to(t(12, 2, 8))
    assert [p.text for p in pushes] == ["⏰ 提醒：A", "⏰ 提醒：B"]
    assert len({p.key for p in pushes}) == 2
    assert driver.advance(seconds=1) == []
