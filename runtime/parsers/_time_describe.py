"""Chinese readings of a moment (12月3日（周四）07:00) and of the repeat rules the parser produces."""

from __future__ import annotations

from datetime import datetime, timedelta

from runtime.parsers.lunar import LunarDate

__all__ = ["WEEKDAY_NAMES", "describe_rrule", "format_when"]

WEEKDAY_NAMES = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")
_BYDAY = {"MO": 0, "TU": 1, "WE": 2, "TH": 3, "FR": 4, "SA": 5, "SU": 6}


def format_when(dt: datetime, now: datetime | None = None) -> str:
    """``12月3日（周四）07:00`` in ``dt``'s own timezone; with the year when it is ten months or more after
    ``now`` (明年今天 is not next week's 6月2日)."""
    year = f"{dt.year}年" if now is not None and (dt - now).days >= 300 else ""
    return f"{year}{dt.month}月{dt.day}日（{WEEKDAY_NAMES[dt.weekday()]}）{dt:%H:%M}"


def _lunar_spec(spec: str) -> str:
    if "," in spec:  # */1,*/15: every lunar month's 初一 and 十五
        days = [LunarDate(2000, 1, int(s.partition("/")[2])).day_name for s in spec.split(",")]
        return f"每月农历{'、'.join(days)}"
    month, _, day = spec.partition("/")
    day_name = "最后一天" if day == "-1" else LunarDate(2000, 1, int(day)).day_name
    if month == "*":
        return f"每月农历{day_name}"
    if (month, day) == ("12", "-1"):
        return "每年除夕"
    return f"每年农历{LunarDate(2000, int(month), 1).month_name}{day_name}"


def _hours(parts: dict[str, str]) -> str:
    hours = [int(h) for h in parts["BYHOUR"].split(",")]
    minutes = [int(m) for m in parts.get("BYMINUTE", "0").split(",")]
    times = [h * 60 + m for h in hours for m in minutes]
    step = times[1] - times[0] if len(times) > 1 else 0
    span = f"{times[0] // 60:02d}:{times[0] % 60:02d}–{times[-1] // 60:02d}:{times[-1] % 60:02d}"
    every = f"{step // 60}小时" if step and step % 60 == 0 else f"{step}分钟"
    return f"{span}每{every}" if step else f" {span}"


def _weekly(parts: dict[str, str], clock: str) -> str:
    days = [d for d in parts.get("BYDAY", "").split(",") if d in _BYDAY]
    when = _hours(parts) if "BYHOUR" in parts else f" {clock}"
    if days == ["MO", "TU", "WE", "TH", "FR"]:
        return f"工作日{when}"
    if days == ["SA", "SU"]:
        return f"每周末{when}"
    names = "、".join(WEEKDAY_NAMES[_BYDAY[d]][1] for d in days)
    return f"每周{names}{when}"


def _daily(parts: dict[str, str], at: datetime, clock: str) -> str:
    if "BYHOUR" in parts:
        return f"每天{_hours(parts)}"
    interval = parts.get("INTERVAL")
    if "COUNT" in parts:
        last = at + timedelta(days=int(parts["COUNT"]) - 1)
        return f"{at.month}月{at.day}日到{last.month}月{last.day}日每天 {clock}"
    return f"每{interval}天 {clock}" if interval and interval != "1" else f"每天 {clock}"


def describe_rrule(rrule: str, at: datetime) -> str:
    """A short Chinese reading of a rule this parser produces: 每天 08:00 / 工作日 / 每年中秋 / 每2小时."""
    parts = dict(p.split("=", 1) for p in rrule.split(";") if "=" in p)
    clock = f"{at:%H:%M}"
    freq = parts.get("FREQ")
    if "X-LUNAR" in parts:
        return f"{_lunar_spec(parts['X-LUNAR'])} {clock}"
    if "X-TERM" in parts:
        return f"每年{parts['X-TERM']} {clock}"
    days = "工作日" if parts.get("BYDAY") == "MO,TU,WE,TH,FR" else ""
    if freq == "HOURLY":
        hours = parts.get("INTERVAL", "1")
        return days + ("每小时" if hours == "1" else f"每{hours}小时")
    if freq == "MINUTELY":
        return f"{days}每{parts.get('INTERVAL', '1')}分钟"
    if freq == "DAILY":
        return _daily(parts, at, clock)
    if freq == "WEEKLY":
        return _weekly(parts, clock)
    if freq == "MONTHLY":
        day = parts.get("BYMONTHDAY", str(at.day))
        return f"每月最后一天 {clock}" if day == "-1" else f"每月{day}号 {clock}"
    if freq == "YEARLY":
        month = parts.get("BYMONTH", str(at.month))
        byday = parts.get("BYDAY")
        if byday:
            return f"每年{month}月第{byday[:-2]}个{WEEKDAY_NAMES[_BYDAY[byday[-2:]]]} {clock}"
        return f"每年{month}月{parts.get('BYMONTHDAY', at.day)}日 {clock}"
    return f"重复 {clock}"
