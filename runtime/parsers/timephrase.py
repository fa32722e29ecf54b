"""Chinese time phrases → a moment (and maybe an RFC 5545 rule), resolved against the user's clock.

Pure: no I/O, no ``datetime.now()``. ``now`` is the turn's clock in the user's timezone.

>>> from datetime import datetime
>>> from zoneinfo import ZoneInfo
>>> now = datetime(2026, 12, 1, 20, 0, tzinfo=ZoneInfo("Asia/Shanghai"))  # a Tuesday
>>> e = parse_time_phrase("后天早上7点提醒我带伞", now)
>>> format_when(e.at), e.span
('12月3日（周四）07:00', (0, 6))

Rules: a date without a clock time means 09:00 (a part of day alone means its usual hour);
a time without a date that has already passed today means its next occurrence (and 1-11
o'clock without 上午/下午 means whichever of am/pm comes first); 下午/晚上 + 1-11 means pm.
See ``skills/reminders/README-time.md`` for every phrase understood.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from runtime.parsers._time_resolve import Resolved, group, resolve
from runtime.parsers._time_tokens import tokenize

__all__ = ["TimeExpr", "describe_rrule", "format_when", "parse_time_phrase", "time_spans"]

WEEKDAY_NAMES = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")
_BYDAY = {"MO": 0, "TU": 1, "WE": 2, "TH": 3, "FR": 4, "SA": 5, "SU": 6}


@dataclass(frozen=True, slots=True)
class TimeExpr:
    """A resolved time phrase.

    ``at`` is the first occurrence (aware, user's timezone); ``rrule`` an RFC 5545 rule without
    DTSTART (``at`` is the start) or None; ``has_time`` whether a clock time or a duration was
    said; ``span`` the characters of the phrase in the text (strip them to get the content).
    """

    at: datetime
    rrule: str | None = None
    has_time: bool = True
    span: tuple[int, int] = (0, 0)

    def to_param(self) -> dict[str, Any]:
        """A JSON-serialisable form (slot params)."""
        return {"at": self.at.isoformat(), "rrule": self.rrule, "has_time": self.has_time,
                "span": [self.span[0], self.span[1]]}

    @classmethod
    def from_param(cls, param: dict[str, Any]) -> TimeExpr:
        """The inverse of :meth:`to_param`; raises ``ValueError`` on a malformed or naive value."""
        at = datetime.fromisoformat(str(param["at"]))
        if at.tzinfo is None:
            raise ValueError("TimeExpr.at must be timezone-aware")
        span = param.get("span") or (0, 0)
        return cls(at=at, rrule=param.get("rrule") or None, has_time=bool(param.get("has_time", True)),
                   span=(int(span[0]), int(span[1])))


def _resolved(text: str, now: datetime) -> list[Resolved]:
    return [r for phrase in group(text, tokenize(text)) if (r := resolve(phrase, now)) is not None]


def parse_time_phrase(text: str, now: datetime) -> TimeExpr | None:
    """The time phrase in ``text`` resolved against ``now`` (aware); None when there is none.

    When the text holds several phrases, the most complete one wins (ties: the first).
    """
    if now.tzinfo is None:
        raise ValueError("parse_time_phrase needs an aware 'now' in the user's timezone")
    found = _resolved(text, now)
    if not found:
        return None
    best = max(found, key=lambda r: (r.span[1] - r.span[0], -r.span[0]))
    return TimeExpr(best.at, best.rrule, best.has_time, best.span)


def time_spans(text: str) -> list[tuple[int, int]]:
    """Spans of every time phrase in ``text`` (independent of the clock), left to right."""
    probe = datetime.fromisoformat("2000-01-03T12:00:00+00:00")
    return [r.span for r in _resolved(text, probe)]


def format_when(dt: datetime) -> str:
    """``12月3日（周四）07:00`` in ``dt``'s own timezone."""
    return f"{dt.month}月{dt.day}日（{WEEKDAY_NAMES[dt.weekday()]}）{dt:%H:%M}"


def describe_rrule(rrule: str, at: datetime) -> str:
    """A short Chinese reading of a rule this parser produces: 每天 08:00 / 工作日 / 每周一、三 / 每月1号."""
    parts = dict(p.split("=", 1) for p in rrule.split(";") if "=" in p)
    clock = f"{at:%H:%M}"
    freq = parts.get("FREQ")
    if freq == "DAILY":
        interval = parts.get("INTERVAL")
        return f"每{interval}天 {clock}" if interval and interval != "1" else f"每天 {clock}"
    if freq == "WEEKLY":
        days = [d for d in parts.get("BYDAY", "").split(",") if d in _BYDAY]
        if days == ["MO", "TU", "WE", "TH", "FR"]:
            return f"工作日 {clock}"
        if days == ["SA", "SU"]:
            return f"每周末 {clock}"
        names = "、".join(WEEKDAY_NAMES[_BYDAY[d]][1] for d in days)
        return f"每周{names} {clock}"
    if freq == "MONTHLY":
        day = parts.get("BYMONTHDAY", str(at.day))
        return f"每月最后一天 {clock}" if day == "-1" else f"每月{day}号 {clock}"
    if freq == "YEARLY":
        return f"每年{parts.get('BYMONTH', at.month)}月{parts.get('BYMONTHDAY', at.day)}日 {clock}"
    return f"重复 {clock}"
