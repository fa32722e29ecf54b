"""Next occurrence of an RFC 5545 rule, computed on the wall clock of the reminder's timezone."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr

__all__ = ["next_after"]


def next_after(rule: str, first_due: datetime, tz: str, after: datetime) -> datetime | None:
    """The first occurrence of ``rule`` (started at ``first_due``) strictly after ``after``, in UTC.

    The rule runs on local wall-clock time, so "every day at 08:00" stays 08:00 across DST.
    """
    zone = ZoneInfo(tz)
    start = first_due.astimezone(zone)
    found = rrulestr(rule, dtstart=start).after(after.astimezone(zone))
    return None if found is None else found.astimezone(UTC)
