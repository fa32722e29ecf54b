"""Restrictions said inside a whole first message: "今晚4个人吃饭，预算150，有个朋友芒果过敏" → [芒果].

The dinner skill's ``SlotSpec.extract`` for ``dietary``: only clauses that state a restriction are
read, the head count and budget around them are ignored, and the items come out in the same words
as an answer to "有什么忌口吗？" does (辣, 香菜, 芒果, 素食, 有人吃素, 2人吃素; [] for 没啥忌口), so
the bot does not ask again. ``tests/skills/test_dinner_dietary.py`` holds both to one table.
"""

from __future__ import annotations

import re

from runtime.skill.parsers import group_of, parse_restrictions

__all__ = ["extract_dietary"]

_CUE = re.compile(r"不辣|都能吃|回民|回族|穆斯林|痛风|尿酸|糖尿病|血糖|控糖|孕妇|怀孕|孕期|怀着|身孕|免辣|不吃|不要|不能吃|不想吃|不爱吃|不喜欢吃|忌口|过敏|吃素|素食|茹素|纯素|全素|吃斋|清真|怕辣|吃不了|"
                  r"别放|不放|清淡|什么都吃|啥都吃|不挑|禁忌")
_NONE = re.compile(r"(?:没|没有|木有|冇|没得|无)(?:啥|什么|任何)?(?:别的|其他的?)?(?:特别的?)?忌口|不忌口|百无禁忌|"
                   r"(?:什么|啥)都(?:能)?吃|不挑食?|都能吃")
_LEAD = re.compile(r"^.*?(?:[\d一二两三四五六七八九十百]+\s*(?:个人|人|位|口人|块钱|块|元)|预算\s*[\d一二两三四五六七八九十百]+|"
                   r"(?:晚饭|晚餐|吃饭|聚餐|做饭|安排一下|安排)(?:吧|呢)?)")
_MEAL_LEAD = re.compile(r"^.*?(?:预算\s*[\d一二两三四五六七八九十百]+|块钱|块|元|晚饭|晚餐|吃饭|聚餐|做饭|安排一下|安排)(?:吧|呢)?")
_VEG = re.compile(r"吃素|素食|茹素|全素|纯素|吃斋")
_NEGATOR = re.compile(r"不太能吃|不能吃|不想吃|不爱吃|不喜欢吃|不吃|不要|别放|不放|吃不了|忌口|忌|怕")


def _clause(clause: str) -> list[str]:
    """One clause that states a restriction, read like an answer once the words around it are dropped."""
    lead = _MEAL_LEAD if _VEG.search(clause) else _LEAD  # 两个人吃素: the count belongs to the vegetarians
    while True:
        m = lead.match(clause)
        if m is None or m.end() == len(clause) or not _CUE.search(clause[m.end():]):
            break
        clause = clause[m.end():]
    if re.search(r"不辣|免辣", clause) and not _NEGATOR.search(clause):
        return ["辣"]  # 不辣 / 要不辣的
    group = group_of(clause)
    if group is not None:
        return [group]  # 三个回民朋友 / 我爸有痛风: who they are says what they do not eat
    for word in ("清真", "清淡"):  # 口味清淡点: the wish, not the words around it
        if word in clause and not _VEG.search(clause):
            return [word]
    neg = _NEGATOR.search(clause)
    if neg is not None and not _VEG.search(clause) and "过敏" not in clause:
        clause = clause[neg.start():]  # 老人家不吃辣: who does not eat it is not an item
    return parse_restrictions(clause) or []


_SWAP = re.compile(r"(?:把|将)?([\u4e00-\u9fff]{1,6}?)(?:换掉|去掉|拿掉|撤掉|不要了|换成别的)")
_SWAP_BEFORE = re.compile(r"(?:换掉|去掉|拿掉|撤掉)([\u4e00-\u9fff]{1,6})")


def extract_dietary(text: str) -> list[str] | None:
    """The restrictions a whole message states; [] when it says there are none; None when it says nothing.
    "把羊肉换掉" / "去掉虾" (said of a plan) rule the food out like "不要羊肉"."""
    text = _SWAP_BEFORE.sub(r"不要\1", _SWAP.sub(r"不要\1", text))
    items: list[str] = []
    said_none = False
    for clause in re.split(r"[，,。；;！!？?\s]+", text):
        if not _CUE.search(clause):
            continue
        if _NONE.search(clause):
            said_none = True
            continue
        items.extend(i for i in _clause(clause) if i not in items)
    if items or said_none:
        return items
    return None
