"""Tokens for timers (10分钟计时器), repeats by the hour or minute (每隔两小时), and lunar repeats (每年中秋).

Lunar and solar-term repeats cannot be written in RFC 5545; they use our own ``X-LUNAR`` /
``X-TERM`` parts, expanded by :mod:`runtime.parsers.recurrence`.
"""

from __future__ import annotations

import re

from runtime.parsers import festivals
from runtime.parsers._time_named import LUNAR_DAY, LUNAR_MONTH, lunar_day_number, lunar_month_number
from runtime.parsers._time_tokens import Kind, Token, number, rule, tok

__all__ = ["MIN_INTERVAL_MINUTES", "duration_minutes"]

MIN_INTERVAL_MINUTES = 5
_DN = r"(?:\d+(?:\.\d+)?|[零〇一二两三四五六七八九十百]+)"
DURATION = (rf"(?:(?P<h>{_DN}|半)(?P<hh>个半)?个?(?:小时|钟头)(?P<h2>半)?)?"
            rf"(?:零?(?P<m>{_DN})(?:分钟|分)(?P<m2>半)?)?(?:零?(?P<s>{_DN})秒钟?)?")


def duration_minutes(m: re.Match[str]) -> float | None:
    """Minutes of a :data:`DURATION` match (None when it says nothing or nonsense)."""
    total = 0.0
    if m.group("h"):
        hours = 0.5 if m.group("h") == "半" else number(m.group("h"))
        if hours is None:
            return None
        total += 60 * (hours + (0.5 if m.group("hh") or m.group("h2") else 0))
    if m.group("m"):
        minutes = number(m.group("m"))
        if minutes is None:
            return None
        total += minutes + (0.5 if m.group("m2") else 0)
    if m.group("s"):
        seconds = number(m.group("s"))
        if seconds is None:
            return None
        total += seconds / 60
    return total if 0 < total <= 60 * 24 * 7 else None


_TIMER = r"(?:倒计时|计时器|计时|定时器|定时|闹钟)"


@rule(rf"(?:设置?|定|开|来)?(?:一个|个)?{DURATION}(?:的)?{_TIMER}")
def _timer_after(m: re.Match[str]) -> Token | None:
    minutes = duration_minutes(m)
    return None if minutes is None else tok(m, Kind.DELTA, minutes=minutes, name="timer")


@rule(rf"{_TIMER}(?:一下|个)?{DURATION}")
def _timer_before(m: re.Match[str]) -> Token | None:
    minutes = duration_minutes(m)
    return None if minutes is None else tok(m, Kind.DELTA, minutes=minutes, name="timer")


@rule(rf"每(?:隔)?(?P<n>{_DN}|半)?(?P<half>个半)?个?(?:小时|钟头)|每(?:隔)?(?P<mins>{_DN})分钟")
def _every_hours(m: re.Match[str]) -> Token | None:
    if m.group("mins"):
        minutes = number(m.group("mins"))
    else:
        raw = m.group("n")
        hours = 1.0 if raw is None else 0.5 if raw == "半" else number(raw)
        minutes = None if hours is None else 60 * (hours + (0.5 if m.group("half") else 0))
    if minutes is None or not MIN_INTERVAL_MINUTES <= minutes <= 24 * 60 or minutes != int(minutes):
        return None
    whole = int(minutes)
    if whole % 60 == 0:
        return tok(m, Kind.RECUR, rrule=f"FREQ=HOURLY;INTERVAL={whole // 60}", minutes=whole)
    return tok(m, Kind.RECUR, rrule=f"FREQ=MINUTELY;INTERVAL={whole}", minutes=whole)


_WORDS = "|".join(sorted(map(re.escape, festivals.WORDS), key=len, reverse=True))


@rule(rf"每年(?:的)?(?P<w>{_WORDS})")
def _yearly_festival(m: re.Match[str]) -> Token | None:
    festival = festivals.by_word(m.group("w"))
    if festival is None:
        return None
    if festival.rule is festivals.Rule.FIXED:
        rrule = f"FREQ=YEARLY;BYMONTH={festival.month};BYMONTHDAY={festival.day}"
    elif festival.rule is festivals.Rule.NTH:
        code = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")[festival.weekday]
        rrule = f"FREQ=YEARLY;BYMONTH={festival.month};BYDAY={festival.nth}{code}"
    elif festival.rule is festivals.Rule.LUNAR:
        rrule = f"FREQ=YEARLY;X-LUNAR={festival.month}/{festival.day}"
    else:
        rrule = f"FREQ=YEARLY;X-TERM={festival.term}"
    return tok(m, Kind.RECUR, rrule=rrule, name=f"fest:{festival.name}")


@rule(rf"每年(?:的)?(?:农历|阴历)(?:的)?{LUNAR_MONTH}(?:的)?{LUNAR_DAY}(?:号|日)?")
def _yearly_lunar(m: re.Match[str]) -> Token | None:
    month, day = lunar_month_number(m.group("m")), lunar_day_number(m.group("d"))
    if month is None or day is None or m.group("leap"):
        return None
    return tok(m, Kind.RECUR, rrule=f"FREQ=YEARLY;X-LUNAR={month}/{day}")


_MORE_DAYS = re.compile(rf"(?:和|、|跟|及|与|还有|或|,|，)?{LUNAR_DAY}(?P<unit>号|日)?")


@rule(rf"每(?:个)?月(?:的)?(?:农历|阴历)?(?:的)?{LUNAR_DAY}(?P<unit>号|日)?"
      rf"(?:(?:和|、|跟|及|与|还有|或)?(?:初[一二三四五六七八九十]|廿[一二三四五六七八九]|二十[一二三四五六七八九]?|三十"
      rf"|十[一二三四五六七八九]?)(?:号|日)?)*")
def _monthly_lunar(m: re.Match[str]) -> Token | None:
    raw = m.group("d")
    lunar = raw[0] in "初廿" or "农历" in m.group(0) or "阴历" in m.group(0)
    day = lunar_day_number(raw)
    if not lunar or day is None:
        return None
    days = [day]  # 每月初一十五: every lunar month's first and fifteenth
    for more in _MORE_DAYS.finditer(m.group(0), m.end("d") - m.start()):
        found = lunar_day_number(more.group("d"))
        if found is not None and found not in days:
            days.append(found)
    return tok(m, Kind.RECUR, rrule="FREQ=MONTHLY;X-LUNAR=" + ",".join(f"*/{d}" for d in sorted(days)))
