"""Named days of the Chinese year: festivals (Gregorian, floating, lunar) and the 24 solar terms.

Each :class:`Festival` knows how to find its day in a given year; lunar dates and solar terms
come from :mod:`runtime.parsers.lunar` (lunar-python). Pure; no clock is read here.

Years: for a lunar festival ``lunar_year`` selects the festival of that lunar year (除夕 of
lunar 2026 falls on 5 February 2027); :func:`in_year` selects the one falling in a Gregorian year.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from enum import StrEnum

from runtime.parsers.lunar import (
    FIRST_YEAR,
    LAST_YEAR,
    SOLAR_TERMS,
    lunar_to_solar,
    solar_term_date,
    solar_to_lunar,
)

__all__ = ["FESTIVALS", "Festival", "Rule", "by_word", "festivals_on", "in_year", "occurrences", "WORDS"]


class Rule(StrEnum):
    """How a festival's day is found."""

    FIXED = "fixed"      # a Gregorian month and day
    NTH = "nth"          # the nth weekday of a Gregorian month (母亲节: 2nd Sunday of May)
    LUNAR = "lunar"      # a lunar month and day (day -1: the month's last day)
    TERM = "term"        # a solar term


@dataclass(frozen=True, slots=True)
class Festival:
    """A named day. ``words`` are what people call it; the first is the canonical name. ``things`` are
    its foods and objects (月饼, 元宵, 春联), ``customs`` what people do on it (赏月, 贴春联): said in a
    message they are what to remind of, not a second time (吃元宵, 中秋月饼, 腊八粥)."""

    words: tuple[str, ...]
    rule: Rule
    month: int = 0
    day: int = 0
    nth: int = 0
    weekday: int = 0     # 0 = Monday
    term: str = ""
    statutory: str = ""  # chinese-calendar's holiday name when it is a public holiday
    things: tuple[str, ...] = ()
    customs: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """The canonical Chinese name (中秋节)."""
        return self.words[0]

    def on(self, year: int) -> date | None:
        """Its day in ``year``: the Gregorian year, or for a lunar festival the lunar year."""
        if self.rule is Rule.FIXED:
            return date(year, self.month, self.day)
        if self.rule is Rule.NTH:
            first = date(year, self.month, 1)
            return first + timedelta(days=(self.weekday - first.weekday()) % 7 + 7 * (self.nth - 1))
        if self.rule is Rule.LUNAR:
            return lunar_to_solar(year, self.month, self.day)
        return solar_term_date(year, self.term)

    @property
    def lunar(self) -> bool:
        """Whether its year is a lunar year."""
        return self.rule is Rule.LUNAR


def _f(words: str, rule: Rule, things: str = "", customs: str = "", **values: object) -> Festival:
    return Festival(tuple(words.split()), rule, things=tuple(things.split()), customs=tuple(customs.split()),
                    **values)  # type: ignore[arg-type]


_FIXED = Rule.FIXED
_LUNAR = Rule.LUNAR
FESTIVALS: tuple[Festival, ...] = (
    _f("元旦 元旦节 新年元旦", _FIXED, month=1, day=1, statutory="New Year's Day"),
    _f("情人节 西方情人节", _FIXED, month=2, day=14),
    _f("妇女节 三八节 三八妇女节 女神节", _FIXED, month=3, day=8),
    _f("植树节", _FIXED, month=3, day=12),
    _f("愚人节", _FIXED, month=4, day=1),
    _f("劳动节 五一劳动节 五一节 五一", _FIXED, month=5, day=1, statutory="Labour Day"),
    _f("青年节 五四青年节", _FIXED, month=5, day=4),
    _f("儿童节 六一儿童节 六一", _FIXED, month=6, day=1),
    _f("建党节", _FIXED, month=7, day=1),
    _f("建军节 八一建军节", _FIXED, month=8, day=1),
    _f("教师节", _FIXED, month=9, day=10),
    _f("国庆节 国庆 十一黄金周 十一", _FIXED, month=10, day=1, statutory="National Day"),
    _f("万圣节", _FIXED, month=10, day=31),
    _f("双十一 光棍节", _FIXED, month=11, day=11),
    _f("双十二", _FIXED, month=12, day=12),
    _f("平安夜", _FIXED, month=12, day=24, things="苹果 平安果"),
    _f("圣诞节 圣诞", _FIXED, month=12, day=25, things="礼物 圣诞树 贺卡", customs="拆礼物"),
    _f("跨年夜", _FIXED, month=12, day=31),
    _f("母亲节", Rule.NTH, month=5, nth=2, weekday=6),
    _f("父亲节", Rule.NTH, month=6, nth=3, weekday=6),
    _f("感恩节", Rule.NTH, month=11, nth=4, weekday=3),
    _f("春节 大年初一 农历新年 过年 新春", _LUNAR, month=1, day=1, statutory="Spring Festival",
       things="春联 饺子 年糕 红包 压岁钱 年货 鞭炮 福字 联欢晚会", customs="贴春联 拜年 放鞭炮 发红包 逛庙会"),
    _f("元宵节 元宵 上元节", _LUNAR, month=1, day=15, things="元宵 汤圆 花灯 灯笼 灯会 灯谜",
       customs="闹元宵 猜灯谜 看花灯 赏花灯 逛灯会"),
    _f("龙抬头 二月二", _LUNAR, month=2, day=2),
    _f("端午节 端午 端阳节", _LUNAR, month=5, day=5, statutory="Dragon Boat Festival",
       things="粽子 咸鸭蛋 雄黄酒 艾草 龙舟 香囊", customs="包粽子 赛龙舟 划龙舟 挂艾草"),
    _f("七夕节 七夕 乞巧节 中国情人节", _LUNAR, month=7, day=7, things="礼物 巧果", customs="乞巧"),
    _f("中元节 中元 鬼节", _LUNAR, month=7, day=15),
    _f("中秋节 中秋 团圆节", _LUNAR, month=8, day=15, statutory="Mid-autumn Festival",
       things="月饼 礼盒", customs="赏月 拜月"),
    _f("重阳节 重阳 九九重阳节", _LUNAR, month=9, day=9, things="重阳糕 菊花酒", customs="登高 赏菊 敬老"),
    _f("腊八节 腊八", _LUNAR, month=12, day=8, things="腊八粥 腊八蒜", customs="泡腊八蒜"),
    _f("小年", _LUNAR, month=12, day=23, things="糖瓜 灶糖", customs="祭灶 扫尘"),  # the northern 小年 (south: 24th)
    _f("除夕 大年三十 年三十 大年夜 除夕夜", _LUNAR, month=12, day=-1, things="年夜饭 团圆饭 饺子 春联",
       customs="守岁 贴春联 包饺子 吃年夜饭"),
    _f("清明节 清明", Rule.TERM, term="清明", statutory="Tomb-sweeping Day", things="青团 清明粿 清明果",
       customs="扫墓 上坟 踏青 祭祖"),
    _f("冬至", Rule.TERM, term="冬至", things="饺子 汤圆"),
    *(_f(term, Rule.TERM, term=term) for term in SOLAR_TERMS if term not in ("清明", "冬至")),
)

WORDS: dict[str, Festival] = {word: f for f in FESTIVALS for word in f.words}
"""Every word naming a festival or solar term."""


def by_word(word: str) -> Festival | None:
    """The festival a word names (中秋 → 中秋节)."""
    return WORDS.get(word)


def occurrences(festival: Festival, start: date) -> Iterator[date]:
    """The festival's days on or after ``start``, in order, within the calendar's years."""
    if not FIRST_YEAR <= start.year <= LAST_YEAR:
        return
    first = solar_to_lunar(start).year - 1 if festival.lunar else start.year - 1
    for year in range(max(first, FIRST_YEAR), LAST_YEAR + 1):
        day = festival.on(year)
        if day is not None and day >= start:
            yield day


def in_year(festival: Festival, year: int) -> date | None:
    """The festival's first day falling in Gregorian ``year`` (None outside the calendar's years)."""
    for day in occurrences(festival, date(year, 1, 1)) if FIRST_YEAR <= year <= LAST_YEAR else ():
        return day if day.year == year else None
    return None


def festivals_on(day: date) -> list[Festival]:
    """The festivals (not solar terms) and solar terms that fall on ``day``."""
    if not FIRST_YEAR <= day.year <= LAST_YEAR:
        return []
    lunar_year = solar_to_lunar(day).year
    return [f for f in FESTIVALS if f.on(lunar_year if f.lunar else day.year) == day]
