"""Groups time tokens into phrases and resolves a phrase against ``now`` (pure)."""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from dateutil.rrule import rrulestr

from runtime.parsers._time_tokens import Kind, Part, Token

__all__ = ["Resolved", "group", "resolve"]

_GAP = re.compile(r"[\s的]*")
_DATE_KINDS = frozenset({Kind.DAY, Kind.WEEK, Kind.MONTHDAY})
DEFAULT_HOUR = 9
_PART_DEFAULT = {Part.DAWN: 5, Part.MORNING: 8, Part.FORENOON: 9, Part.NOON: 12, Part.AFTERNOON: 15,
                 Part.DUSK: 18, Part.EVENING: 20, Part.NIGHT: 23}


@dataclass(frozen=True, slots=True)
class Resolved:
    """A resolved phrase: first occurrence, rule, whether a clock time was said, its span."""

    at: datetime
    rrule: str | None
    has_time: bool
    span: tuple[int, int]


def _slots(token: Token) -> set[str]:
    slots = {"date" if token.kind in _DATE_KINDS else token.kind.value}
    if token.part is not None and token.kind is not Kind.PART:
        slots.add("part")
    if token.kind is Kind.DELTA:
        slots |= {"date", "part", "clock", "recur"}
    if token.kind is Kind.RECUR:
        slots.add("date")
    return slots


def group(text: str, tokens: list[Token]) -> list[list[Token]]:
    """Adjacent tokens (only spaces or 的 between) that fill different slots form one phrase."""
    groups: list[list[Token]] = []
    used: set[str] = set()
    for token in tokens:
        slots = _slots(token)
        if groups:
            prev = groups[-1][-1]
            gap = text[prev.end:token.start]
            if _GAP.fullmatch(gap) and not (used & slots):
                groups[-1].append(token)
                used |= slots
                continue
        groups.append([token])
        used = set(slots)
    return groups


def _clock_hour(hour: int, part: Part | None) -> tuple[int, int] | None:
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
    # NIGHT (半夜/深夜): 11 → 23 that day, 12 and 0-5 → early next morning
    if hour == 11:
        return 23, 0
    return ((0, 1) if hour == 12 else (hour, 1)) if hour <= 5 or hour == 12 else (hour + 12, 0)


def _add_months(year: int, month: int, n: int) -> tuple[int, int]:
    index = year * 12 + (month - 1) + n
    return index // 12, index % 12 + 1


def _valid(year: int, month: int, day: int) -> date | None:
    if 1 <= day <= calendar.monthrange(year, month)[1]:
        return date(year, month, day)
    return None


def _date_of(token: Token, today: date) -> tuple[date | None, bool]:
    """The date a date token names and whether it may roll forward when the moment has passed."""
    if token.kind is Kind.DAY:
        return today + timedelta(days=token.offset), False
    if token.kind is Kind.WEEK:
        monday = today - timedelta(days=today.weekday())
        if token.week is None:
            return today + timedelta(days=(token.weekday - today.weekday()) % 7), True
        return monday + timedelta(days=7 * token.week + token.weekday), False
    if token.month is not None:
        if token.year is None:
            return _valid(today.year, token.month, token.day), True
        year = {-1: today.year, -2: today.year + 1}.get(token.year, token.year)
        return _valid(year, token.month, token.day), False
    if token.month_offset is not None:
        year, month = _add_months(today.year, today.month, token.month_offset)
        if not token.day:  # 一个月后: the same day of that month, or its last day
            return date(year, month, min(today.day, calendar.monthrange(year, month)[1])), False
        return _valid(year, month, token.day), False
    return _valid(today.year, today.month, token.day), True


def _roll(token: Token, first: date, at: time, now: datetime) -> datetime | None:
    """The next date after ``first`` that the token also names (next week, month or year)."""
    if token.kind is Kind.WEEK:
        return datetime.combine(first + timedelta(days=7), at, tzinfo=now.tzinfo)
    year, month = first.year, first.month
    for _ in range(48):
        if token.month is not None:
            year += 1
        else:
            year, month = _add_months(year, month, 1)
        d = _valid(year, token.month or month, token.day)
        if d is not None:
            return datetime.combine(d, at, tzinfo=now.tzinfo)
    return None


def resolve(phrase: list[Token], now: datetime) -> Resolved | None:
    """Resolve one phrase against ``now`` (aware, the user's timezone); None if it names no moment."""
    span = (phrase[0].start, phrase[-1].end)
    by_kind = {t.kind: t for t in phrase}
    delta = by_kind.get(Kind.DELTA)
    if delta is not None:
        at = (now + timedelta(minutes=delta.minutes)).replace(microsecond=0)
        return Resolved(at, None, True, span)
    clock = by_kind.get(Kind.CLOCK)
    part = next((t.part for t in phrase if t.part is not None), None)
    weak_only = all(t.weak for t in phrase if t.kind is Kind.PART) and Kind.PART in by_kind
    if weak_only and clock is None:
        return None
    if len(phrase) == 1 and clock is not None and clock.weak:
        return None  # "一点" alone reads as "a little" far more often than "1 o'clock"
    extra_days = 0
    if clock is not None:
        converted = _clock_hour(clock.hour, part)
        if converted is None:
            return None
        hour, extra_days = converted
        minute, has_time = clock.minute, True
    else:
        hour = _PART_DEFAULT[part] if part is not None else DEFAULT_HOUR
        minute, has_time = 0, False
    at_time = time(hour, minute)
    today = now.date()
    recur = by_kind.get(Kind.RECUR)
    if recur is not None:
        start = datetime.combine(today, at_time, tzinfo=now.tzinfo)
        first = rrulestr(recur.rrule, dtstart=start).after(now)
        return None if first is None else Resolved(first, recur.rrule, has_time, span)
    date_token = next((t for t in phrase if t.kind in _DATE_KINDS), None)
    if date_token is None:
        return _bare(now, hour, minute, extra_days, clock is not None and part is None, has_time, span)
    first_date, may_roll = _date_of(date_token, today)
    if first_date is None:
        return None
    at = datetime.combine(first_date + timedelta(days=extra_days), at_time, tzinfo=now.tzinfo)
    if may_roll and at <= now:
        rolled = _roll(date_token, first_date, at_time, now)
        if rolled is None:
            return None
        at = rolled + timedelta(days=extra_days)
    return Resolved(at, None, has_time, span)


def _bare(now: datetime, hour: int, minute: int, extra_days: int, ambiguous: bool, has_time: bool,
          span: tuple[int, int]) -> Resolved:
    """A time with no date: today, or its next occurrence once passed (1-11 o'clock may mean pm)."""
    base = datetime.combine(now.date() + timedelta(days=extra_days), time(hour, minute), tzinfo=now.tzinfo)
    options = [base, base + timedelta(days=1)]
    if ambiguous and 1 <= hour <= 11:
        options.append(base + timedelta(hours=12))
    at = min(o for o in options if o > now)
    return Resolved(at, None, has_time, span)
