"""Amounts written in recipe text ("加入 15g 冰糖", "（生抽 10ml）", "盐（1/2 茶匙）", "2 片姜", "1g * 份数"),
found and scaled, so that a recipe for more people says the same amounts in its steps as in its list.

One grammar for the list and the steps: a number (``15``, ``2.5``, ``1/2``, ``2 1/2``, ``½``, ``2½``), an
optional range (``2-3g``, ``600ml-900ml``, ``2～3 个``), a unit, and an optional ``* 份数`` (per serving).
A measure (g, 克, ml, 毫升, 勺 …) is always an amount, except after 每 (a rate: "每 500g 肉") and in a
unit's definition ("1 汤匙 = 15ml"); a count (个, 片, 根 …) is one only beside a food it counts ("2 片姜",
"八角 2 个"), since "切成 4 块" and "1~2 个小时" are not; so is an amount in Chinese numerals ("两片生姜",
"一勺盐"). Times, lengths, temperatures and fractions of a pot are never amounts. Pure.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from skills.cookbook.book import Quantity, Recipe, variants

__all__ = ["COUNTED", "Amount", "amounts_in", "counts_in", "food_beside", "food_name", "format_number", "scale_step",
           "scale_text"]

MEASURES = ("毫升", "ml", "mL", "ML", "Ml", "克", "g", "kg", "KG", "千克", "公斤", "斤", "两", "汤匙", "茶匙", "小勺",
            "大勺", "大匙", "小匙", "勺", "杯", "碗", "L", "升", "cc")
COUNTED = frozenset({"个", "只", "片", "根", "颗", "瓣", "块", "把", "条", "张", "袋", "包", "盒", "粒", "滴", "撮", "朵",
                     "头", "棵", "节", "段", "罐", "枚"})
_UNIT = "|".join(re.escape(u) for u in sorted((*MEASURES, *COUNTED), key=len, reverse=True))
_FRACTIONS = {"½": 0.5, "¼": 0.25, "¾": 0.75, "⅓": 1 / 3, "⅔": 2 / 3}
_NUMBER = r"\d+(?:\.\d+)?\s+\d+\s*/\s*\d+|\d+\s*/\s*\d+|\d+(?:\.\d+)?[½¼¾⅓⅔]?|[½¼¾⅓⅔]"
_AMOUNT = re.compile(
    rf"(?<![\d./])(?P<low>{_NUMBER})\s*(?:(?:{_UNIT})\s*)?(?:(?P<sep>-|–|~|～|到|至)\s*(?P<high>{_NUMBER})\s*)?"
    rf"(?P<unit>{_UNIT})(?![A-Za-z])(?P<serving>\s*[*×]\s*份数)?")
# "两片生姜", "一勺盐", "半碗水": Chinese numerals, an amount only beside a food of the recipe
_DIGITS = {"一": 1, "二": 2, "两": 2, "俩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_WORDED = re.compile(rf"(?<![一二两三四五六七八九十百几每另第同其这那])(?P<low>半|十?[一二两三四五六七八九]|十)"
                     rf"(?P<unit>{_UNIT})(?![A-Za-z])")
_DEFINITION = re.compile(r"^\s*[=＝]\s*$")  # "1 汤匙 = 15ml": what a unit means, not an amount
_NOT_COUNTS = re.compile(r"^(?:小时|钟头|月|星期|礼拜|步|次|遍|圈|批|刀|下|人|份)")
_RATE = re.compile(r"(?:每|平均)\s*$")  # a rate or a share of each piece, not an amount


@dataclass(frozen=True, slots=True)
class Amount:
    """An amount in a text: where it is, its number(s), its unit, and whether it is per serving."""

    start: int
    end: int
    low: float
    high: float | None
    unit: str
    per_serving: bool
    spans: tuple[tuple[int, int], ...]  # where its number(s) are written

    @property
    def counted(self) -> bool:
        """A count of pieces (rounded up when scaled), not a weight or a volume."""
        return self.unit in COUNTED


def _value(text: str) -> float:
    text = text.strip()
    if text[-1] in _FRACTIONS:
        return (float(text[:-1]) if text[:-1] else 0.0) + _FRACTIONS[text[-1]]
    if "/" in text:
        whole, _, frac = text.rpartition(" ") if " " in text.split("/")[0].strip() else ("", "", text)
        top, bottom = (float(x) for x in frac.split("/"))
        return (float(whole) if whole else 0.0) + (top / bottom if bottom else 0.0)
    return float(text)


def _worded(word: str) -> float:
    if word == "半":
        return 0.5
    if word.startswith("十"):
        return 10 + (_DIGITS[word[1]] if len(word) > 1 else 0)
    return float(_DIGITS[word])


def amounts_in(text: str, *, counts: Callable[[Amount, str], bool] | None = None) -> list[Amount]:
    """The amounts in ``text``; a count, or an amount written in Chinese numerals, is kept only when
    ``counts(amount, text)`` says it measures a food (without ``counts``: every count, no worded one)."""
    found: list[Amount] = []
    for m in _AMOUNT.finditer(text):
        spans = [m.span("low")] + ([m.span("high")] if m.group("high") else [])
        amount = Amount(m.start(), m.end("serving") if m.group("serving") else m.end("unit"), _value(m.group("low")),
                        _value(m.group("high")) if m.group("high") else None, m.group("unit"),
                        bool(m.group("serving")), tuple(spans))
        if _RATE.search(text[:m.start()]):
            continue
        if amount.counted and (_NOT_COUNTS.match(text[amount.end:]) or (counts is not None and not counts(amount, text))):
            continue
        found.append(amount)
    if counts is not None:
        for m in _WORDED.finditer(text):
            amount = Amount(m.start(), m.end(), _worded(m.group("low")), None, m.group("unit"), False, (m.span("low"),))
            if not _RATE.search(text[:m.start()]) and not _NOT_COUNTS.match(text[m.end():]) and counts(amount, text):
                found.append(amount)
    found.sort(key=lambda a: a.start)
    definitions = {i for i, (a, b) in enumerate(zip(found, found[1:], strict=False))
                   if _DEFINITION.match(text[a.end:b.start])}
    return [a for i, a in enumerate(found) if i not in definitions and i - 1 not in definitions]


def food_beside(amount: Amount, text: str, foods: Iterable[str]) -> str | None:
    """The food of ``foods`` an amount is written beside: right after it ("15g 冰糖", "2 片姜") or right
    before it ("生抽 10ml", "盐（3 克）", "八角：2 个"); the longest name wins."""
    after = text[amount.end:].lstrip(" 的")
    before = re.sub(r"[\s（(：:=约大概]+$", "", text[:amount.start])
    names = sorted({f for f in foods if f}, key=len, reverse=True)
    return next((f for f in names if after.startswith(f)), None) or next((f for f in names if before.endswith(f)), None)


def format_number(value: float, *, counted: bool) -> str:
    """A scaled number as a cook reads it: pieces rounded up to whole ones, the rest to one decimal."""
    if counted:
        value = math.ceil(value - 1e-9) if value > 0 else 0
    return f"{round(value, 1):g}"


def scale_text(text: str, factor: float, *, counts: Callable[[Amount, str], bool] | None = None) -> str:
    """``text`` with every amount multiplied by ``factor`` (``* 份数`` resolved: the amount is then the
    total). With ``factor`` 1 only the per-serving formulas change."""
    out: list[str] = []
    at = 0
    for amount in amounts_in(text, counts=counts):
        if factor == 1 and not amount.per_serving:
            continue
        out.append(text[at:amount.start])
        piece = text[amount.start:amount.end]
        values = (amount.low, amount.high)
        for (start, end), value in sorted(zip(amount.spans, values, strict=False), reverse=True):
            number = format_number((value or 0.0) * factor, counted=amount.counted)
            piece = piece[:start - amount.start] + number + piece[end - amount.start:]
        if amount.per_serving:
            piece = re.sub(r"\s*[*×]\s*份数$", "", piece)
        out.append(piece)
        at = amount.end
    out.append(text[at:])
    return "".join(out)


def food_name(q: Quantity) -> str:
    """The food a list line is about ("鹌鹑蛋（可选…）" → 鹌鹑蛋)."""
    return re.split(r"[（(：:，,=\s]", q.name.strip(), maxsplit=1)[0]


def counts_in(recipe: Recipe) -> Callable[[Amount, str], bool]:
    """Which counts and worded amounts of ``recipe``'s steps are amounts: a count when it counts a food
    the list counts the same way ("2 片姜" with 姜 6 片 listed; "拿出 1 片冬瓜" counts what the list
    weighs, "切成 4 块" counts nothing), a measure in Chinese numerals ("一勺盐") when it is beside a
    food of the list."""
    counted: dict[str, set[str]] = {}
    for q in recipe.quantities:
        if q.unit in COUNTED:
            for name in variants(food_name(q)):
                counted.setdefault(name, set()).add(q.unit)
    listed = {name for q in recipe.quantities for name in variants(food_name(q))}

    def counts(amount: Amount, text: str) -> bool:
        if not amount.counted:
            return food_beside(amount, text, listed) is not None
        food = food_beside(amount, text, counted)
        return food is not None and amount.unit in counted[food]

    return counts


def scale_step(recipe: Recipe, step: str, factor: float) -> str:
    """One of ``recipe``'s steps with every amount in it multiplied by ``factor``."""
    return scale_text(step, factor, counts=counts_in(recipe))
