"""The Chinese lunisolar calendar and the 24 solar terms, as typed pure functions over lunar-python.

lunar-python (6tail) does the astronomy and the month tables; this module only converts its
objects into small frozen values and caches per year. A lunar month is ``(month, leap)``:
``leap`` marks the intercalary month (闰月) that follows the regular month of the same number.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from lunar_python import Lunar, LunarMonth, LunarYear, Solar

__all__ = [
    "FIRST_YEAR", "LAST_YEAR", "SOLAR_TERMS", "LunarDate", "days_in_lunar_month", "leap_month", "lunar_to_solar", "solar_term_date",
    "lunar_new_year", "next_solar_term", "solar_term_on", "solar_to_lunar",
]

SOLAR_TERMS = ("小寒", "大寒", "立春", "雨水", "惊蛰", "春分", "清明", "谷雨", "立夏", "小满", "芒种", "夏至",
               "小暑", "大暑", "立秋", "处暑", "白露", "秋分", "寒露", "霜降", "立冬", "小雪", "大雪", "冬至")
"""The 24 solar terms in the order they fall in a Gregorian year."""

_PINYIN = {"DA_XUE": "大雪", "DONG_ZHI": "冬至", "XIAO_HAN": "小寒", "DA_HAN": "大寒", "LI_CHUN": "立春",
           "YU_SHUI": "雨水", "JING_ZHE": "惊蛰"}
_MONTHS = ("正", "二", "三", "四", "五", "六", "七", "八", "九", "十", "冬", "腊")
FIRST_YEAR, LAST_YEAR = 1901, 2099
"""The years this module answers for (the library goes further; tests cover these)."""


@dataclass(frozen=True, slots=True)
class LunarDate:
    """A day of the lunar calendar: lunar year, month 1-12 (``leap`` for 闰月), day 1-30."""

    year: int
    month: int
    day: int
    leap: bool = False
    ganzhi: str = ""     # 丙午 (the year's stem and branch)
    zodiac: str = ""     # 马

    @property
    def month_name(self) -> str:
        """正月 / 闰六月 / 冬月 / 腊月."""
        return ("闰" if self.leap else "") + _MONTHS[self.month - 1] + "月"

    @property
    def day_name(self) -> str:
        """初一 … 初十, 十一 … 二十, 廿一 … 廿九, 三十."""
        special = {10: "初十", 20: "二十", 30: "三十"}
        if self.day in special:
            return special[self.day]
        return ("初", "十", "廿")[self.day // 10] + "一二三四五六七八九"[self.day % 10 - 1]

    def __str__(self) -> str:
        return f"农历{self.month_name}{self.day_name}"


def _in_range(year: int) -> bool:
    return FIRST_YEAR <= year <= LAST_YEAR


@lru_cache(maxsize=4096)
def solar_to_lunar(day: date) -> LunarDate:
    """The lunar date of a Gregorian day (1901-2099); raises ``ValueError`` outside that range."""
    if not _in_range(day.year):
        raise ValueError(f"no lunar calendar for {day.year}")
    lunar = Solar.fromYmd(day.year, day.month, day.day).getLunar()
    month = int(lunar.getMonth())
    return LunarDate(int(lunar.getYear()), abs(month), int(lunar.getDay()), month < 0,
                     str(lunar.getYearInGanZhi()), str(lunar.getYearShengXiao()))


@lru_cache(maxsize=512)
def leap_month(year: int) -> int:
    """The month number followed by a leap month in lunar ``year`` (0 when none)."""
    return int(LunarYear.fromYear(year).getLeapMonth()) if _in_range(year) else 0


@lru_cache(maxsize=4096)
def days_in_lunar_month(year: int, month: int, leap: bool = False) -> int:
    """29 or 30; 0 when that month does not exist (a leap month in a year without it)."""
    if not _in_range(year) or not 1 <= month <= 12 or (leap and leap_month(year) != month):
        return 0
    found = LunarMonth.fromYm(year, -month if leap else month)
    return 0 if found is None else int(found.getDayCount())


@lru_cache(maxsize=4096)
def lunar_to_solar(year: int, month: int, day: int, leap: bool = False) -> date | None:
    """The Gregorian day of a lunar date; ``day=-1`` is the month's last day. None if no such day."""
    length = days_in_lunar_month(year, month, leap)
    if day == -1:
        day = length
    if not 1 <= day <= length:
        return None
    solar = Lunar.fromYmd(year, -month if leap else month, day).getSolar()
    return date(int(solar.getYear()), int(solar.getMonth()), int(solar.getDay()))


@lru_cache(maxsize=256)
def _terms(year: int) -> dict[str, date]:
    """Every solar term that falls in Gregorian ``year``."""
    found: dict[str, date] = {}
    for lunar_year in (year, year + 1):
        table = Lunar.fromYmd(lunar_year, 1, 1).getJieQiTable()
        for key, solar in table.items():
            name = _PINYIN.get(str(key), str(key))
            day = date(int(solar.getYear()), int(solar.getMonth()), int(solar.getDay()))
            if day.year == year:
                found[name] = day
    return found


def solar_term_date(year: int, name: str) -> date | None:
    """The day solar term ``name`` (清明, 冬至, …) falls on in Gregorian ``year``."""
    if name not in SOLAR_TERMS or not _in_range(year):
        return None
    return _terms(year).get(name)


def solar_term_on(day: date) -> str | None:
    """The solar term that begins on ``day``, if any."""
    if not _in_range(day.year):
        return None
    return next((name for name, d in _terms(day.year).items() if d == day), None)


def next_solar_term(day: date) -> tuple[str, date] | None:
    """The first solar term on or after ``day``."""
    for year in (day.year, day.year + 1):
        if not _in_range(year):
            return None
        ahead = sorted((d, n) for n, d in _terms(year).items() if d >= day)
        if ahead:
            return ahead[0][1], ahead[0][0]
    return None


def lunar_new_year(year: int) -> date | None:
    """正月初一 of lunar ``year``."""
    return lunar_to_solar(year, 1, 1)
