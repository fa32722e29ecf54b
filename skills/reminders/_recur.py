"""Next occurrence of a reminder's repeat rule, computed on the wall clock of the reminder's timezone."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from runtime.skill.parsers import next_occurrence

__all__ = ["next_after"]


def next_after(rule: str, first_due: datetime, tz: str, after: datetime) -> datetime | None:
    """The first occurrence of ``rule`` (started at ``first_due``) strictly after ``after``, in UTC.

    The rule runs on local wall-clock time, so "every day at 08:00" stays 08:00 across DST; lunar
    repeats (``X-LUNAR``, ``X-TERM``) follow the Chinese calendar.
    """
    zone = ZoneInfo(tz)
    found = next_occurrence(rule, first_due.astimezone(zone), after.astimezone(zone))
    return None if found is None else found.astimezone(UTC)
