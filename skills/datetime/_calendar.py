"""Chinese workdays and public holidays, from chinese-calendar (its data ends at the last published year)."""

from __future__ import annotations

from datetime import date, timedelta

import chinese_calendar as cc

HOLIDAY_NAMES = {
    "元旦": "New Year's Day", "春节": "Spring Festival", "过年": "Spring Festival",
    "清明": "Tomb-sweeping Day", "劳动节": "Labour Day", "五一": "Labour Day", "端午": "Dragon Boat Festival",
    "国庆": "National Day", "十一": "National Day", "中秋": "Mid-autumn Festival",
}
CN_NAME = {v: k for k, v in reversed(list(HOLIDAY_NAMES.items()))}
CN_NAME["New Year's Day"] = "元旦"
CN_NAME["Spring Festival"] = "春节"
CN_NAME["Labour Day"] = "劳动节"
CN_NAME["National Day"] = "国庆节"
CN_NAME["Mid-autumn Festival"] = "中秋节"
CN_NAME["Dragon Boat Festival"] = "端午节"
CN_NAME["Tomb-sweeping Day"] = "清明节"


class BeyondCalendar(Exception):
    """The date lies outside the years chinese-calendar has data for."""

    def __init__(self, day: date) -> None:
        super().__init__(f"no holiday data for {day.year}")
        self.day = day


def last_year_known() -> int:
    """The last year with published holiday arrangements in the installed data."""
    return int(max(d.year for d in cc.holidays))


def day_kind(day: date) -> tuple[str, str | None]:
    """('holiday'|'workday'|'weekend'|'makeup', holiday name) for ``day``; raises BeyondCalendar."""
    try:
        is_holiday, name = cc.get_holiday_detail(day)
    except NotImplementedError as exc:
        raise BeyondCalendar(day) from exc
    if is_holiday and name:
        return "holiday", CN_NAME.get(name, name)
    if is_holiday:
        return "weekend", None
    if day.weekday() >= 5:
        return "makeup", None  # a weekend day that is a working day (调休)
    return "workday", None


def holiday_days(english_name: str, start: date) -> list[date]:
    """The official days off of the next ``english_name`` holiday on or after ``start`` (known years only)."""
    end = date(last_year_known(), 12, 31)
    days: list[date] = []
    day = start
    while day <= end:
        on, name = cc.get_holiday_detail(day)
        if on and name == english_name:
            days.append(day)
        elif days:
            break
        day += timedelta(days=1)
    return days
