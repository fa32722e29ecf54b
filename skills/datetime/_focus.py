"""The day a date answer is about (the focus of follow-ups), and the questions derived from it:
"还有几天", "星期几", "农历是多少", "那天几号" — answered for that day, not for today."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime, time, timedelta
from typing import Any

from runtime.skill import Entity, Question
from runtime.skill.parsers import parse_time_phrase
from skills.datetime._calendar_answers import countdown, fmt, lunar_text

__all__ = ["DAY_QUESTIONS", "aspect_answer", "day_entity"]

WEEKDAYS = "一二三四五六日"
_LUNAR = re.compile(r"农历|阴历|旧历|正月|腊月|冬月|初[一二三四五六七八九十]|廿")


def day_entity(day: date, label: str, question: str, *, minor: bool = False) -> Entity:
    """A day shown, as the focus: its label as said, its date, and whether it was asked in lunar terms
    (``minor`` when it is only the day of something else shown, such as a reminder)."""
    return Entity("day", label, day.isoformat(), {"phrase": f"{day.year}年{day.month}月{day.day}日",
                                                  "lunar": bool(_LUNAR.search(question)), "minor": minor})


_BARE_DAY = re.compile(r"(?:初[一二三四五六七八九十]|十[一二三四五六七八九]|二十[一二三四五六七八九]?|廿[一二三四五六七八九]|三十|"
                       r"\d{1,2}\s*[号日])")


def claimed_day(claim: str, near: date, tz: Any) -> date | None:
    """The day ``claim`` names ("除夕", "腊月二十九", "2月5号") in the half year around ``near``, if any."""
    back = 15 if _BARE_DAY.fullmatch(claim.strip()) else 183  # "初四", "8号": that day of the month around it
    base = datetime.combine(near - timedelta(days=back), time(0, 0), tzinfo=tz)
    expr = parse_time_phrase(claim, base)
    if expr is None or expr.rrule or not expr.said or len(expr.said) < len(claim.strip()) - 1:
        return None
    return expr.at.date()


def _verdict(day: date, claim: str, subject: str, now: datetime) -> str:
    """Whether ``day`` is what ``claim`` says it is (a weekday, the weekend, a festival, a date)."""
    weekday = re.fullmatch(r"(?:星期|周|礼拜)([一二三四五六日天])", claim)
    if weekday or claim in ("周末", "工作日"):
        if weekday:
            same = "一二三四五六日天".index(weekday.group(1)) % 7 == day.weekday() or (
                weekday.group(1) == "天" and day.weekday() == 6)
        else:
            same = (day.weekday() >= 5) == (claim == "周末")
        return f"对，{subject}是{claim}。" if same else f"不是，{subject}是星期{WEEKDAYS[day.weekday()]}。"
    other = claimed_day(claim, day, now.tzinfo)
    if other is None:
        return ""
    if other == day:
        lunar = lunar_text(day)
        return f"对，{subject}就是{claim}。" if claim in lunar else f"对，{subject}就是{claim}（{lunar}）。"
    return f"不是哦：{subject}是{lunar_text(day)}；{claim}是{fmt(other, year=other.year != now.year)}。"


def aspect_answer(day: date, label: str, aspect: str, now: datetime, *, lunar: bool = False,
                  claim: str = "") -> str:
    """One fact about ``day``: how many days until it, its weekday, its lunar date, its date, or whether it
    is what ``claim`` says ("那天是除夕吧")."""
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
    if aspect == "verify" and claim:
        return _verdict(day, claim, subject, now) or f"{subject}是{lunar_text(day)}。"
    said = f"{fmt(day, year=day.year != today.year)}"
    named = "那天" if dated else named  # "那天是3月24日（星期三）", not "3月24日是3月24日…"
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


_SHIFT = {"前一天": -1, "前一晚": -1, "头一天": -1, "前两天": -2, "后一天": 1, "第二天": 1, "次日": 1, "隔天": 1}


def _verify(params: Mapping[str, Any], m: re.Match[str], entity: Entity | None,
            shown: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """"那天是除夕吧", "前一天就是除夕吧": whether the day shown (or one counted from it) is what is claimed."""
    if entity is None or entity.kind != "day":
        return None
    day = date.fromisoformat(entity.ref) + timedelta(days=_SHIFT.get(m.group("anchor") or "", 0))
    label = "" if m.group("anchor") else entity.name
    return {"question": m.group(0), "day": day.isoformat(), "label": label, "aspect": "verify",
            "claim": m.group("claim"), "lunar": bool(entity.attrs.get("lunar"))}


# questions about a day, whichever result showed it (a date answered, a reminder set)
DAY_QUESTIONS = (
    Question("days until it", r"(?:离|距离|距|到|从)?(?:今天|现在)?还?(?:有|剩|差|要)?(?:几|多少)天|多久|多长时间|倒计时|还要等",
             _aspect("countdown"), kind="day"),
    Question("its weekday", r"(?:是)?(?:星期几|周几|礼拜几)", _aspect("weekday"), kind="day"),
    Question("its lunar date", r"(?:农历|阴历|旧历)(?:是|的)?(?:几月)?(?:几号|多少|什么|哪天|初几|几)?"
             r"|(?:正月|腊月|冬月|[二三四五六七八九十]月)(?:几|初几|几号|多少)|初几", _aspect("lunar"),
             kind="day"),
    Question("its date", r"几月几[号日]?|几号|哪天|哪一天|(?:什么|啥)日子", _aspect("date"), kind="day"),
    # "那天是除夕吧", "前一天就是除夕吧", "那天是不是妇女节", "那日算不算节日" (a claim, never a question word)
    Question("is it what is claimed", r"(?P<anchor>前一天|前一晚|头一天|前两天|后一天|第二天|次日|隔天)?(?:今年|今年的)?"
             r"(?:那天|这天|当天|那一天|那日|当日)?(?:其实|应该|真的)?"
             r"(?:就?是(?!不是)(?=[^，,。？?！!]{1,10}?(?:对吧|对不对|没错吧|是吧|是不是|吧|吗|么|嘛))|是不是|算不算|是否)"
             r"(?!几|什么|啥|哪|多少)(?P<claim>[^，,。？?！!吧吗么嘛呀啊呢]{1,10}?)"
             r"(?:对吧|对不对|没错吧|是吧|是不是|吧|吗|么|嘛)?(?:啊|呀|呢)?[?？]?$", _verify, kind="day"),
)
