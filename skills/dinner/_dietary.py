"""Restrictions said inside a whole first message: "今晚4个人吃饭，预算150，有个朋友芒果过敏" → [芒果].

The dinner skill's ``SlotSpec.extract`` for ``dietary``: only clauses that state a restriction are
read, the head count and budget around them are ignored, and the items come out in the same words
as an answer to "有什么忌口吗？" does (辣, 香菜, 芒果, 素食, 有人吃素, 2人吃素; [] for 没啥忌口), so
the bot does not ask again. ``tests/skills/test_dinner_dietary.py`` holds both to one table.
"""

from __future__ import annotations

import re

__all__ = ["extract_dietary"]

_CUE = re.compile(r"不吃|不要|不能吃|不想吃|不爱吃|不喜欢吃|忌口|过敏|吃素|素食|茹素|纯素|全素|吃斋|清真|怕辣|吃不了|"
                  r"别放|不放|清淡|什么都吃|啥都吃|不挑")
_NONE = re.compile(r"(?:没|没有|无)(?:啥|什么|任何)?(?:别的|其他的?)?(?:特别的?)?忌口|不忌口|什么都吃|啥都吃|不挑食?|都能吃")
_LEAD = re.compile(r"^.*?(?:[\d一二两三四五六七八九十百]+\s*(?:个人|人|位|口人|块钱|块|元)|预算\s*[\d一二两三四五六七八九十百]+|"
                   r"(?:晚饭|晚餐|吃饭|聚餐|做饭|安排一下|安排)(?:吧|呢)?)")
_MEAL_LEAD = re.compile(r"^.*?(?:预算\s*[\d一二两三四五六七八九十百]+|块钱|块|元|晚饭|晚餐|吃饭|聚餐|做饭|安排一下|安排)(?:吧|呢)?")
_VEG = re.compile(r"吃素|素食|茹素|全素|纯素|吃斋")
_SOME = re.compile(r"有人|有个|有一个|有位|有一位|其中|朋友|同事|客人|老婆|老公|媳妇|爱人|孩子|女儿|儿子|妈|爸|爷爷|奶奶|"
                   r"外婆|姥姥|婆婆|一个|一位")
_COUNT = re.compile(r"([2-9]|[两二三四五六七八九])\s*(?:个人|个|位|人)")
_CN = {"两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_SUBJECT = re.compile(r"^(?:有人|有个朋友|有一个朋友|有位朋友|有个|有一个|有位|一个朋友|朋友|我们家|我家|我们|我|家里人?|"
                      r"孩子|宝宝|老人|老婆|老公|媳妇|其中一个人?|其中|客人|同事|大家|全家)*(?:都|也|有点|比较)*")
_NEGATOR = re.compile(r"^(?:不太能吃|不能吃|不想吃|不爱吃|不喜欢吃|不吃|不要|别放|不放|吃不了|忌口|忌|怕)")
_AND = re.compile(r"和|以及|还有|跟|、|(?:也|都)?不(?:吃|要)(?=.)")
_TRAILING = re.compile(r"(?:的东西|的菜|东西|类|的|了|哦|呢|吧)+$")


def _food(word: str) -> str:
    word = _TRAILING.sub("", _SUBJECT.sub("", word.strip()))
    return "辣" if re.fullmatch(r"(?:吃)?(?:太)?(?:辣|辣的|辣椒|吃辣|麻辣)", word) else word


def _vegetarian(clause: str) -> str:
    kind = "纯素" if re.search(r"全素|纯素", clause) else "素"
    subject = clause[: _VEG.search(clause).start()] if _VEG.search(clause) else clause  # type: ignore[union-attr]
    if re.search(r"都|全家|大家|一家", subject) or not subject.strip("我们吃是个的"):
        return "纯素" if kind == "纯素" else "素食"
    count = _COUNT.search(subject)
    people = (int(count.group(1)) if count.group(1).isdigit() else _CN[count.group(1)]) if count else \
        len([p for p in re.split(r"和|跟", subject) if p.strip()])
    if people >= 2:
        return f"{people}人吃{kind}"
    return f"有人吃{kind}" if _SOME.search(subject) else ("纯素" if kind == "纯素" else "素食")


def _clause(clause: str) -> list[str]:
    lead = _MEAL_LEAD if _VEG.search(clause) else _LEAD  # 两个人吃素: the count belongs to the vegetarians
    while True:
        m = lead.match(clause)
        if m is None or m.end() == len(clause) or not _CUE.search(clause[m.end():]):
            break
        clause = clause[m.end():]
    if _VEG.search(clause):
        return [_vegetarian(clause)]
    if "清真" in clause:
        return ["清真"]
    if "清淡" in clause:
        return ["清淡"]
    body = _SUBJECT.sub("", clause)
    allergy = re.search(r"(?:对)?([^对]+?)(?:都|也)?过敏", body)
    if allergy:
        body = allergy.group(1)
    else:
        neg = re.search(_NEGATOR.pattern.lstrip("^"), body)
        if neg is None:
            return []
        body = body[neg.end():]
    return [f for f in (_food(p) for p in _AND.split(body)) if f]


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
