"""Dietary restrictions said in Chinese → short items: 不吃香菜和葱 → [香菜, 葱]; 没啥忌口 → [].

Pure functions. Each clause becomes at most one item:

* a food or flavour not eaten: 不吃香菜 / 不要辣 / 怕辣 / 别放葱 → 香菜 / 辣 / 葱;
* an allergy: 对花生过敏 / 有个朋友芒果过敏 → 花生 / 芒果 (the eater is dropped, the food kept);
* vegetarians: 吃素 / 我们都吃素 → 素食 (everyone); 纯素 → 纯素; 有人吃素 / 有个朋友吃素 → 有人吃素;
  两个人吃素 → 2人吃素 (only some of the table);
* who someone is: 回民 → 清真, 痛风 → 痛风, 血糖高 → 控糖, 怀孕 → 孕妇 (the dinner knows what each rules out);
* 没有 / 没啥忌口 / 都行 / 啥都吃 → nothing (an empty list, which is an answer); a question is none of these.
"""

from __future__ import annotations

import re

from runtime.parsers.numbers import normalize_numerals

__all__ = ["NOTHING_WORDS", "group_of", "parse_restrictions"]

NOTHING_WORDS = frozenset({
    "没有", "没", "无", "都行", "都可以", "随便", "不挑", "不挑食", "都吃", "啥都吃", "什么都吃", "没什么",
    "没啥", "没有了", "无所谓", "不忌口", "没忌口", "没有忌口", "无忌口", "没啥忌口", "没什么忌口",
    "没什么要求", "没啥要求", "啥都能吃", "什么都能吃", "没要求", "没有要求", "没讲究", "没什么讲究", "都ok", "ok", "都能吃",
})
_SPLIT = re.compile(r"[，,、；;。.！!？?\s/]+")
_AND = re.compile(r"和|以及|还有|跟|或者|及|(?:也|都)?不(?:吃|要|能吃|放)(?=.)|(?:也|都)?别放")
_FILLER = re.compile(r"^(?:嗯+|哦+|啊+|那个|就是|然后|另外|对了)|(?:吧|呢|哈|啊|呀|哦|了|哈哈)+$")
_NOTHING = re.compile(r"^(?:都|也)?(?:没有|没|无)(?:啥|什么|任何)?(?:别的|其他的?|其它的?)?(?:特别的?)?(?:忌口|要求|禁忌|讲究|不吃的)?(?:的|了)?$")
_POSITIVE = re.compile(r"^(?:我们?|大家|都|也)*(?:能|可以|爱|喜欢|很能)吃")
_VEG = re.compile(r"吃素|素食|茹素|吃斋|全素|纯素")
_VEGAN = re.compile(r"全素|纯素|蛋奶都不吃|不吃蛋奶")
_VEG_SOME = re.compile(
    r"有人|有个|有1个|有位|有1位|其中|朋友|同事|客人|老婆|老公|媳妇|爱人|对象|孩子|女儿|儿子|"
    r"妈|爸|爷爷|奶奶|外婆|姥姥|外公|姥爷|婆婆|公公|岳母|岳父|哥|姐|弟|妹|(?<!\d)1个|(?<!\d)1位")
_VEG_ALL = re.compile(r"都|全家|全都|大家|一家")
_VEG_COUNT = re.compile(r"(\d+)\s*(?:个人|个|位|人)")
_SUBJECT = re.compile(
    r"^(?:有人|有个朋友|有1个朋友|有位朋友|有个|有1个|有位|有1位|1个朋友|朋友|我们家|我家|我们|我|家里人?|孩子|"
    r"宝宝|老人|老婆|老公|媳妇|其中1个人?|其中|客人|同事|大家|全家)*(?:都|也|有点|有些|比较)*")
_NEGATOR = re.compile(
    r"^(?:不太能吃|不大能吃|不怎么吃|不能吃|不想吃|不爱吃|不喜欢吃|不喜欢|不吃|不要|别放|不放|不加|别加|"
    r"吃不了|受不了|戒了|戒|忌口|忌|怕|少放|不能)")
_ALLERGY = re.compile(r"^(?:.*?对)?(.+?)(?:都|也)?过敏")
# a negator after the words for who does not eat it: 她不吃牛肉 / 小孩不能吃辣 (the eater is no food)
_INNER_NEGATOR = re.compile(r"(?<=[\u4e00-\u9fff])(?:不太能吃|不能吃|不想吃|不爱吃|不喜欢吃|不吃|不要|别放|吃不了|受不了)")
# a question about food is no restriction: 有没有羊肉的菜 / 能不能做鱼
# who someone is says what they do not eat: the item names the group, the skill knows what it rules out
_GROUPS = ((re.compile(r"清真|回民|回族|穆斯林"), "清真"), (re.compile(r"痛风|高尿酸|尿酸(?:有点|有些|比较|偏)?高"), "痛风"),
           (re.compile(r"糖尿病|高血糖|血糖(?:有点|有些|比较|偏)?高|控糖"), "控糖"),
           (re.compile(r"孕妇|怀孕|孕期|怀着(?:宝宝|孩子|二胎)|有身孕"), "孕妇"))
_ALL_FINE = re.compile(r"^[\u4e00-\u9fff]{0,4}?(?:都行|都可以|都能吃|都ok|随便)$")
# "nothing" said the everyday ways: 没啥忌口 / 木有 / 没得忌口 / 百无禁忌 / 大家都不挑 / 啥都能吃的 / 随便弄 /
# 你看着办 / 家常就行 / 都OK的 — who says it and the particles around it carry nothing
_NONE_WHO = r"(?:我们?|咱们?|大家|全家|一家人|家里人?|他们|都|也|其实|基本上?|反正|真的)*"
_NONE_SAID = re.compile(
    _NONE_WHO + r"(?:"
    r"(?:没|没有|木有|冇|没得|无)(?:啥|什么|任何|特别的?|别的|其他的?|其它的?)*(?:忌口|要求|禁忌|讲究|不吃的|不能吃的|不爱吃的|讲究的)?"
    r"|百无禁忌|不忌口|不挑(?:食|嘴)?|(?:啥|什么|啥子)都(?:能|可以|爱)?吃|(?:都|全)(?:能|可以|爱)?吃|都(?:行|可以|ok|OK|好)"
    r"|随便(?:弄|做|安排|来|点|吧)?|无所谓|你(?:看着|随便|决定)(?:办|弄|安排|来)?(?:就行|就好|吧)?|家常(?:菜)?就(?:行|好|可以)"
    r")(?:的|啦|哈|了|呀|啊|哦|吧|呢|嘛|滴|哒|喔|噢|就行|就好)*$", re.IGNORECASE)
_ASKS = re.compile(r"啥|什么|吗|怎么|哪|几|多少|[？?]")
_HOLDS_BACK = re.compile(r"不|别|忌|怕|戒|过敏|少放|素")
_QUESTION = re.compile(r"^(?:有没有|有什么|能不能|可不可以|可以.+吗|.+吗$)")
_TRAILING = re.compile(r"(?:的东西|的菜|东西|类|的|了|哦|呢|吧)+$")
_SPICY = re.compile(r"^(?:吃)?(?:太)?(?:辣|辣的|辣椒|吃辣|麻辣|辛辣)$")
_LIGHT = ("清淡", "清淡点", "清淡一点", "口味清淡", "少油少盐", "吃清淡点")


def _vegetarian(clause: str) -> str:
    vegan = "纯素" if _VEGAN.search(clause) else "素"
    found = _VEG.search(clause)
    subject = clause[: found.start()] if found else clause
    if _VEG_ALL.search(subject) or not subject.strip("我们吃是个的"):
        return "纯素" if vegan == "纯素" else "素食"
    count = _VEG_COUNT.search(subject)
    people = int(count.group(1)) if count else len([p for p in _AND.split(subject) if p.strip()])
    if people >= 2:
        return f"{people}人吃{vegan}"
    if _VEG_SOME.search(subject):
        return f"有人吃{vegan}"
    return "纯素" if vegan == "纯素" else "素食"


def _food(word: str) -> str:
    word = _TRAILING.sub("", _SUBJECT.sub("", word.strip()))
    if _SPICY.match(word):
        return "辣"
    return word


def _foods(body: str) -> list[str]:
    return [f for f in (_food(p) for p in _AND.split(body)) if f]


def _clause(clause: str) -> tuple[list[str], bool]:
    """The restrictions one clause states, and whether it said "nothing"."""
    clause = _FILLER.sub("", _FILLER.sub("", clause.strip()))
    if not clause:
        return [], False
    if clause.lower() in NOTHING_WORDS or _NOTHING.match(clause) or _NONE_SAID.fullmatch(clause) \
            or _NONE_SAID.fullmatch(re.sub(r"(.{2,4})\1+", r"\1", clause)):  # 没有没有
        return [], True
    if _VEG.search(clause):
        return [_vegetarian(clause)], False
    if clause in _LIGHT:
        return ["清淡"], False
    if _POSITIVE.match(clause) or _ALL_FINE.search(clause):
        return [], True  # 大人都行 / 我们都可以: nothing for them
    group = group_of(clause)
    if group is not None:
        return [group], False
    if _QUESTION.match(clause) or (_ASKS.search(clause) and not _HOLDS_BACK.search(clause)):
        return [], False  # "我的资料你都记了些啥": a question of its own, no food
    body = _SUBJECT.sub("", clause)
    inner = _INNER_NEGATOR.search(body)
    if inner is not None and _NEGATOR.match(body) is None and "过敏" not in body[:inner.start()] \
            and _FILLER.sub("", body[inner.end():]):  # "香菜不要": the food comes first, nobody named
        body = body[inner.start():]
    m = _ALLERGY.match(body)
    if m:
        return _foods(m.group(1)), False
    m = _NEGATOR.match(body)
    if m:
        body = body[m.end():]
    elif body.startswith("不") and len(body) <= 3:  # 不辣 / 不要葱
        body = body[1:]
    return _foods(body), False


def group_of(clause: str) -> str | None:
    """The eating group a clause names (三个回民朋友 → 清真, 我爸有痛风 → 痛风, 血糖高 → 控糖, 怀孕了 → 孕妇)."""
    return next((item for pattern, item in _GROUPS if pattern.search(clause)), None)


def parse_restrictions(text: str) -> list[str] | None:
    """The restrictions in ``text``, in order, without repeats; [] for "none"; None when empty."""
    t = normalize_numerals(text.strip())
    if not t:
        return None
    items: list[str] = []
    said_nothing = False
    for part in _SPLIT.split(t):
        found, nothing = _clause(part)
        said_nothing = said_nothing or nothing
        items.extend(x for x in found if x not in items)
    if items or said_nothing:
        return items
    return None
