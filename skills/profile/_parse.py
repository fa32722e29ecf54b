"""Extract profile fields from a whole message: goal, height (cm), weight (kg), city, dislikes, allergies.

Pure functions used as slot ``extract`` hooks: "我的目标是增肌，身高180" → goal 增肌, height 180.
"""

from __future__ import annotations

import re

import cn2an

from skills.weather._cities import find_city

__all__ = ["GOALS", "extract_allergies", "extract_city", "extract_dislikes", "extract_goal", "extract_height",
           "extract_weight", "parse_goal"]

GOALS = ("减脂", "增肌", "控糖", "保持")
_GOAL_WORDS = (
    ("控糖", ("控糖", "控制血糖", "降血糖", "降糖", "血糖高", "糖尿病")),
    ("增肌", ("增肌", "长肌肉", "练肌肉", "增重", "长胖", "增加肌肉")),
    ("减脂", ("减脂", "减肥", "瘦身", "减重", "刷脂", "变瘦", "瘦下来", "掉秤")),
    ("保持", ("保持体重", "维持体重", "保持身材", "保持健康", "维持现状")),
)
_CN = "零一二两三四五六七八九十百"


def _num(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        try:
            return float(cn2an.cn2an(text, "smart"))
        except (ValueError, KeyError, TypeError):
            return None


def parse_goal(text: str) -> str | None:
    """The canonical goal (减脂/增肌/控糖/保持) named in ``text``."""
    for goal, words in _GOAL_WORDS:
        if any(w in text for w in words):
            return goal
    return None


def extract_goal(text: str) -> str | None:
    """Goal extractor for a whole message."""
    return parse_goal(text)


def extract_height(text: str) -> float | None:
    """Height in cm: 身高180 / 180cm / 1米8 / 一米七五 / 1.75米."""
    m = re.search(rf"([1一])\s*米\s*([0-9{_CN}]{{1,3}})?", text)
    if m and ("身高" in text or "高" in text or "米" in text):
        rest = m.group(2) or ""
        cm: float
        if rest.isdigit():
            cm = 100 + (int(rest) * 10 if len(rest) == 1 else int(rest))
        elif rest:
            digits = "".join(str(int(_num(ch) or 0)) for ch in rest if ch not in "十百")
            cm = 100 + (int(digits) * 10 if len(digits) == 1 else int(digits[:2]))
        else:
            cm = 100
        return float(cm) if 120 <= cm <= 230 else None
    m = re.search(r"(\d\.\d{1,2})\s*(?:米|m)\b", text) or re.search(r"身高\s*(?:是|有)?\s*(\d\.\d{1,2})", text)
    if m:
        cm = float(m.group(1)) * 100
        return round(cm, 1) if 120 <= cm <= 230 else None
    m = re.search(r"身高\s*(?:是|有|为|改成|改为)?\s*(\d{2,3}(?:\.\d)?)", text) or \
        re.search(r"(\d{3}(?:\.\d)?)\s*(?:cm|厘米|公分)", text, re.IGNORECASE)
    if m:
        cm = float(m.group(1))
        return cm if 120 <= cm <= 230 else None
    return None


def extract_weight(text: str) -> float | None:
    """Weight in kg: 体重70公斤 / 70kg / 140斤 / 体重65 (a bare number of 120+ is read as 斤)."""
    m = re.search(rf"(\d{{2,3}}(?:\.\d)?|[{_CN}]+)\s*(公斤|千克|kg|斤)", text, re.IGNORECASE)
    if m:
        value = _num(m.group(1))
        if value is None:
            return None
        kg = value / 2 if m.group(2) == "斤" else value
        return round(kg, 1) if 25 <= kg <= 250 else None
    m = re.search(r"体重\s*(?:是|有|为|改成|改为|变成|降到|掉到|减到|涨到|长到|到了|到)?\s*(\d{2,3}(?:\.\d)?)", text)
    if m:
        value = float(m.group(1))
        kg = value / 2 if value >= 120 else value
        return round(kg, 1) if 25 <= kg <= 250 else None
    return None


def extract_city(text: str) -> str | None:
    """A known city the user says they live in (我在杭州 / 城市改成北京 / 住在上海)."""
    if not re.search(r"(我在|住在|人在|城市|常住|坐标|定居|搬到|我是.*人)", text):
        return None
    return find_city(text)


def _food_words(text: str, pattern: str) -> list[str] | None:
    words: list[str] = []
    for m in re.finditer(pattern, text):
        for part in re.split(r"[、，,和及跟与或/ ]+", m.group(1)):
            part = part.strip("了的。！!？?")
            if part and len(part) <= 6:
                words.append(part)
    return words or None


def extract_dislikes(text: str) -> list[str] | None:
    """Foods the user does not eat: 我不吃香菜和葱 → [香菜, 葱]."""
    return _food_words(text, r"(?:不吃|不爱吃|不喜欢吃|忌口)([^，,。；;！!]{1,20})")


def extract_allergies(text: str) -> list[str] | None:
    """Allergies: 我对花生过敏 / 海鲜过敏 → [花生] / [海鲜]."""
    return _food_words(text, r"(?:对)?([^，,。；;！!对我]{1,12})过敏")
