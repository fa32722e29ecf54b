"""Routing rules of this skill: wordings that mean its intents (tried in ``order`` across skills)."""

from __future__ import annotations

from runtime.skill import Trigger

__all__ = ["TRIGGERS"]

TRIGGERS: tuple[Trigger, ...] = (
    Trigger(
        "reminder.snooze", "reminder.snooze", order=10,
        pattern=r"([\d零一二两三四五六七八九十百半俩]+\s*(分钟|小时|刻钟)|半小时|一会儿?|待会儿?|稍后)(之?后|以后)?再(提醒|叫|通知)我?",
    ),
    Trigger(
        "reminder.cancel", "reminder.cancel", order=20,
        pattern=r"(取消|删除|删掉|删了|去掉|撤销|关掉|不要).{0,12}提醒|提醒.{0,6}(取消|删除|删掉|不要了)",
    ),
    Trigger(
        "reminder.list", "reminder.list", order=30,
        pattern=r"(我的|有哪些|有什么|有几个|查看|看看|看下|看一下|列出|所有|全部)的?.{0,4}提醒|提醒(列表|清单|有哪些|有什么)",
        unless=r"提醒我",
    ),
    Trigger(
        "reminder.create", "reminder.create", order=40,
        pattern=(
            r"提醒我|提醒一下我|(\d|点|分钟|小时|早上|早晨|上午|中午|下午|晚上|明天|后天|明早).{0,12}(叫|喊)我|"
            r"(叫|喊)我.{0,4}(起床|起来)|记得提醒|别让我忘|设(个|一个|置)?.{0,4}(提醒|闹钟)|定(个|一个)?闹钟|"
            r"到时候?(告诉|通知)我"
        ),
    ),
)
