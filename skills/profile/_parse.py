"""Extract profile fields from a whole message: goal, height (cm), weight (kg), city, dislikes, allergies.

Pure functions used as slot ``extract`` hooks: "我的目标是增肌，身高180" → goal 增肌, height 180.
"""

from __future__ import annotations

import re

import cn2an

from runtime.skill.parsers import parse_restrictions, parse_value
from skills.weather import find_city

__all__ = ["CONDITIONS", "GOALS", "extract_allergies", "extract_city", "extract_conditions", "extract_dislikes",
           "extract_bare_value", "extract_field", "extract_goal", "extract_height", "extract_target_weight",
           "extract_weight", "parse_goal"]

GOALS = ("减脂", "增肌", "控糖", "保持")
_GOAL_WORDS = (
    ("控糖", ("控糖", "控制血糖", "降血糖", "降糖", "血糖高", "糖尿病")),
    ("增肌", ("增肌", "长肌肉", "练肌肉", "增重", "长胖", "增加肌肉")),
    ("减脂", ("减脂", "减肥", "瘦身", "减重", "刷脂", "变瘦", "瘦下来", "掉秤", "想减到", "要减到", "想瘦到", "要瘦到")),
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
    """The canonical goal (减脂/增肌/控糖/保持) named in ``text`` (a bare 保持 only when it says 目标)."""
    for goal, words in _GOAL_WORDS:
        if any(w in text for w in words):
            return goal
    return "保持" if "目标" in text and "保持" in text else None


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
    value = parse_value("height", text)  # 身高更新为172 / 一米七五左右 / 一米八几
    return float(value) if isinstance(value, int | float) and 120 <= value <= 230 else None


_TARGET = re.compile(r"(?:想|要|打算|争取|希望|准备|计划)(?:先)?(?:减|瘦|降|增|长|练|涨|增重)到|目标体重|理想体重"
                     r"|目标(?:是|定在|设在|定为|设为)?\s*(?=[\d一二两三四五六七八九十百])")
# where the weight wished for ends: a clause break, or the weight now said after it ("目标65 现在58")
_TARGET_END = re.compile(r"[，,。；;！!？?\s]|现在|目前|当前|如今|眼下")
_NOW = re.compile(r"(?:现在|目前|当前|如今|眼下)(?:的)?(?:体重)?(?:是|有|才|都|已经)?\s*"
                  r"([\d.一二两三四五六七八九十百点]+\s*(?:斤|公斤|kg|KG|千克)?)(?![\d.]|\s*(?:厘米|cm|公分|米))")
JIN_FROM = 120  # a weight said without its unit from this number up is in 斤 (people weigh themselves so)


def _target_span(text: str) -> tuple[int, int] | None:
    """Where ``text`` says the weight wished for ("目标体重65kg", "想减到120斤"), up to the next clause."""
    m = _TARGET.search(text)
    if m is None:
        return None
    end = _TARGET_END.search(text, m.end())
    return m.start(), end.start() if end else len(text)


def _kg_said(words: str) -> float | None:
    """A weight in words that name it (65kg, 120斤, 体重65), else a bare number: kilograms, or 斤 from 120."""
    value = parse_value("weight", words)
    if not isinstance(value, int | float):
        value = parse_value("number", words)
        if isinstance(value, int | float) and value >= JIN_FROM:
            value /= 2
    return round(float(value), 1) if value is not None and 25 <= value <= 250 else None


def extract_target_weight(text: str) -> float | None:
    """The weight wished for, in kg: 目标体重65kg / 想减到120斤 (60) / 目标是60公斤 / 要瘦到五十五."""
    span = _target_span(text)
    if span is None:
        return None
    said = text[span[0]:span[1]]
    m = _TARGET.match(said)
    return _kg_said(said[m.end():] if m and not m.group().startswith("目标体重") else said)


def extract_weight(text: str) -> float | None:
    """Weight in kg, as it is now: 体重70公斤 / 70kg / 140斤 / 体重65 / 把体重更新为70 / 一百三十来斤 (a number
    of 120+ after 体重 is read as 斤); a weight wished for (想减到120斤, 目标体重60) is not the weight, the
    one said beside it is ("目标体重65 现在58")."""
    span = _target_span(text)
    if span is not None:
        rest = text[:span[0]] + " " + text[span[1]:]
        now = _NOW.search(rest)
        return _kg_said(now.group(1)) if now else _weight_in(rest)
    return _weight_in(text)


def _weight_in(text: str) -> float | None:
    value = parse_value("weight", text)
    if isinstance(value, int | float):
        return round(float(value), 1) if 25 <= value <= 250 else None
    m = re.search(rf"([{_CN}]+)\s*(公斤|千克|斤)", text)
    if m:
        number = _num(m.group(1))
        kg = number / 2 if number is not None and m.group(2) == "斤" else number
        return round(kg, 1) if kg is not None and 25 <= kg <= 250 else None
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


def _normalised(said: list[str] | None, template: str) -> list[str] | None:
    """Each food as the shared restriction reader names it ("辣的东西" → 辣)."""
    if not said:
        return None
    out: list[str] = []
    for word in said:
        items = parse_restrictions(template.format(word)) or [word]
        out.extend(i for i in items if i not in out)
    return out or None


_VEGETARIAN = re.compile(r"吃素|素食|茹素|吃斋|纯素|全素")
_STANDING = r"(?:以后|今后|平时|往后)(?:都|也)?(?:别|不要)(?:再)?(?:给我)?(?:安排|放|做|加|准备)?"


def extract_dislikes(text: str) -> list[str] | None:
    """Foods the user does not eat: 我不吃香菜和葱 → [香菜, 葱]; 我不吃辣的东西 → [辣]; 我吃素 → [素食];
    以后别给我安排辣的 → [辣]."""
    said = _food_words(text, rf"(?:不吃|不爱吃|不喜欢吃|不能吃|吃不了|忌口|{_STANDING})([^，,。；;！!]{{1,20}})")
    found = _normalised(said, "不吃{}") or []
    if _VEGETARIAN.search(text):
        found += [x for x in parse_restrictions(_VEGETARIAN.search(text).group()) or [] if x not in found]  # type: ignore[union-attr]
    return found or None


def extract_allergies(text: str) -> list[str] | None:
    """Allergies: 我对花生过敏 / 海鲜过敏 → [花生] / [海鲜]."""
    if re.search(r"麸质过敏|乳糖不耐", text):
        return None  # a condition (see CONDITIONS), named by what it rules out
    return _normalised(_food_words(text, r"(?:对)?([^，,。；;！!对我]{1,12})过敏"), "对{}过敏")


# a health condition → its words, and the foods it rules out (what the profile keeps and says)
CONDITIONS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("痛风", r"痛风|尿酸高|尿酸偏高|高尿酸", ("海鲜", "动物内脏", "啤酒")),
    ("高血压", r"高血压|血压高|血压偏高", ("咸菜", "腊肉", "咸鱼")),
    ("糖尿病", r"糖尿病|血糖高|血糖偏高|高血糖", ("甜", "含糖饮料")),
    ("高血脂", r"高血脂|血脂高|血脂偏高|胆固醇高", ("肥肉", "动物内脏", "油炸")),
    ("乳糖不耐", r"乳糖不耐", ("奶",)),
    ("麸质过敏", r"麸质过敏|乳糜泻", ("麸质",)),
    ("胃不好", r"胃不好|胃病|胃炎|胃溃疡", ("辣", "生冷")),
    ("心脏病", r"心脏病|心脏不好|冠心病|心梗|心衰|搭过?支架|放过?支架", ("肥肉", "油炸", "咸菜")),
    ("贫血", r"贫血", ()),  # kept by name; it rules no food out
    ("哮喘", r"哮喘", ()),
)


def extract_conditions(text: str) -> list[str] | None:
    """Health conditions the user says they have ("我有痛风", "血压有点高"), by name; None when none.
    A question about one ("痛风能吃什么") is not a statement."""
    if re.search(r"吗|？|\?|能不能|能吃|可以吃|怎么|什么", text):
        return None
    found = [name for name, words, _ in CONDITIONS if re.search(words, text.replace("有点", ""))]
    return found or None


_FIELDS = (("height_cm", r"身高|个子|多高"), ("weight_kg", r"体重|多重|几斤"), ("goal", r"目标"),
           ("city", r"城市|住哪|住在哪"), ("dislikes", r"忌口|不吃的"), ("allergies", r"过敏"))


# a number said alone as the new value ("体重更新一下，72.5", "称错了，改成72"): no unit, at the end
_BARE_VALUE = re.compile(r"(?:^|[，,：:\s]|改成|改为|换成|更新为|更新成|应该是|其实是|是)\s*"
                         r"(\d{2,3}(?:\.\d{1,2})?|[一二两三四五六七八九十百][零一二两三四五六七八九十百]{0,4}(?:点[零一二三四五六七八九]{1,2})?)\s*"
                         r"(?:吧|了|啊|呀|哈)?[。!！~～]*$")


def extract_bare_value(text: str) -> float | None:
    """A number said without its unit as the new value of a field; None when a height or a weight is said
    in full (that is read as such)."""
    if extract_height(text) is not None or extract_weight(text) is not None or _TARGET.search(text):
        return None
    m = _BARE_VALUE.search(text)
    value = parse_value("number", m.group(1)) if m else None  # 七十点八 as 70.8
    return float(value) if isinstance(value, int | float) and 10 <= value < 1000 else None


def extract_field(text: str) -> str | None:
    """The one field a message asks to change without saying the new value ("更新一下我的身高" → height_cm),
    so the question asked next is about it; None when a value is said too, or no single field is named."""
    if any(f(text) is not None for f in (extract_height, extract_weight, parse_goal, extract_dislikes,
                                          extract_allergies, extract_conditions)):
        return None
    named = [name for name, words in _FIELDS if re.search(words, text)]
    return named[0] if len(named) == 1 else None
