"""Tokens for named days: festivals, solar terms, lunar dates, 月底/年初, and offsets from them.

A NAMED token carries ``name``, a key resolved by :func:`named_days`:
``fest:中秋节`` · ``lunar:8:15:0`` (month 0 = any month, day -1 = last, last field 1 = leap) ·
``month:end:1`` (下个月底; ``first``/``mid``/``end``/``last``: 月底 is taken as the last day, 最后一天 is said;
offset ``*`` = the next one) · ``year:last:*``.
``year`` is None (the next one), -1 今年, -2 明年, -3 后年 or a Gregorian year.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterator
from datetime import date

from runtime.parsers import festivals
from runtime.parsers._time_tokens import Kind, Part, Token, cn_int, rule, tok
from runtime.parsers.lunar import lunar_to_solar, solar_to_lunar

__all__ = ["LUNAR_DAY", "LUNAR_MONTH", "named_days", "lunar_day_number", "lunar_month_number"]

_YEAR = r"(?:(?P<y>\d{4}|今|明|后)年(?:的)?)?"
_NUMERIC_WORDS = re.compile(r"[一二三四五六七八九十月]+")
# a festival word made only of numerals (五一, 十一, 六一) is a date only when it stands alone
_NUM_AROUND = re.compile(r"[\d零〇一二两三四五六七八九十百月号日点个岁楼路层]")
# solar terms that double as weather words (明天大雪) count only when nothing else names the day
_WEATHER_TERMS = frozenset({"小雪", "大雪", "小寒", "大寒", "小暑", "大暑", "雨水", "白露", "霜降", "谷雨"})

LUNAR_MONTH = r"(?P<leap>闰)?(?P<m>正|冬|腊|十一|十二|十|[一二三四五六七八九]|1[0-2]|[1-9])月(?:份)?"
LUNAR_DAY = (r"(?P<d>初[一二三四五六七八九十]|廿[一二三四五六七八九]|二十[一二三四五六七八九]?|三十|十[一二三四五六七八九]?"
             r"|[一二三四五六七八九]|[12]\d|30|[1-9])")
_FAMOUS = {(2, 2), (5, 5), (7, 7), (7, 15), (8, 15), (9, 9)}  # 八月十五 said without 农历 is still lunar


def lunar_month_number(raw: str) -> int | None:
    """正 → 1, 冬 → 11, 腊 → 12, 八 → 8, 12 → 12."""
    value = {"正": 1, "冬": 11, "腊": 12}.get(raw) or cn_int(raw)
    return value if value is not None and 1 <= value <= 12 else None


def lunar_day_number(raw: str) -> int | None:
    """初八 → 8, 十五 → 15, 廿三 → 23, 三十 → 30."""
    if raw.startswith("初"):
        return cn_int(raw[1:])
    if raw.startswith("廿"):
        return 20 + (cn_int(raw[1:]) or 0)
    value = cn_int(raw)
    return value if value is not None and 1 <= value <= 30 else None


def _year(m: re.Match[str]) -> int | None:
    raw = m.group("y")
    return None if raw is None else {"今": -1, "明": -2, "后": -3}.get(raw) or int(raw)


def _standalone(m: re.Match[str], start: int, end: int) -> bool:
    text = m.string
    before = text[start - 1] if start > 0 else ""
    after = text[end] if end < len(text) else ""
    return not (_NUM_AROUND.fullmatch(before or "x") or _NUM_AROUND.fullmatch(after or "x"))


_WORDS = "|".join(sorted(map(re.escape, festivals.WORDS), key=len, reverse=True))


@rule(rf"{_YEAR}(?P<w>{_WORDS})")
def _festival(m: re.Match[str]) -> Token | None:
    word = m.group("w")
    if _NUMERIC_WORDS.fullmatch(word) and not _standalone(m, m.start("w"), m.end("w")):
        return None
    festival = festivals.by_word(word)
    if festival is None:
        return None
    return tok(m, Kind.NAMED, name=f"fest:{festival.name}", year=_year(m), weak=word in _WEATHER_TERMS)


@rule(rf"{_YEAR}(?P<cal>农历|阴历|旧历)?{LUNAR_MONTH}(?:的)?{LUNAR_DAY}(?P<unit>号|日)?")
def _lunar_date(m: re.Match[str]) -> Token | None:
    month, day = lunar_month_number(m.group("m")), lunar_day_number(m.group("d"))
    if month is None or day is None:
        return None
    raw_m, raw_d = m.group("m"), m.group("d")
    lunar = (m.group("cal") or m.group("leap") or raw_m in "正冬腊" or raw_d[0] in "初廿"
             or ((month, day) in _FAMOUS and not m.group("unit") and not raw_m.isdigit() and not raw_d.isdigit()))
    if not lunar:
        return None
    return tok(m, Kind.NAMED, name=f"lunar:{month}:{day}:{int(bool(m.group('leap')))}", year=_year(m))


@rule(r"(?:大年|(?:农历|阴历)(?:的)?)(?P<d>初[一二三四五六七八九十]|廿[一二三四五六七八九]|二十[一二三四五六七八九]?|三十"
      r"|十[一二三四五六七八九]?)")
def _lunar_new_year_day(m: re.Match[str]) -> Token | None:
    day = lunar_day_number(m.group("d"))
    month = 1 if m.group(0).startswith("大年") else 0
    return None if day is None else tok(m, Kind.NAMED, name=f"lunar:{month}:{day}:0")


@rule(r"(?<![月年])初(?P<d>[一二三四五六七八九十])(?![中级高一二三])")
def _lunar_bare_day(m: re.Match[str]) -> Token | None:
    day = cn_int(m.group("d"))
    return None if day is None else tok(m, Kind.NAMED, name=f"lunar:0:{day}:0")


@rule(r"(?:(?P<rel>下下个?|下个?|这个?|本|当)月(?:的)?(?P<w1>月?初|月?中|月?底|月?末|最后一天|第一天)"
      r"|(?P<w2>月初|月中|月底|月末))")
def _month_part(m: re.Match[str]) -> Token:
    which = (m.group("w1") or m.group("w2")).lstrip("月")
    part = {"初": "first", "第一天": "first", "中": "mid", "底": "end", "末": "end", "最后一天": "last"}[which]
    rel = (m.group("rel") or "").rstrip("个")
    offset = {"": "*", "这": "0", "本": "0", "当": "0", "下": "1", "下下": "2"}[rel]
    return tok(m, Kind.NAMED, name=f"month:{part}:{offset}")


@rule(r"(?:(?P<y>今|明|后)年(?:的)?)?年(?P<w>底|末|初|尾)(?!奖|会|终)")
def _year_part(m: re.Match[str]) -> Token:
    part = "first" if m.group("w") == "初" else "last"
    return tok(m, Kind.NAMED, name=f"year:{part}:*", year=_year(m))


_UNIT_DAYS = {"天": 1, "日": 1, "晚": 1, "周": 7, "星期": 7, "礼拜": 7}


@rule(r"(?:的)?(?<!最)(?P<pre>提前|前|后)(?P<n>[0-9一二两三四五六七八九十]+|半)个?"
      r"(?P<unit>天|日|晚|周|星期|礼拜|分钟|小时|钟头|钟(?![点头]))")
def _offset(m: re.Match[str]) -> Token | None:
    raw, unit, pre = m.group("n"), m.group("unit"), m.group("pre")
    sign = 1 if pre == "后" else -1
    name = "ahead" if pre == "提前" else ""  # 提前半小时提醒我: counts back from the moment said elsewhere
    if unit in ("分钟", "小时", "钟头", "钟"):
        n = 0.5 if raw == "半" else cn_int(raw)
        if n is None or n <= 0:
            return None
        minutes = n * (1 if unit == "分钟" else 60)
        return tok(m, Kind.OFFSET, minutes=sign * minutes, name=name)
    n = cn_int(raw) if raw != "半" else None
    if n is None or not 0 < n <= 60:
        return None
    part = Part.EVENING if unit == "晚" else None
    return tok(m, Kind.OFFSET, offset=sign * n * _UNIT_DAYS[unit], part=part, name=name)


@rule(r"(?:的)?(?:当天|当日|那天|那一天|这一天|当晚|那晚|前夕|前一晚|次日|第二天|隔天)")
def _offset_word(m: re.Match[str]) -> Token:
    word = m.group(0).removeprefix("的")
    offset = {"前夕": -1, "前一晚": -1, "次日": 1, "第二天": 1, "隔天": 1}.get(word, 0)
    part = Part.EVENING if word in ("当晚", "那晚", "前一晚") else None
    return tok(m, Kind.OFFSET, offset=offset, part=part)


def _month_days(name: str, today: date) -> Iterator[date]:
    _, part, offset = name.split(":")
    months = [int(offset)] if offset != "*" else range(0, 1300)
    for n in months:
        index = today.year * 12 + today.month - 1 + n
        year, month = index // 12, index % 12 + 1
        last = calendar.monthrange(year, month)[1]
        yield date(year, month, {"first": 1, "mid": 15, "last": last, "end": last}[part])


def _year_of(token: Token, today: date, lunar: bool) -> int | None:
    if token.year is None:
        return None
    if token.year > 0:
        return token.year
    base = solar_to_lunar(today).year if lunar else today.year
    return base + {-1: 0, -2: 1, -3: 2}[token.year]


def named_days(token: Token, today: date) -> Iterator[date]:
    """The days a NAMED token may mean, in order: one day when fixed, else every next one from ``today``.

    A caller keeps the first day whose moment is still ahead. Yields nothing for an impossible date.
    """
    kind, _, rest = token.name.partition(":")
    if kind == "month":
        yield from (d for d in _month_days(token.name, today) if not rest.endswith("*") or d >= today)
        return
    if kind == "year":
        year = _year_of(token, today, lunar=False)
        first = rest.startswith("first")
        if year is not None:
            yield date(year, 1, 1) if first else date(year, 12, 31)
            return
        for y in range(today.year, today.year + 200):
            day = date(y, 1, 1) if first else date(y, 12, 31)
            if day >= today:
                yield day
        return
    if kind == "fest":
        festival = festivals.by_word(rest)
        if festival is None:
            return
        year = _year_of(token, today, lunar=festival.lunar)
        if year is None:
            yield from festivals.occurrences(festival, today)
        elif token.year is not None and token.year > 0:
            found = festivals.in_year(festival, year)
            yield from (found,) if found else ()
        else:
            found = festival.on(year)
            yield from (found,) if found else ()
        return
    yield from _lunar_days(token, today)


def _lunar_days(token: Token, today: date) -> Iterator[date]:
    month_s, day_s, leap_s = token.name.split(":")[1:]
    month, day, leap = int(month_s), int(day_s), leap_s == "1"
    year = _year_of(token, today, lunar=True)
    if year is not None and month:
        found = lunar_to_solar(year, month, day, leap)
        if token.year is not None and token.year > 0 and found is not None and found.year != year:
            found = lunar_to_solar(year - 1, month, day, leap)  # 2027年腊月 → the one in Gregorian 2027
        yield from (found,) if found else ()
        return
    start = solar_to_lunar(today)
    # a named lunar month looks at this lunar year and the next only: 农历十二月三十 in a year whose
    # 腊月 has 29 days is not quietly moved three years on
    for lunar_year in range(start.year - 1, start.year + (2 if month else 100)):
        months = [(month, leap)] if month else [(m, lp) for m in range(1, 13) for lp in (False, True)]
        for mo, lp in months:
            found = lunar_to_solar(lunar_year, mo, day, lp)
            if found is not None and found >= today:
                yield found
