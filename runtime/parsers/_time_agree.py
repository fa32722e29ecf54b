"""Two phrases of one message that each name a day: agreeing forms are one fact, a disagreement two readings.

A date and the festival on it (10月1日 … 国庆节), a weekday and the date it names (12月25日 … 周五 when
that is a Friday), a lunar and a Gregorian date of one day (农历八月十五 … 9月15日) are read together.
When they name different days (8月15日 … 中秋节), both readings are kept, so the question can show them.
Pure; ``now`` is the turn's clock.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from runtime.parsers._time_dates import day_candidates
from runtime.parsers._time_resolve import Resolved, resolve
from runtime.parsers._time_scan import DATE_KINDS
from runtime.parsers._time_tokens import Kind, Token

__all__ = ["APPOSITION", "agreeing", "readings"]

Span = tuple[int, int]
APPOSITION = re.compile(r"[\s,，、（）()【】:：]*(?:也就是|就是|也即|亦即|即|正好是|刚好是|也是|是)?[\s,，、（）()【】:：]*")
"""What may stand between two names of one day said together (10月1日国庆节, 12月25日（周五）, 农历八月十五也就是9月15日)."""
_NOT_A_DAY = frozenset({Kind.RANGE, Kind.RECUR, Kind.DELTA, Kind.WINDOW})


def _bare_weekday(token: Token) -> bool:
    return token.kind is Kind.WEEK and token.week is None


def _names(token: Token, day: date, today: date) -> bool:
    """Whether ``token`` can name ``day`` (a bare weekday any week; a rolling date any year it rolls to)."""
    if _bare_weekday(token):
        return day.weekday() == token.weekday or (token.name == "weekend" and day.weekday() == 6)
    for candidate in day_candidates(token, today):
        if candidate >= day:
            return candidate == day
    return False


def _days_of(at: datetime) -> tuple[date, ...]:
    """The day a moment belongs to: its date, or the evening before (12月24日晚上12点 is 25 December 00:00)."""
    return at.date(), (at - timedelta(hours=6)).date()


def _split(phrase: list[Token]) -> tuple[list[Token], list[Token]]:
    return [t for t in phrase if t.kind in DATE_KINDS], [t for t in phrase if t.kind not in DATE_KINDS]


def _comparable(merged: list[Token], phrase: list[Token], best: Resolved) -> bool:
    main_dates, _ = _split(merged)
    dates, rest = _split(phrase)
    return bool(main_dates and dates) and best.rrule is None \
        and not any(t.kind in _NOT_A_DAY for t in merged + phrase) and not any(t.kind is Kind.OFFSET for t in rest)


def agreeing(merged: list[Token], phrase: list[Token], best: Resolved, now: datetime) -> list[Token] | None:
    """The tokens to read together when ``phrase`` names the day ``merged`` resolved to (``best``), else None.

    What else ``phrase`` says (周四晚上12点 after 12月24日) comes along; a bare weekday gives way to the
    date that pins its week (周五晚上8点 … 12月11日).
    """
    if not _comparable(merged, phrase, best):
        return None
    today = now.date()
    dates, rest = _split(phrase)
    main_dates, main_rest = _split(merged)
    if any(all(_names(t, day, today) for t in dates) for day in _days_of(best.at)):
        return sorted(merged + rest, key=lambda t: t.start)
    if not all(_bare_weekday(t) for t in main_dates):
        return None
    found = resolve(dates, now)
    if found is None or not all(_names(t, found.at.date(), today) for t in main_dates):
        return None
    return sorted(main_rest + phrase, key=lambda t: t.start)


def _day_alone(dates: list[Token], other: date, now: datetime) -> date | None:
    """The day a phrase of dates names; a bare weekday is the one of ``other``'s week (the other reading)."""
    if all(_bare_weekday(t) for t in dates):
        monday = other - timedelta(days=other.weekday())
        return monday + timedelta(days=dates[0].weekday)
    found = resolve(dates, now)
    return None if found is None else found.at.date()


def readings(text: str, merged: list[Token], phrase: list[Token], best: Resolved,
             now: datetime) -> tuple[tuple[Span, date], ...]:
    """The two readings, in the order said, when ``phrase`` names another day than ``merged`` right beside
    it (8月15日中秋节, 12月25日（周六）): the words of each and the day they name. Empty for days said apart
    (明天提醒我周五交报告: the second is what to remind of) and for two whole times (明天下午3点 …
    后天上午10点: two things said, not two readings of one)."""
    if not _comparable(merged, phrase, best) or (_split(phrase)[1] and _split(merged)[1]):
        return ()
    main_dates, dates = _split(merged)[0], _split(phrase)[0]
    ours_span, theirs_span = (main_dates[0].start, main_dates[-1].end), (dates[0].start, dates[-1].end)
    first, second = sorted((ours_span, theirs_span))
    if not APPOSITION.fullmatch(text, first[1], second[0]):
        return ()
    theirs = _day_alone(dates, best.at.date(), now)
    ours = _day_alone(main_dates, theirs, now) if theirs is not None and all(map(_bare_weekday, main_dates)) \
        else best.at.date()
    if theirs is None or ours is None or theirs == ours:
        return ()
    return tuple(sorted(((ours_span, ours), (theirs_span, theirs))))
