"""The days a date token names, first the one it means now, then the ones it rolls forward to."""

from __future__ import annotations

import calendar
from collections.abc import Iterator
from datetime import date, timedelta

from runtime.parsers._time_named import named_days
from runtime.parsers._time_tokens import Kind, Token

__all__ = ["add_months", "day_candidates", "valid_date"]

_ROLLS = 60  # how far a rolling date looks ahead: 60 weeks, months or years


def add_months(year: int, month: int, n: int) -> tuple[int, int]:
    """(year, month) ``n`` months after ``year``/``month``."""
    index = year * 12 + (month - 1) + n
    return index // 12, index % 12 + 1


def valid_date(year: int, month: int, day: int) -> date | None:
    """The date, or None when the month has no such day."""
    if 1 <= month <= 12 and 1 <= day <= calendar.monthrange(year, month)[1]:
        return date(year, month, day)
    return None


def _weeks(token: Token, today: date) -> Iterator[date]:
    monday = today - timedelta(days=today.weekday())
    if token.week is not None:
        yield monday + timedelta(days=7 * token.week + token.weekday)
        return
    first = today + timedelta(days=(token.weekday - today.weekday()) % 7)
    yield from (first + timedelta(days=7 * n) for n in range(_ROLLS))


def _month_days(token: Token, today: date) -> Iterator[date]:
    if token.month is not None:
        if token.year is not None:
            year = {-1: today.year, -2: today.year + 1, -3: today.year + 2}.get(token.year, token.year)
            found = valid_date(year, token.month, token.day)
            yield from (found,) if found else ()
            return
        for year in range(today.year, today.year + _ROLLS):
            found = valid_date(year, token.month, token.day)
            if found is not None:
                yield found
        return
    if token.month_offset is not None:
        year, month = add_months(today.year, today.month, token.month_offset)
        if not token.day:  # 一个月后: the same day of that month, or its last day
            yield date(year, month, min(today.day, calendar.monthrange(year, month)[1]))
            return
        found = valid_date(year, month, token.day)
        yield from (found,) if found else ()
        return
    for n in range(_ROLLS):
        year, month = add_months(today.year, today.month, n)
        found = valid_date(year, month, token.day)
        if found is not None:
            yield found


def day_candidates(token: Token, today: date) -> Iterator[date]:
    """The days ``token`` names, in order: the first is what it means today; later ones are where
    it rolls when that moment has passed (a bare weekday to next week, 12月24日 to next year, 中秋
    to next year's). A token naming one fixed day (明天, 下周三, 2027年1月5日) yields one day.
    """
    if token.kind is Kind.DAY and token.year in (-2, -3):  # 明年今天: the same month and day, a year on
        ahead = today.year - token.year - 1
        found = valid_date(ahead, today.month, today.day) or valid_date(ahead, today.month, today.day - 1)
        if found is not None:
            yield found
    elif token.kind is Kind.DAY:
        yield today + timedelta(days=token.offset)
    elif token.kind is Kind.WEEK:
        yield from _weeks(token, today)
    elif token.kind is Kind.MONTHDAY:
        yield from _month_days(token, today)
    elif token.kind is Kind.NAMED:
        yield from named_days(token, today)
