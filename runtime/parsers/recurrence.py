"""Expanding a reminder's repeat rule: RFC 5545 (python-dateutil) plus two lunar-calendar extensions.

``FREQ=YEARLY;X-LUNAR=8/15`` repeats on lunar month 8, day 15 (day -1: the month's last day,
so ``12/-1`` is 除夕); ``FREQ=MONTHLY;X-LUNAR=*/1`` on every lunar month's first day (a leap month
too), ``X-LUNAR=*/1,*/15`` on its first and fifteenth; ``FREQ=YEARLY;X-TERM=冬至`` on a solar term. Wall-clock time of ``start`` is kept.
Everything else goes to dateutil unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime

from dateutil.rrule import rrulestr

from runtime.parsers.lunar import FIRST_YEAR, LAST_YEAR, lunar_to_solar, solar_term_date, solar_to_lunar

__all__ = ["is_calendar_rule", "next_occurrence", "rule_parts"]


def rule_parts(rule: str) -> dict[str, str]:
    """``FREQ=YEARLY;X-LUNAR=8/15`` → ``{"FREQ": "YEARLY", "X-LUNAR": "8/15"}``."""
    return dict(p.split("=", 1) for p in rule.split(";") if "=" in p)


def is_calendar_rule(rule: str) -> bool:
    """Whether ``rule`` uses the lunar or solar-term extension."""
    parts = rule_parts(rule)
    return "X-LUNAR" in parts or "X-TERM" in parts


def _lunar_days(spec: str, start: date) -> Iterator[date]:
    """The days of ``spec`` (one or several, comma-separated: ``*/1,*/15``) from ``start``, in order."""
    specs = spec.split(",")
    if len(specs) > 1:  # several days of each month: the next of each, in turn
        heads = {s: _lunar_days(s, start) for s in specs}
        ahead = {s: next(days, None) for s, days in heads.items()}
        while any(d is not None for d in ahead.values()):
            spec_, soonest = min(((s, d) for s, d in ahead.items() if d is not None), key=lambda sd: sd[1])
            yield soonest
            ahead[spec_] = next(heads[spec_], None)
        return
    month_s, _, day_s = spec.partition("/")
    day = int(day_s)
    first = solar_to_lunar(start).year - 1
    for year in range(first, LAST_YEAR + 1):
        months = [(int(month_s), False)] if month_s != "*" else [(m, lp) for m in range(1, 13) for lp in (False, True)]
        for month, leap in months:
            found = lunar_to_solar(year, month, day, leap)
            if found is not None and found >= start:
                yield found


def _term_days(term: str, start: date) -> Iterator[date]:
    for year in range(start.year, LAST_YEAR + 1):
        found = solar_term_date(year, term)
        if found is not None and found >= start:
            yield found


def next_occurrence(rule: str, start: datetime, after: datetime) -> datetime | None:
    """The first occurrence of ``rule`` begun at ``start`` (aware) that is strictly after ``after``."""
    parts = rule_parts(rule)
    if "X-LUNAR" not in parts and "X-TERM" not in parts:
        found = rrulestr(rule, dtstart=start).after(after.astimezone(start.tzinfo))
        return found if isinstance(found, datetime) else None
    local_after = after.astimezone(start.tzinfo)
    begin = max(start.date(), local_after.date())
    if not FIRST_YEAR <= begin.year <= LAST_YEAR:
        return None
    days = _lunar_days(parts["X-LUNAR"], begin) if "X-LUNAR" in parts else _term_days(parts["X-TERM"], begin)
    for day in days:
        moment = datetime.combine(day, start.timetz())
        if moment > local_after and moment >= start:
            return moment
    return None
