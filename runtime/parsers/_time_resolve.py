"""Groups time tokens into phrases and resolves a phrase against ``now`` (pure)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta

from runtime.parsers._time_dates import day_candidates
from runtime.parsers._time_repeat_rules import hourly_rule, range_rule, repeat_first
from runtime.parsers._time_scan import DATE_KINDS
from runtime.parsers._time_tokens import Kind, Token, clock_hour
from runtime.parsers.day_parts import DAY_CLOCK, clock_of

__all__ = ["Resolved", "group", "resolve"]

_GAP = re.compile(r"[\s的]*")
Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Resolved:
    """A resolved phrase: first occurrence, rule, whether a clock time was said, its span.

    ``loose`` are the spans of tokens in the phrase that could not be applied (a vague 春节前,
    前一天 with no day to count from); ``timer`` marks a timer (10分钟计时器); ``assumed`` the spans
    whose conventional meaning was taken, with what was taken: a part of the day's hour (its
    :class:`Part` value), ``month-end`` (月底: the last day) or ``weekend`` (下周末: the Saturday).
    """

    at: datetime
    rrule: str | None
    has_time: bool
    span: Span
    loose: tuple[Span, ...] = ()
    timer: bool = False
    assumed: tuple[tuple[Span, str], ...] = ()


def _slots(token: Token) -> set[str]:
    if token.kind is Kind.WINDOW:
        return {"clock", "part"}
    if token.kind is Kind.RANGE:
        return {"date", "range"}
    slots = {"date" if token.kind in DATE_KINDS else token.kind.value}
    if token.part is not None and token.kind is not Kind.PART:
        slots.add("part")
    if token.kind is Kind.DELTA:
        slots |= {"date", "part", "clock", "recur", "offset"}
    if token.kind is Kind.RECUR:
        return {"hourly"} if token.minutes else {"recur", "date"}
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
            # an offset counts from the day before it (国庆前两天), never from one after it
            dated = any(t.kind in DATE_KINDS or t.kind is Kind.RANGE for t in groups[-1])
            offset_first = groups[-1][0].kind is Kind.OFFSET
            if ((token.kind is Kind.OFFSET and not dated) or (offset_first and "date" in slots)):
                pass
            elif _GAP.fullmatch(gap) and not (used & slots):
                groups[-1].append(token)
                used |= slots
                continue
        groups.append([token])
        used = set(slots)
    return groups


@dataclass(frozen=True, slots=True)
class _Clock:
    hour: int
    minute: int
    extra_days: int
    said: bool          # a clock time (not just a part of day) was said
    ambiguous: bool     # 1-11 o'clock with no part of day


def _clock(phrase: list[Token]) -> _Clock | None:
    by_kind = {t.kind: t for t in phrase}
    part = next((t.part for t in phrase if t.part is not None and t.kind is not Kind.OFFSET), None)
    offset_part = next((t.part for t in phrase if t.kind is Kind.OFFSET and t.part is not None), None)
    part = part or offset_part
    clock = by_kind.get(Kind.CLOCK)
    window = by_kind.get(Kind.WINDOW)
    if window is not None:
        clock = window.parts[0]
        part = clock.part or part
    if clock is None:
        usual = clock_of(part) if part is not None else DAY_CLOCK
        return _Clock(usual.hour, usual.minute, 0, False, False)
    converted = clock_hour(clock.hour, part)
    if converted is None:
        return None
    return _Clock(converted[0], clock.minute, converted[1], True, part is None)


def _assumed(phrase: list[Token], clock: _Clock) -> tuple[tuple[Span, str], ...]:
    """What the phrase leaves to convention: the hour of a part of the day said without a clock time,
    the day of 月底 and of a weekend said with its week."""
    found: list[tuple[Span, str]] = []
    parted = [t for t in phrase if t.part is not None and t.kind is not Kind.OFFSET] \
        or [t for t in phrase if t.part is not None]
    if not clock.said and parted and parted[0].part is not None:
        found.append(((parted[0].start, parted[0].end), parted[0].part.value))
    for t in phrase:
        if t.kind is Kind.NAMED and t.name.startswith("month:end") or (t.kind is Kind.WEEK and t.name == "weekend"):
            found.append(((t.start, t.end), "month-end" if t.kind is Kind.NAMED else "weekend"))
    return tuple(sorted(found))


def _loose(phrase: list[Token], has_date: bool, has_clock: bool) -> tuple[tuple[int, int], ...]:
    """Offsets that cannot be applied: vague ones, and day offsets with no day to count from."""
    start = phrase[0].start
    return tuple((start if t.weak else t.start, t.end) for t in phrase if t.kind is Kind.OFFSET
                 and (t.weak or (not has_date and not (t.minutes and has_clock))))


def resolve(phrase: list[Token], now: datetime) -> Resolved | None:
    """Resolve one phrase against ``now`` (aware, the user's timezone); None if it names no moment."""
    span = (phrase[0].start, phrase[-1].end)
    by_kind = {t.kind: t for t in phrase}
    delta = by_kind.get(Kind.DELTA)
    if delta is not None:
        at = (now + timedelta(minutes=delta.minutes)).replace(microsecond=0)
        return Resolved(at, None, True, span, timer=delta.name == "timer")
    if Kind.PART in by_kind and all(t.weak for t in phrase if t.kind is Kind.PART) \
            and Kind.CLOCK not in by_kind and Kind.WINDOW not in by_kind:
        return None
    if all(t.weak for t in phrase) and Kind.CLOCK in by_kind:
        return None  # "一点" alone, "晚一点": "a little (later)" far more often than "1 o'clock"
    if Kind.OFFSET in by_kind and all(t.kind in (Kind.OFFSET, Kind.PART) for t in phrase):
        return None  # 前一天 / 当天晚上 with no day to count from
    clock = _clock(phrase)
    if clock is None:
        return None
    found = _resolve(phrase, by_kind, clock, now, span)
    return None if found is None else replace(found, assumed=_assumed(phrase, clock))


def _resolve(phrase: list[Token], by_kind: dict[Kind, Token], clock: _Clock, now: datetime,
             span: Span) -> Resolved | None:
    date_token = next((t for t in phrase if t.kind in DATE_KINDS), None)
    offset = next((t for t in phrase if t.kind is Kind.OFFSET and not t.weak), None)
    loose = _loose(phrase, date_token is not None or Kind.RANGE in by_kind, clock.said)
    shift = timedelta(days=offset.offset if offset else 0, minutes=offset.minutes if offset else 0)
    at_time = time(clock.hour, clock.minute)
    if Kind.RECUR in by_kind:
        return _repeat(phrase, by_kind, clock, at_time, now, span, loose)
    day_range = by_kind.get(Kind.RANGE)
    if day_range is not None:
        found = range_rule(day_range, now, at_time, clock.extra_days, day_candidates)
        return None if found is None else Resolved(found[0], found[1], clock.said, span, loose)
    if date_token is None:  # a day offset with no day to count from is loose, not applied
        return _bare(now, clock, timedelta(minutes=offset.minutes if offset else 0), span, loose)
    start = now.date()
    if date_token.kind is Kind.NAMED and shift.days > 0:
        start -= timedelta(days=shift.days)  # 元旦后两天 said on 2 January is the 3rd, not next year's
    first: datetime | None = None
    for day in day_candidates(date_token, start):
        at = datetime.combine(day + timedelta(days=clock.extra_days), at_time, tzinfo=now.tzinfo) + shift
        if first is None:
            first = at
        if at > now:
            return Resolved(at, None, clock.said, span, loose)
    return None if first is None else Resolved(first, None, clock.said, span, loose)


def _repeat(phrase: list[Token], by_kind: dict[Kind, Token], clock: _Clock, at_time: time, now: datetime,
            span: tuple[int, int], loose: tuple[tuple[int, int], ...]) -> Resolved | None:
    hourly = next((t for t in phrase if t.kind is Kind.RECUR and t.minutes), None)
    recur = next((t for t in phrase if t.kind is Kind.RECUR and not t.minutes), None)
    if hourly is not None:
        days = recur.rrule.partition("BYDAY=")[2] if recur is not None and "FREQ=WEEKLY" in recur.rrule else ""
        found = hourly_rule(hourly, by_kind.get(Kind.WINDOW), by_kind.get(Kind.CLOCK) is not None, at_time, now,
                            days)
        return None if found is None else Resolved(found[0], found[1], True, span, loose)
    assert recur is not None
    first = repeat_first(recur.rrule, datetime.combine(now.date(), at_time, tzinfo=now.tzinfo), now)
    return None if first is None else Resolved(first, recur.rrule, clock.said, span, loose)


def _bare(now: datetime, clock: _Clock, shift: timedelta, span: tuple[int, int],
          loose: tuple[tuple[int, int], ...]) -> Resolved:
    """A time with no date: today, or its next occurrence once passed (1-11 o'clock may mean pm)."""
    day: date = now.date() + timedelta(days=clock.extra_days)
    base = datetime.combine(day, time(clock.hour, clock.minute), tzinfo=now.tzinfo)
    options = [base, base + timedelta(days=1)]
    if clock.ambiguous and 1 <= clock.hour <= 11:
        options.append(base + timedelta(hours=12))
    ahead = [o for o in options if o + shift > now]
    at = (min(ahead) if ahead else options[-1] + timedelta(days=1)) + shift
    return Resolved(at, None, clock.said, span, loose)
