"""When a workout was done, said the way people say it: 昨晚, 前天下午, 大前天, 上周六, 周一晚上, 3号早上,
12月1日, 三天前, 今早7点 — a day (counting back from today, never ahead) and maybe a time of day.

Pure. :func:`extract_day` finds the words in a message and gives them back in one plain form ("昨晚" →
"昨天晚上"), which is the ``day`` slot's value and what the confirmation says; :func:`resolve_day` turns
that form into the moment of the workout against the clock of the run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from runtime.skill.parsers import parse_value

__all__ = ["DAY_SAID", "WorkoutTime", "extract_day", "past_day", "resolve_day"]

_WEEKDAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6, "末": 5}
_N = r"[\d一二两三四五六七八九十]{1,3}"
_WEEK = r"(?:周|星期|礼拜)"
# the day, longest forms first; each group names how it counts back
_DAY = re.compile(
    r"(?P<back3>大前天|大前儿)|(?P<back2>前天|前儿|前晚)|(?P<back1>昨天|昨日|昨儿|昨晚|昨夜|昨早)"
    r"|(?P<today>今天|今日|今儿|今早|今晚|今夜)"
    rf"|(?P<ago>{_N})\s*天(?:以)?前"
    rf"|(?P<week>上上|上|这|本)?(?:个|一)?{_WEEK}(?P<wd>[一二三四五六日天末])(?<!一(?=共|起|直|般|些|样))"
    rf"|(?:(?P<lastmonth>上个?月)|(?P<month>{_N})\s*月\s*)?(?P<mday>{_N})\s*[号日](?![子常])")
# the time of day, maybe with its clock hour: 早上7点 / 晚上8点半 / 下午三点 / 7点
_PART = r"凌晨|清晨|早上|早晨|一早|早|上午|中午|下午|傍晚|晚上|夜里|半夜|晚"
_TIME = re.compile(rf"(?P<part>{_PART})?\s*(?:(?P<hour>{_N})\s*[点:：](?P<half>半)?(?:(?P<minute>\d{{1,2}})\s*分?)?)?")
_PART_HOUR = {"凌晨": 5, "清晨": 6, "早上": 7, "早晨": 7, "一早": 7, "早": 7, "上午": 10, "中午": 12, "下午": 16,
              "傍晚": 18, "晚上": 20, "夜里": 22, "半夜": 23, "晚": 20}
_PART_NAME = {"早": "早上", "早晨": "早上", "一早": "早上", "晚": "晚上", "夜里": "晚上"}
_FOLDED = {"今早": ("今天", "早上"), "今晚": ("今天", "晚上"), "今夜": ("今天", "晚上"), "昨晚": ("昨天", "晚上"),
           "昨夜": ("昨天", "晚上"), "昨早": ("昨天", "早上"), "前晚": ("前天", "晚上")}
_DAY_NAME = {"今日": "今天", "今儿": "今天", "昨日": "昨天", "昨儿": "昨天", "前儿": "前天", "大前儿": "大前天"}
DEFAULT_HOUR = 12  # a day said without a time of day
DAY_SAID = _DAY  # where a message names a day (a run-on names the next workout's day without a pause)


@dataclass(frozen=True, slots=True)
class WorkoutTime:
    """When the workout was done, and how to say the day ("昨天晚上", "11月28日").

    ``future``: the words name a moment still to come (a log cannot be for it).
    """

    at: datetime
    said: str
    future: bool = False


def _number(said: str | None) -> int | None:
    if not said:
        return None
    value = parse_value("number", said)
    return int(value) if isinstance(value, int | float) else None


def extract_day(text: str) -> str | None:
    """The day (and time of day) a workout message names, in one plain form; None when it names none.

    "昨晚跑了5公里" → "昨天晚上"; "前天游了一个钟头" → "前天"; "上周六打球" → "上周六"; "下午去游泳了" →
    "今天下午"; "3号早上" → "3号早上". Amounts are never read as a day ("跑了5公里" names none).
    """
    day = _DAY.search(text)
    rest = text[day.end():] if day else text
    time = next((m for m in _TIME.finditer(rest) if m.group("part") or m.group("hour")), None)
    if time is not None and day is not None and time.start() > 2:
        time = None  # "昨天跑了五公里，晚上又…": a time far from the day belongs to something else
    if day is None and time is None:
        return None
    name, part = "今天", ""
    if day is not None:
        word = day.group(0)
        if word in _FOLDED:
            name, part = _FOLDED[word]
        elif day.group("ago"):
            name = f"{_number(day.group('ago'))}天前"
        elif day.group("wd"):
            week = day.group("week") or ""
            name = {"本": "这"}.get(week, week) + "周" + {"天": "日"}.get(day.group("wd"), day.group("wd"))
        elif day.group("mday"):
            month, mday = _number(day.group("month")), _number(day.group("mday"))
            if not mday or not 1 <= mday <= 31 or (month is not None and not 1 <= month <= 12):
                return None
            name = f"{month}月{mday}日" if month else f"上个月{mday}号" if day.group("lastmonth") else f"{mday}号"
        else:
            name = _DAY_NAME.get(word, word)
    if time is not None:
        said_part = time.group("part")
        part = _PART_NAME.get(said_part, said_part) if said_part else part
        hour = _number(time.group("hour"))
        if hour is not None:
            clock = f"{hour}点" + ("半" if time.group("half") else f"{int(time.group('minute'))}分" if time.group("minute")
                                   else "")
            return f"{name}{part}{clock}"
    return f"{name}{part}"


def _day(said: str, today: date) -> tuple[date, bool] | None:
    """The date the plain form names, counting back from ``today``; and whether it is still to come."""
    m = _DAY.match(said)
    if m is None:
        return None
    if m.group("today"):
        return today, False
    for group, back in (("back1", 1), ("back2", 2), ("back3", 3)):
        if m.group(group):
            return today - timedelta(days=back), False
    if m.group("ago"):
        return today - timedelta(days=_number(m.group("ago")) or 0), False
    if m.group("wd"):
        weekday = _WEEKDAYS[m.group("wd")]
        monday = today - timedelta(days=today.weekday())
        week = m.group("week") or ""
        if week in ("上", "上上"):
            return monday - timedelta(days=7 * len(week)) + timedelta(days=weekday), False
        day = monday + timedelta(days=weekday)
        if day > today and not week:  # "周五跑了步" said on a Wednesday: the Friday just past
            day -= timedelta(days=7)
        return day, day > today
    mday, month = _number(m.group("mday")) or 1, _number(m.group("month"))
    if m.group("lastmonth"):
        last = today.replace(day=1) - timedelta(days=1)
        return _past_date(last, last.month, mday) if mday <= last.day else None
    return _past_date(today, month, mday)


def past_day(said: str, today: date) -> date | None:
    """The date a plain form from :func:`extract_day` names, when it is not after ``today`` (else None)."""
    found = _day(said, today)
    return found[0] if found is not None and not found[1] and found[0] <= today else None


def _past_date(today: date, month: int | None, mday: int) -> tuple[date, bool] | None:
    """"12月1日" / "3号" as the latest such day not after today (last month's, last year's)."""
    year, mon = today.year, month or today.month
    for _ in range(13):
        try:
            day = date(year, mon, mday)
        except ValueError:
            day = None
        if day is not None and day <= today:
            return day, False
        if month is not None:
            year -= 1
        else:
            year, mon = (year, mon - 1) if mon > 1 else (year - 1, 12)
    return None


def resolve_day(said: str, now: datetime) -> WorkoutTime | None:
    """The moment ``said`` (a plain form from :func:`extract_day`) names, against ``now``: the time of day
    said, else the part of day's usual hour, else noon (now, for today); never later than ``now``."""
    found = _day(said, now.date())
    if found is None:
        return None
    day, ahead = found
    m = _DAY.match(said)
    rest = said[m.end():] if m else said
    time = _TIME.match(rest)
    hour: int | None = None
    minute = 0
    part = time.group("part") if time else None
    if time is not None and time.group("hour"):
        hour = _number(time.group("hour")) or 0
        minute = 30 if time.group("half") else int(time.group("minute") or 0)
        if part in ("下午", "傍晚", "晚上", "晚", "夜里", "半夜") and hour < 12:
            hour += 12
    elif part:
        hour = _PART_HOUR[part]
    if hour is None:
        at = now if day == now.date() else now.replace(hour=DEFAULT_HOUR, minute=0, second=0, microsecond=0)
        at = at.replace(year=day.year, month=day.month, day=day.day)
    else:
        at = datetime(day.year, day.month, day.day, min(hour, 23), min(minute, 59), tzinfo=now.tzinfo)
    if at > now:
        if ahead or day > now.date() or hour is not None and hour - now.hour > 6:
            return WorkoutTime(at, said, future=True)
        at = now  # "今晚跑了" said at seven: it happened, just now
    return WorkoutTime(at, said)
