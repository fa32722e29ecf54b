"""Slot value parsers, one per :class:`runtime.skill.SlotType`.

Each parser takes the text and ``answer``: True when the whole message answers a question the
bot just asked (lenient: a bare "3" is a count), False when pulling a value out of a longer
first message (strict: needs a unit or a keyword). It returns the typed value or None.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

from runtime.parsers.dietary import parse_restrictions
from runtime.parsers.money import find_amount
from runtime.parsers.numbers import RANGE, approximate_numerals, midpoint, normalize_numerals
from runtime.parsers.people import parse_people
from runtime.parsers.timephrase import parse_time_phrase

_NUM = r"(\d+(?:\.\d+)?)"


def _search(pattern: str, text: str) -> re.Match[str] | None:
    return re.search(pattern, text)


def parse_count(text: str, answer: bool) -> int | None:
    """People / item counts: 三个, 3个人, 两位, 俩, 一家四口, 我们家仨加上客人俩 (5), 3个大人1个小孩 (4),
    加我一共4个人 (4), 十来个 (10), 一打 (12). See :mod:`runtime.parsers.people`."""
    return parse_people(text, answer)


def parse_money(text: str, answer: bool) -> float | str | None:
    """Yuan: 80元, 一百块, 百来块 (100), 一百出头 (110), 两百以内, 三五十块 (40), 100左右, ¥80.

    An amount said per person (人均30, 每人30块) comes back as the text ``"人均30"``: only the skill
    knows the head count that turns it into a total. See :mod:`runtime.parsers.money`.
    """
    amount = find_amount(text, answer=answer)
    if amount is None:
        return None
    return f"人均{amount.value:g}" if amount.per_person else amount.value


_YES = ("嗯嗯", "没问题", "没错", "不错", "就这样", "行吧", "是", "是的", "对", "对的", "好", "好的", "可以", "行", "确认", "确定", "嗯", "没错", "要", "需要", "ok", "yes", "y")
_NO = ("算了", "算", "不了", "先不", "取消吧", "不", "不是", "不对", "否", "不要", "不用", "不行", "不需要", "no", "n", "别")


def parse_yes_no(text: str, answer: bool) -> bool | None:
    """是/好的/确认 → True; 不/不用/否 → False."""
    t = re.sub(r"[\s，。！!？?,.~～吧啊呀哦了的]+$", "", text.strip().lower())
    if t in _YES[:5]:  # yes-words that start like a no (没问题, 不错)
        return True
    if t in _NO or t.startswith(("不", "别", "算了")):
        return False
    if t in _YES or t.startswith(("是", "对", "好", "确认", "可以")):
        return True
    return None


_ORDINAL_LAST = ("最后", "后面那个", "后面的", "后一个", "后者")
_ORDINAL_FIRST = ("前面那个", "前面的", "前一个", "前者")


_POINTING = re.compile(r"那个|这个|那条|这条|那一个|这一个|的|吧|呀|啊|呢|[。.！!？?，,\s]")


def parse_choice(text: str, answer: bool, options: tuple[str, ...] = ()) -> int | None:
    """A 1-based option number: 1, 第二个, 选2, 后面那个, or an option's own words."""
    t = normalize_numerals(text.strip())
    m = re.fullmatch(r"(?:选|第)?\s*(\d+)\s*(?:个|项|种|号)?[。.！!]?", t)
    if m:
        return int(m.group(1))
    if any(w in t for w in _ORDINAL_LAST) and options:
        return len(options)
    if any(w in t for w in _ORDINAL_FIRST) and options:
        return 1
    words = _POINTING.sub("", t)  # "快递那个" names the option "取快递（14:00）"
    fits = [i for i, option in enumerate(options, 1)
            if option and (option in t or (len(words) >= 2 and words in option))]
    return fits[0] if len(fits) == 1 else None


def parse_text_list(text: str, answer: bool) -> list[str] | None:
    """Restrictions: 不吃香菜、不要辣 → ['香菜', '辣']; 有个朋友吃素 → ['有人吃素']; 没啥忌口 / 都行 → [].

    See :mod:`runtime.parsers.dietary`.
    """
    return parse_restrictions(text)


def parse_number(text: str, answer: bool) -> float | None:
    """The first number in the text."""
    m = _search(_NUM, normalize_numerals(text))
    return float(m.group(1)) if m else None


_HOURS = r"\s*个?\s*(半|多)?\s*(?:小时|钟头|h\b|钟(?![点头]))"
_MARATHON = (("半程马拉松", 21.1), ("半马", 21.1), ("全程马拉松", 42.2), ("全马", 42.2), ("马拉松", 42.2))


def parse_duration(text: str, answer: bool) -> float | None:
    """Minutes: 30分钟, 半小时, 一刻钟, 一个半小时, 1.5小时, 2小时20分, and said roughly: 半个钟头左右 (30),
    四十来分钟 (40), 二十多分钟 (25), 个把小时 (60), 一个多小时 (75), 四五十分钟 (45)."""
    t = approximate_numerals(text)
    if _search(r"(?<!\d)半(?:个)?来?(?:小时|钟头|钟(?!点))", t) and not _search(r"\d+\s*个?半(?:小时|钟头|钟)", t):
        return 30.0
    if "刻钟" in t:
        m = _search(r"(\d+)\s*刻钟", t)
        return 15.0 * (int(m.group(1)) if m else 1)
    total, found = 0.0, False
    m = _search(RANGE + _HOURS, t)
    if m:
        total += midpoint(m.group(1), m.group(2)) * 60 + {"半": 30, "多": 15}.get(m.group(3) or "", 0)
        found = True
    m = _search(RANGE + r"\s*(?:分钟|分|min)", t)
    if m:
        total += midpoint(m.group(1), m.group(2))
        found = True
    if not found and answer:
        m = re.fullmatch(r"\D{0,3}" + RANGE + r"\D{0,3}", t.strip())
        if m and not re.search(r"公里|千米|米|km|斤|公斤|块|元|人|个|次", t):
            return midpoint(m.group(1), m.group(2))
    return total if found else None


def parse_distance(text: str, answer: bool) -> float | None:
    """Kilometres: 5公里, 3千米, 10km, 800米 (→ 0.8), and said roughly: 十来公里 (10), 三四公里 (3.5),
    一公里半 (1.5), 半马 (21.1)."""
    for word, km in _MARATHON:
        if word in text:
            return km
    t = approximate_numerals(text)
    m = _search(RANGE + r"\s*(?:公里|千米|km|KM|Km|[kK](?![a-zA-Z]))", t)
    if m:
        return midpoint(m.group(1), m.group(2))
    m = _search(_NUM + r"\s*米(?!\d)", t)
    if m and float(m.group(1)) >= 50:
        return float(m.group(1)) / 1000
    if answer:  # "多远？" → "6": kilometres
        m = re.fullmatch(r"\D{0,3}?" + RANGE + r"\D{0,3}", t.strip())
        if m and not re.search(r"分|小时|钟|秒|次|个|组|斤|公斤|块|元|人", t):
            return midpoint(m.group(1), m.group(2))
    return None


def parse_height(text: str, answer: bool) -> float | None:
    """Centimetres: 身高180, 175cm, 1米8, 一米七五, 1.75米, 一米八几 (185)."""
    t = approximate_numerals(text)
    m = _search(r"1\s*米\s*(\d)(\d|几)?", t)
    if m:
        last = 5 if m.group(2) == "几" else int(m.group(2) or 0)
        return float(100 + int(m.group(1)) * 10 + last)
    m = _search(r"(1\.\d{1,2})\s*(?:米|m)", t)
    if m:
        return round(float(m.group(1)) * 100, 1)
    m = _search(r"(\d{2,3}(?:\.\d)?)\s*(?:cm|CM|厘米|公分)", t) or _search(r"身高\D{0,4}(\d{2,3}(?:\.\d)?)", t)
    if m is None and answer:
        m = re.fullmatch(r"\D{0,3}(\d{3}(?:\.\d)?)\D{0,3}", t.strip())
    if m and 50 <= float(m.group(1)) <= 250:
        return float(m.group(1))
    return None


JIN_FROM = 120  # a weight said as "体重130" (no unit) from this number up is in 斤 (→ 65 kg)


def parse_weight(text: str, answer: bool) -> float | None:
    """Kilograms: 70公斤, 70kg, 140斤 (→ 70), 体重65, 体重130 (斤 → 65), and said roughly: 一百三十来斤 (65),
    130多斤 (67.5). A bare number answering "体重多少？" is in kilograms."""
    t = approximate_numerals(text)
    m = _search(_NUM + r"\s*斤", t)
    if m:
        return _kg(float(m.group(1)) / 2)
    m = _search(_NUM + r"\s*(?:公斤|kg|KG|千克)", t)
    if m:
        return _kg(float(m.group(1)))
    m = _search(r"体重\D{0,5}?" + _NUM, t)
    if m:
        value = float(m.group(1))
        return _kg(value / 2 if value >= JIN_FROM else value)
    if answer:
        m = re.fullmatch(r"\D{0,4}" + _NUM + r"\D{0,3}", t.strip())
        if m and not re.search(r"身高|米|cm|厘米|公分|分钟|小时|公里|块|元|岁|个", t):
            return _kg(float(m.group(1)))
    return None


def _kg(value: float) -> float | None:
    return round(value, 1) if 20 <= value <= 300 else None


def parse_text(text: str, answer: bool) -> str | None:
    """Free text, trimmed; empty → None."""
    t = text.strip().strip("。.!！")
    return t or None


def parse_time(text: str, answer: bool, now: datetime | None = None) -> dict[str, Any] | None:
    """A Chinese time phrase resolved against ``now`` → the TimeExpr param dict."""
    if now is None:
        return None
    expr = parse_time_phrase(text, now)
    return None if expr is None else expr.to_param()


SlotParser = Callable[[str, bool], Any]

PARSERS: dict[str, SlotParser] = {
    "count": parse_count, "money": parse_money, "yes_no": parse_yes_no, "text_list": parse_text_list,
    "number": parse_number, "duration": parse_duration, "distance": parse_distance,
    "height": parse_height, "weight": parse_weight, "text": parse_text,
}
