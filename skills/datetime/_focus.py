"""The day a date answer is about (the focus of follow-ups), and the questions derived from it:
"还有几天", "星期几", "农历是多少", "那天几号" — answered for that day, not for today."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime
from typing import Any

from runtime.skill import Entity, Question
from skills.datetime._calendar_answers import countdown, fmt, lunar_text

__all__ = ["DAY_QUESTIONS", "aspect_answer", "day_entity"]

WEEKDAYS = "一二三四五六日"
_LUNAR = re.compile(r"农历|阴历|旧历|正月|腊月|冬月|初[一二三四五六七八九十]|廿")


def day_entity(day: date, label: str, question: str, *, minor: bool = False) -> Entity:
    """A day shown, as the focus: its label as said, its date, and whether it was asked in lunar terms
    (``minor`` when it is only the day of something else shown, such as a reminder)."""
    return Entity("day", label, day.isoformat(), {"phrase": f"{day.year}年{day.month}月{day.day}日",
                                                  "lunar": bool(_LUNAR.search(question)), "minor": minor})


def aspect_answer(day: date, label: str, aspect: str, now: datetime, *, lunar: bool = False) -> str:
    """One fact about ``day``: how many days until it, its weekday, its lunar date, or its date."""
    today = now.date()
    dated = not label or label in ("那天", "今天") or label.startswith(f"{day.month}月{day.day}")
    named = f"{day.month}月{day.day}日" if dated else label
    full = fmt(day, year=day.year != today.year)
    subject = full if dated else f"{named}（{full}）"  # "1月15日（星期五）", not "1月15日（1月15日（星期五））"
    if aspect == "countdown":
        return countdown(subject, (day - today).days, today=f"就是今天（{fmt(day)}）！")
    if aspect == "weekday":
        return f"{named}（{day.month}月{day.day}日）是星期{WEEKDAYS[day.weekday()]}。" if not dated \
            else f"{day.month}月{day.day}日是星期{WEEKDAYS[day.weekday()]}。"
    if aspect == "lunar":
        return f"{subject}是{lunar_text(day)}。"
    said = f"{fmt(day, year=day.year != today.year)}"
    return f"{named}是{said}，{lunar_text(day)}。" if lunar else f"{named}是{said}。"


# the question each aspect asks, said about a day by its name (so "那元宵节呢" next can swap the name)
_ASKED = {"countdown": "离{}还有几天", "weekday": "{}是星期几", "lunar": "{}农历是几号", "date": "{}是几号"}


def _aspect(name: str) -> Any:
    def ask(params: Mapping[str, Any], m: re.Match[str], entity: Entity | None,
            shown: Mapping[str, Any]) -> Mapping[str, Any] | None:
        if entity is None or entity.kind != "day":
            return None
        label = entity.name if entity.name not in ("", "那天") else str(entity.attrs.get("phrase") or "")
        return {"question": _ASKED[name].format(label), "day": entity.ref, "label": entity.name, "aspect": name,
                "lunar": bool(entity.attrs.get("lunar"))}
    return ask


# questions about a day, whichever result showed it (a date answered, a reminder set)
DAY_QUESTIONS = (
    Question("days until it", r"(?:离|距离|距|到|从)?(?:今天|现在)?还?(?:有|剩|差|要)?(?:几|多少)天|多久|多长时间|倒计时|还要等",
             _aspect("countdown"), kind="day"),
    Question("its weekday", r"(?:是)?(?:星期几|周几|礼拜几)", _aspect("weekday"), kind="day"),
    Question("its lunar date", r"(?:农历|阴历|旧历)(?:是|的)?(?:几月)?(?:几号|多少|什么|哪天|初几|几)?"
             r"|(?:正月|腊月|冬月|[二三四五六七八九十]月)(?:几|初几|几号|多少)|初几", _aspect("lunar"),
             kind="day"),
    Question("its date", r"几号|哪天|哪一天|几月几", _aspect("date"), kind="day"),
)
