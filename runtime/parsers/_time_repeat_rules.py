"""Rules for repeats that need more than one token: hourly repeats (in a window) and day ranges."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date, datetime, time, timedelta

from runtime.parsers._time_tokens import Token, clock_hour
from runtime.parsers.recurrence import next_occurrence

__all__ = ["hourly_rule", "range_rule", "repeat_first"]

MAX_RANGE_DAYS = 366
Candidates = Callable[[Token, date], Iterator[date]]


def repeat_first(rule: str, start: datetime, now: datetime) -> datetime | None:
    """The first occurrence after ``now`` of ``rule`` begun at ``start`` (today at the said time)."""
    return next_occurrence(rule, start, now)


def _minute_of_day(clock: Token) -> int | None:
    converted = clock_hour(clock.hour, clock.part)
    if converted is None or converted[1]:
        return None
    return converted[0] * 60 + clock.minute


def _window_rule(interval: int, window: Token, days: str) -> str | None:
    first, last = (_minute_of_day(c) for c in window.parts)
    if first is None or last is None:
        return None
    if last <= first and window.parts[1].part is None and window.parts[1].hour < 12:
        last += 12 * 60  # 9点到6点 (of the same day) is 09:00–18:00
    if last <= first:
        return None
    times = list(range(first, last + 1, interval))
    minutes = sorted({t % 60 for t in times})
    hours = sorted({t // 60 for t in times if all((t // 60) * 60 + m in times for m in minutes)})
    if not hours:
        return None
    freq = f"FREQ=WEEKLY;BYDAY={days}" if days else "FREQ=DAILY"
    return f"{freq};BYHOUR={','.join(map(str, hours))};BYMINUTE={','.join(map(str, minutes))};BYSECOND=0"


def hourly_rule(recur: Token, window: Token | None, clock_said: bool, at_time: time,
                now: datetime, days: str = "") -> tuple[datetime, str] | None:
    """(first occurrence, rule) of 每隔N小时 / 每N分钟, maybe within a window of the day, maybe on
    some weekdays only (``days``: ``MO,TU,WE,TH,FR``)."""
    interval = int(recur.minutes)
    if window is not None:
        rule = _window_rule(interval, window, days)
        if rule is None:
            return None
        midnight = datetime.combine(now.date(), time(0, 0), tzinfo=now.tzinfo)
        first = next_occurrence(rule, midnight, now)
        return None if first is None else (first, rule)
    rule = f"{recur.rrule};BYDAY={days}" if days else recur.rrule
    if clock_said:
        start = datetime.combine(now.date(), at_time, tzinfo=now.tzinfo)
        first = start if start > now and not days else next_occurrence(rule, start, now - timedelta(seconds=1))
    else:
        first = (now + timedelta(minutes=interval)).replace(second=0, microsecond=0)
        if days:
            first = next_occurrence(rule, first, first - timedelta(seconds=1))
    if first is not None and first <= now:
        first = next_occurrence(rule, first, now)
    return None if first is None else (first, rule)


def range_rule(day_range: Token, now: datetime, at_time: time, extra_days: int,
               candidates: Candidates) -> tuple[datetime, str | None] | None:
    """(first occurrence still ahead, ``FREQ=DAILY;COUNT=n`` for the days left) of 下周一到周五.

    When the whole range has passed, its first moment (in the past) and no rule.
    """
    first_token, last_token = day_range.parts
    today = now.date()
    past: datetime | None = None
    for tries, start in enumerate(candidates(first_token, today)):
        end = next((d for d in candidates(last_token, today) if d >= start), None)
        if end is None or (end - start).days >= MAX_RANGE_DAYS or tries > 3:
            return None if past is None else (past, None)
        days = (end - start).days + 1
        moments = [datetime.combine(start + timedelta(days=k + extra_days), at_time, tzinfo=now.tzinfo)
                   for k in range(days)]
        ahead = [m for m in moments if m > now]
        if ahead:
            return ahead[0], (f"FREQ=DAILY;COUNT={len(ahead)}" if len(ahead) > 1 else None)
        past = past or moments[0]
    return None if past is None else (past, None)
