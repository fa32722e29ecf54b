"""A festival word that names what the message is about, not when: 中秋月饼, 吃元宵, 腊八粥, 春节联欢晚会.

Each festival declares its things and customs once (:mod:`festivals`); a festival word is content when a
thing of its festival or a generic noun follows it (中秋月饼, 国庆的车票), when it lies inside a thing or a
custom that is longer than it (腊八粥, 闹元宵), or when it is itself a thing that a verb takes (吃元宵,
煮几个元宵) or that follows its festival's name (上元节元宵). Everywhere else it says when.
"""

from __future__ import annotations

import re
from functools import lru_cache

from runtime.parsers import festivals

__all__ = ["names_content"]

# nouns that make any festival word before them an attribute (国庆档, 春节联欢晚会, 圣诞促销)
_GENERIC = ("粥", "蒜", "酒", "糕", "礼物", "礼盒", "晚会", "联欢", "节目", "活动", "聚会", "促销", "特价", "大餐", "贺卡",
            "祝福", "快乐", "对联", "档", "套餐", "装饰", "门票", "车票", "机票", "火车票", "高铁票", "值班", "加班", "作业",
            "福利", "奖金", "购物", "主题", "文案", "海报", "贺词", "串门", "安康")
# what takes a thing as its object: 吃元宵, 煮碗元宵, 买两袋汤圆
_VERB = re.compile(r"(?:吃|煮|买|包|做|蒸|尝|喝|订|送|搓|滚|带|备|囤|挂|贴|放)(?:了|上|点|些|一些|[一两几]?[个碗盒袋包份颗])?$")


def _alt(words: tuple[str, ...]) -> str:
    return "|".join(sorted(map(re.escape, set(words)), key=len, reverse=True))


@lru_cache(maxsize=64)
def _after(name: str) -> re.Pattern[str]:
    festival = festivals.by_word(name)
    things = festival.things if festival is not None else ()
    return re.compile(rf"(?:的)?(?:{_alt(_GENERIC + things)})")


def names_content(text: str, start: int, end: int, name: str) -> bool:
    """Whether the word ``text[start:end]`` of festival ``name`` (中秋节) names what is said rather than when."""
    if _after(name).match(text, end):
        return True
    festival = festivals.by_word(name)
    if festival is None:
        return False
    word = text[start:end]
    for thing in (*festival.things, *festival.customs):
        if len(thing) <= len(word) or word not in thing:
            continue
        at = text.find(thing, max(0, end - len(thing)))
        if 0 <= at <= start and at + len(thing) >= end:
            return True  # 腊八粥, 闹元宵
    if word not in festival.things:
        return False  # 元宵 the festival, not the food
    named = any(text.endswith(w, 0, start) for w in festival.words)  # 上元节元宵: the festival's own food
    return named or _VERB.search(text, 0, start) is not None
