"""Tokens of Chinese time phrases: the everyday rules live here (named days in ``_time_named``, ranges
and repeats in ``_time_repeat``, the pass that combines them in ``_time_scan``; resolution in ``_time_resolve``).

A token is one recognised piece (a day word, a weekday, a part of day, a clock form, a
duration, a recurrence) with its character span in the original text, so callers can
strip exactly what was understood.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum

from runtime.parsers.day_parts import WORDS as _PARTS
from runtime.parsers.day_parts import Part

__all__ = ["Kind", "Part", "Token", "cn_int", "clock_hour", "number", "raw_tokens", "rule", "tok"]

_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
           "八": 8, "九": 9}
_FULLWIDTH = str.maketrans("０１２３４５６７８９", "0123456789")


def cn_int(text: str) -> int | None:
    """A small non-negative integer written in Arabic or Chinese numerals (一百二十三, 十一, 零五, 05)."""
    text = text.translate(_FULLWIDTH)
    if text.isdigit():
        return int(text)
    if not text or any(c not in _DIGITS and c not in "十百" for c in text):
        return None
    total, digit = 0, None
    for char in text:
        if char in _DIGITS:
            if digit is not None and digit != 0:
                return None  # two digits in a row such as 二三
            digit = _DIGITS[char]
        else:
            unit = 10 if char == "十" else 100
            total += (1 if digit is None else digit) * unit
            digit = None
    return total + (digit or 0)


class Kind(StrEnum):
    """What a token says."""

    DAY = "day"            # 今天/明天/… and N天后: ``offset`` days, maybe ``part`` (今晚)
    WEEK = "week"          # 周五/下周三: ``weekday`` 0-6, ``week`` None (bare) or a week offset; 周末: ``name`` weekend
    MONTHDAY = "monthday"  # 12月24日/下个月1号/3号: ``month``/``month_offset``, ``day``, ``year``
    PART = "part"          # 早上/下午/…
    CLOCK = "clock"        # 8点半 / 20:00: ``hour``, ``minute``
    DELTA = "delta"        # 10分钟后: ``minutes``
    RECUR = "recur"        # 每天/每周一/工作日/每月1号: ``rrule``
    NAMED = "named"        # 中秋/腊月二十三/冬至/月底: ``name`` (a key of ``_time_named``), ``year``
    OFFSET = "offset"      # 前两天/当天/提前半小时: ``offset`` days or ``minutes``; ``weak`` when vague (春节前)
    RANGE = "range"        # 下周一到周五: ``parts`` = (first day, last day)
    WINDOW = "window"      # 9点到18点: ``parts`` = (clock, clock) with their parts of day


@dataclass(frozen=True, slots=True)
class Token:
    """One recognised piece of a time phrase and where it sits in the text."""

    kind: Kind
    start: int
    end: int
    offset: int = 0
    weekday: int = 0
    week: int | None = None
    year: int | None = None
    month: int | None = None
    month_offset: int | None = None
    day: int = 0
    part: Part | None = None
    hour: int = 0
    minute: int = 0
    minutes: float = 0.0
    rrule: str = ""
    weak: bool = False  # 早/晚 only count next to a clock; 一点 alone is "a little", not 1 o'clock
    name: str = ""
    parts: tuple[Token, ...] = ()


def clock_hour(hour: int, part: Part | None) -> tuple[int, int] | None:
    """(hour 0-23, extra days) for ``hour`` o'clock said with ``part``."""
    if hour == 24:
        return 0, 1
    if part is None or hour > 12:
        return (hour, 0) if hour < 24 else None
    if part is Part.DAWN:
        return (0 if hour == 12 else hour), 0
    if part in (Part.MORNING, Part.FORENOON):
        return hour, 0
    if part is Part.NOON:
        return (hour + 12 if 1 <= hour <= 5 else hour), 0
    if part is Part.AFTERNOON:
        return (hour + 12 if 1 <= hour <= 11 else hour), 0
    if part in (Part.DUSK, Part.EVENING):
        return (0, 1) if hour == 12 else ((hour + 12 if hour >= 1 else hour), 0)
    # LATE and NIGHT (夜里/睡前/半夜): 11 → 23 that day, 12 and 0-5 → early next morning
    if hour == 11:
        return 23, 0
    return ((0, 1) if hour == 12 else (hour, 1)) if hour <= 5 or hour == 12 else (hour + 12, 0)


_N = r"[0-9０-９零〇一二两三四五六七八九十百]+"
_DN = r"(?:\d+(?:\.\d+)?|[零〇一二两三四五六七八九十百]+)"
_AFTER = r"(?:之后|以后|后)"
_WD = "一二三四五六日天"
_WD_CODES = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")

_DAY_WORDS: dict[str, tuple[int, Part | None]] = {
    "大大后天": (4, None), "大后天": (3, None), "后天": (2, None), "明天": (1, None), "明日": (1, None),
    "明儿": (1, None), "今天": (0, None), "今日": (0, None), "今儿": (0, None),
    "今晚": (0, Part.EVENING), "今夜": (0, Part.EVENING), "今早": (0, Part.MORNING), "今晨": (0, Part.MORNING),
    "明早": (1, Part.MORNING), "明晨": (1, Part.MORNING), "明晚": (1, Part.EVENING), "明夜": (1, Part.EVENING),
    "后晚": (2, Part.EVENING), "今晚睡前": (0, Part.LATE), "明晚睡前": (1, Part.LATE), "今晚睡觉前": (0, Part.LATE),
    "明晚睡觉前": (1, Part.LATE),
}


def _weekday(char: str) -> int | None:
    if char.isdigit():
        value = int(char)
        return value - 1 if 1 <= value <= 7 else None
    index = _WD.find(char)
    return None if index < 0 else min(index, 6)


def _alt(words: object) -> str:
    return "|".join(sorted(map(re.escape, words), key=len, reverse=True))  # type: ignore[call-overload]


Builder = Callable[[re.Match[str]], Token | None]
_RULES: list[tuple[re.Pattern[str], Builder]] = []


def rule(pattern: str) -> Callable[[Builder], Builder]:
    def register(builder: Builder) -> Builder:
        _RULES.append((re.compile(pattern), builder))
        return builder
    return register


def tok(m: re.Match[str], kind: Kind, **values: object) -> Token:
    return Token(kind, m.start(), m.end(), **values)  # type: ignore[arg-type]


@rule(r"每个?工作日|工作日|(?:每个?)?(?:周|星期|礼拜)一(?:开始|起)?[,，]?(?:到|至|~|～|-)(?:周|星期|礼拜)?五")
def _workdays(m: re.Match[str]) -> Token:
    return tok(m, Kind.RECUR, rrule="FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")


@rule(r"每天|每日|天天|每一天|每晚|每早|每天晚上")
def _daily(m: re.Match[str]) -> Token:
    part = {"每晚": Part.EVENING, "每早": Part.MORNING}.get(m.group(0))
    return tok(m, Kind.RECUR, rrule="FREQ=DAILY", part=part)


@rule(rf"每隔?(?P<n>{_N})天")
def _every_n_days(m: re.Match[str]) -> Token | None:
    n = cn_int(m.group("n"))
    if n is None or n < 1 or n > 366:
        return None
    return tok(m, Kind.RECUR, rrule="FREQ=DAILY" if n == 1 else f"FREQ=DAILY;INTERVAL={n}")


@rule(r"每个?(?:周|星期|礼拜)(?P<wds>[一二三四五六日天1-7](?:[、，,和及与跟]?(?:周|星期|礼拜)?[一二三四五六日天1-7])*)")
def _weekly(m: re.Match[str]) -> Token | None:
    days = sorted({d for c in m.group("wds") if (d := _weekday(c)) is not None})
    if not days:
        return None
    return tok(m, Kind.RECUR, rrule="FREQ=WEEKLY;BYDAY=" + ",".join(_WD_CODES[d] for d in days))


@rule(r"每个?周末")
def _weekends(m: re.Match[str]) -> Token:
    return tok(m, Kind.RECUR, rrule="FREQ=WEEKLY;BYDAY=SA,SU")


@rule(rf"每个?月(?:的)?(?:(?P<d>{_N})(?:号|日)|(?P<last>最后一天|月底|底))")
def _monthly(m: re.Match[str]) -> Token | None:
    if m.group("last"):
        return tok(m, Kind.RECUR, rrule="FREQ=MONTHLY;BYMONTHDAY=-1")
    day = cn_int(m.group("d"))
    if day is None or not 1 <= day <= 31:
        return None
    return tok(m, Kind.RECUR, rrule=f"FREQ=MONTHLY;BYMONTHDAY={day}")


@rule(rf"每年(?:的)?(?P<m>{_N})月(?P<d>{_N})(?:号|日)?")
def _yearly(m: re.Match[str]) -> Token | None:
    month, day = cn_int(m.group("m")), cn_int(m.group("d"))
    if month is None or day is None or not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    return tok(m, Kind.RECUR, rrule=f"FREQ=YEARLY;BYMONTH={month};BYMONTHDAY={day}")


@rule(rf"(?:再过|过)?(?P<q>[一两二三1-3])刻钟?{_AFTER}")
def _quarters(m: re.Match[str]) -> Token | None:
    q = cn_int(m.group("q"))
    return None if not q else tok(m, Kind.DELTA, minutes=15.0 * q)


@rule(rf"(?:再过|过)?(?:(?P<h>{_DN}|半)(?P<hh>个半)?(?:个?(?:小时|钟头)|个?钟(?![点头]))(?P<h2>半)?)?"
       rf"(?:零?(?P<m>{_DN})(?:分钟|分))?{_AFTER}")
def _delta(m: re.Match[str]) -> Token | None:
    minutes = 0.0
    if m.group("h"):
        raw = m.group("h")
        hours = 0.5 if raw == "半" else number(raw)
        if hours is None:
            return None
        minutes += 60 * (hours + (0.5 if m.group("hh") or m.group("h2") else 0))
    if m.group("m"):
        mins = number(m.group("m"))
        if mins is None:
            return None
        minutes += mins
    if minutes <= 0 or minutes > 60 * 24 * 31:
        return None
    return tok(m, Kind.DELTA, minutes=minutes)


def number(raw: str) -> float | None:
    try:
        return float(raw)
    except ValueError:
        value = cn_int(raw)
        return None if value is None else float(value)


@rule(rf"(?:再过|过)?(?P<n>{_N}|半)(?P<unit>天|个星期|个礼拜|星期|礼拜|周|个半月|个月|年)"
      rf"(?P<dir>{_AFTER}|之前|以前|前(?![一二两三四五六七八九十\d半]))")
def _days_later(m: re.Match[str]) -> Token | None:
    raw, unit = m.group("n"), m.group("unit")
    n = 0.5 if raw == "半" else cn_int(raw)
    if n is None or n <= 0 or n > 400 or (raw == "半" and unit not in ("个月", "年")):
        return None
    sign = -1 if "前" in m.group("dir") else 1
    if unit in ("个月", "年"):
        months = n * (12 if unit == "年" else 1)
        if months != int(months):
            return tok(m, Kind.DAY, offset=sign * 15)  # 半个月
        return tok(m, Kind.MONTHDAY, month_offset=sign * int(months), day=0)
    days = int(n) * 30 + 15 if unit == "个半月" else int(n) * (1 if unit == "天" else 7)
    return tok(m, Kind.DAY, offset=sign * days)


@rule(r"(?P<y>今|明|后)年(?:的)?(?:今天|今日|这一?天|同一天)")
def _day_of_year(m: re.Match[str]) -> Token:
    """明年今天 / 明年的今天: today's month and day in that year (``year`` as for named days: -1 今年 …)."""
    return tok(m, Kind.DAY, year={"今": -1, "明": -2, "后": -3}[m.group("y")])


@rule(_alt(_DAY_WORDS))
def _day_word(m: re.Match[str]) -> Token:
    offset, part = _DAY_WORDS[m.group(0)]
    return tok(m, Kind.DAY, offset=offset, part=part)


@rule(r"(?P<pre>下下个?|下个?|这个?|本|上个?)?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天末1-7])")
def _week(m: re.Match[str]) -> Token | None:
    char = m.group("wd")
    weekday = 5 if char == "末" else _weekday(char)
    if weekday is None:
        return None
    pre = (m.group("pre") or "").rstrip("个")
    week = {"": None, "这": 0, "本": 0, "下": 1, "下下": 2, "上": -1}[pre]
    return tok(m, Kind.WEEK, weekday=weekday, week=week, name="weekend" if char == "末" else "")


@rule(rf"(?:公历|阳历|新历)?(?:(?P<y>\d{{4}}|今|明)年)?(?P<m>{_N})月(?:(?P<d>{_N})(?:号|日)|(?P<d2>\d{{1,2}})(?![\d号日]))")
def _month_day(m: re.Match[str]) -> Token | None:
    month, day = cn_int(m.group("m")), cn_int(m.group("d") or m.group("d2"))
    if month is None or day is None or not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    raw_year = m.group("y")
    year = None if raw_year is None else -1 if raw_year == "今" else -2 if raw_year == "明" else int(raw_year)
    return tok(m, Kind.MONTHDAY, month=month, day=day, year=year)


@rule(rf"(?P<mo>下下个?月|下个?月|这个?月|本月)(?:的)?(?P<d>{_N})(?:号|日)")
def _relative_month_day(m: re.Match[str]) -> Token | None:
    day = cn_int(m.group("d"))
    if day is None or not 1 <= day <= 31:
        return None
    mo = m.group("mo").replace("个", "")
    return tok(m, Kind.MONTHDAY, month_offset={"下下月": 2, "下月": 1}.get(mo, 0), day=day)


@rule(rf"(?<![月\d零〇一二两三四五六七八九十])(?P<d>{_N})号(?![楼线门房床口位球码院])")
def _bare_day(m: re.Match[str]) -> Token | None:
    day = cn_int(m.group("d"))
    if day is None or not 1 <= day <= 31:
        return None
    return tok(m, Kind.MONTHDAY, day=day)


@rule(_alt(_PARTS))
def _part(m: re.Match[str]) -> Token:
    return tok(m, Kind.PART, part=_PARTS[m.group(0)], weak=len(m.group(0)) == 1)


@rule(r"(?<![\d.])(?P<h>[01]?\d|2[0-4])[:：](?P<m>[0-5]\d)(?!\d)")
def _colon_clock(m: re.Match[str]) -> Token:
    return tok(m, Kind.CLOCK, hour=int(m.group("h")), minute=int(m.group("m")))


@rule(rf"(?<![\d零〇一二两三四五六七八九十])(?P<h>{_N})(?:点(?![点儿])|时)"
       rf"(?:钟|整|(?P<half>半)|(?P<q>[一三])刻|过?(?P<m>{_N})(?:分钟|分)?)?")
def _clock(m: re.Match[str]) -> Token | None:
    hour = cn_int(m.group("h"))
    if hour is None or hour > 24:
        return None
    minute = 0
    if m.group("half"):
        minute = 30
    elif m.group("q"):
        minute = 15 if m.group("q") == "一" else 45
    elif m.group("m"):
        raw = m.group("m").lstrip("零〇")
        value = cn_int(raw) if raw else 0
        if value is None or value > 59:
            return None
        minute = value
    weak = m.group(0) == "一点"
    return tok(m, Kind.CLOCK, hour=hour, minute=minute, weak=weak)


def _candidates(text: str) -> Iterator[tuple[int, Token]]:
    """Every match of every rule, overlapping ones included (平安夜晚上: 夜晚 must not hide 晚上)."""
    for priority, (pattern, builder) in enumerate(_RULES):
        m = pattern.search(text)
        while m is not None:
            if m.end() > m.start() and (token := builder(m)) is not None:
                yield priority, token
            m = pattern.search(text, m.start() + 1)


def raw_tokens(text: str) -> list[Token]:
    """All time tokens of ``text``, left to right, never overlapping (the longest wins at a position)."""
    ordered = sorted(_candidates(text), key=lambda pt: (pt[1].start, -(pt[1].end - pt[1].start), pt[0]))
    chosen: list[Token] = []
    for _, token in ordered:
        if not chosen or token.start >= chosen[-1].end:
            chosen.append(token)
    return chosen
