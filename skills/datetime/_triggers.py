"""Routing rules of this skill: wordings that mean its intents (tried in ``order`` across skills)."""

from __future__ import annotations

from runtime.skill import Trigger

__all__ = ["TRIGGERS"]

TRIGGERS: tuple[Trigger, ...] = (
    Trigger(
        "datetime.query", "datetime.query", order=130,
        pattern=(
            r"几号|几月几|几点了?$|现在几点|几点钟|什么时间了|星期几|周几|礼拜几|日期|哪天|哪一天|什么日子|工作日|放假|"
            r"节假日|调休|上班吗|休息吗|多少号|今年是|几年|农历|过年|元旦|春节|国庆|中秋|端午|清明|劳动节"
        ),
        unless=r"提醒|天气|下雨",
    ),
)
