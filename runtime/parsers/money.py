"""Money phrases in yuan: 80元, 一百块, ¥80, 百来块, 一百出头, 两百以内, 三五十块, 100左右, 人均30.

Pure functions. :func:`find_amount` returns an :class:`Amount`: the value a person means (a range
such as 三五十 gives its middle, 40; 一百出头 a little over, 110; 一百多 120), and whether it is per
person (人均30, 每人30块, 30块一个人), which only the caller can turn into a total.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from runtime.parsers.numbers import normalize_numerals

__all__ = ["Amount", "find_amount"]

_CN_DIGIT = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_CN_UNIT = {"十": 10, "百": 100, "千": 1000}
# 三五十 / 两三百 / 一两百 / 七八十: two digits and a unit name a rough range
_CN_RANGE = re.compile(r"([一二两三四五六七八九])([一二两三四五六七八九])([十百千])")
_NUM = r"(\d+(?:\.\d+)?)"
_RANGE = _NUM + r"(?:\s*(?:-|~|～|到|至)\s*" + _NUM + r")?"
_UNIT = r"(?:块钱|块|元钱|元|rmb|RMB|￥|¥)"
_NOT_MONEY_AFTER = r"(?!\s*(?:\d|个|人|位|口|点|号|天|岁|斤|克|公斤|千克|米|分|小时|度|道|盘|碗|份|次|g|kg|ml))"
_END = r"(?=块|元|$|[\s，。,.!！?？吧的])"
_ABOUT = r"(?:左右|上下|以内|以下|之内|内|封顶|出头|多" + _END + "|来" + _END + ")"
# 百来块 / 百把块 / 百八十块 / 百十块 / 千把块: "about a hundred / a thousand" (no leading digit)
_ROUGH = re.compile(r"(?<![一二两三四五六七八九十零〇\d])([百千])(来|把|八十|十)?(?=来|把|块|元|多|左右|出头|以内|$)")
_ROUGH_VALUE = {"百": "100", "千": "1000"}
_PER_PERSON_BEFORE = re.compile(
    r"(?:人均|每人|每个人|平均每人|平均1人|(?<!\d)1个人|(?<!\d)1人|每位|(?<!\d)1位)\s*(?:预算)?\s*(?:大概|大约|差不多|约)?\s*" + _RANGE)
_PER_PERSON_AFTER = re.compile(_RANGE + r"\s*" + _UNIT + r"?\s*(?:左右)?\s*(?:1个人|1人|每人|每位|1位|/人|/位)")


# 2百 / 1.5k / 1千5 / 3万: digits with a multiplier (not 千克, 千米, 千瓦)
_MULTIPLIED = re.compile(r"(\d+(?:\.\d+)?)\s*([千百万kK])(?![米克瓦a-zA-Z])(\d)?")
_MULTIPLIER = {"千": 1000.0, "k": 1000.0, "K": 1000.0, "百": 100.0, "万": 10000.0}


_CLAUSE = re.compile(r"[，,。；;！!？?\s]+")
_HUNDREDS = re.compile(r"(?:大概|大约|差不多|约)?([一二两三四五六七八九][百千][一二两三四五六七八九十]?)(左右|以内|上下|出头)?")


@dataclass(frozen=True, slots=True)
class Amount:
    """An amount of yuan; ``per_person`` when it was said per head (人均30)."""

    value: float
    per_person: bool = False


def _cn_range(m: re.Match[str]) -> str:
    unit = _CN_UNIT[m.group(3)]
    low, high = _CN_DIGIT[m.group(1)], _CN_DIGIT[m.group(2)]
    if high <= low:
        return m.group(0)
    return f"{low * unit}-{high * unit}"


def _multiplied(m: re.Match[str]) -> str:
    unit = _MULTIPLIER[m.group(2)]
    tail = float(m.group(3)) * unit / 10 if m.group(3) else 0.0
    return f"{float(m.group(1)) * unit + tail:g}"


def _prepare(text: str) -> str:
    t = re.sub(r"(?<=\d),(?=\d{3})", "", text)
    t = _CN_RANGE.sub(_cn_range, t)
    t = _ROUGH.sub(lambda m: _ROUGH_VALUE[m.group(1)] + ("来" if m.group(2) == "来" else ""), t)
    t = normalize_numerals(t)
    t = _MULTIPLIED.sub(_multiplied, t)
    return t


def _value(m: re.Match[str], low_group: int, after: str) -> float:
    low = float(m.group(low_group))
    high = m.group(low_group + 1)
    value = (low + float(high)) / 2 if high else low
    if after.startswith("出头"):
        value *= 1.1
    elif after.startswith("多"):
        value *= 1.2
    return round(value, 2)


def find_amount(text: str, *, answer: bool) -> Amount | None:
    """The amount of money in ``text``.

    ``answer`` is True when the whole message answers "预算多少？" (a bare 80 or 三五十 is money);
    False when looking inside a longer message, where a unit, ¥, 预算, 人均 or a word such as
    左右/以内/出头 must go with the number.
    """
    t = _prepare(text)
    m = _PER_PERSON_BEFORE.search(t)
    if m:
        return Amount(_value(m, 1, t[m.end():]), per_person=True)
    m = _PER_PERSON_AFTER.search(t)
    if m:
        return Amount(_value(m, 1, ""), per_person=True)
    patterns = (
        r"[¥￥]\s*" + _RANGE,
        _RANGE + r"\s*(?=" + _ABOUT + r"?\s*" + _UNIT + ")",
        r"预算\D{0,6}?" + _RANGE + _NOT_MONEY_AFTER,
        _RANGE + r"\s*(?=" + _ABOUT + ")",
    )
    for pattern in patterns:
        for m in re.finditer(pattern, t):
            after = t[m.end():].lstrip()
            return Amount(_value(m, 1, after))
    # "晚饭4人200": an amount said right after the head count
    m = re.search(r"\d\s*(?:个人|人|位)\s*[，,]?\s*" + _RANGE + _NOT_MONEY_AFTER + r"(?![\d.])", t)
    if m and _value(m, 1, "") >= 20:
        return Amount(_value(m, 1, ""))
    # "三个人一百五吃晚饭": an amount said right before the meal it pays for
    m = re.search(r"(?<![\d.])" + _RANGE + r"\s*(?=(?:块钱?|元)?(?:吃|搞|弄|安排|整)(?:一?顿|个)?(?:晚饭|晚餐|饭|一桌))", t)
    if m and _value(m, 1, "") >= 20:
        return Amount(_value(m, 1, ""))
    # "3个大人1个小孩，一百五，不吃辣": a clause that is only an amount in hundreds (一百五, 两百) is money
    for clause in _CLAUSE.split(text):
        m = _HUNDREDS.fullmatch(clause.strip())
        if m:
            return Amount(_value(re.match(_RANGE, _prepare(m.group(1))) or m, 1, m.group(2) or ""))
    if answer:
        m = re.fullmatch(r"\D{0,8}?" + _RANGE + _NOT_MONEY_AFTER + r"\s*(" + _ABOUT + r")?\s*" + _UNIT + r"?\D{0,6}",
                         t.strip())
        if m:
            return Amount(_value(m, 1, m.group(3) or ""))
    return None
