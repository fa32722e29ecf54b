"""Head counts said in everyday Chinese: 3个人, 仨, 一家五口, 我们两口子, 3个大人1个小孩 (4),
三个朋友加上我 (4), 加我一共4个人 (4), 就我自己 (1) — and changes to a count said after a plan
(再加俩人 +2, 我爸妈也要过来 +2, 少一个人 -1).

Pure functions over the text; numerals are made plain first (俩 → 2个, 一百 → 100).
"""

from __future__ import annotations

import re

from runtime.parsers.numbers import approximate_numerals

__all__ = ["PEOPLE_DELTA", "PEOPLE_TOTAL", "parse_people", "people_delta", "people_total"]

_ONE = r"(?:个人|位|人|口人|口)"
# (一 is a digit once numerals are made plain: 一共 reads 1共)
_ALL = r"(?:[一1]共|总共|共计|总计|加起来|全部|一起)"
# a total said outright wins over every part of it: 加我一共4个人, 算上我总共5位
_TOTAL = re.compile(_ALL + r"\D{0,3}?(\d+)\s*" + _ONE
                    + r"|(?:算上我|加上我|加我|连我|包括我|带上我)\s*(?:[一1]共|总共|共)?\s*(\d+)\s*" + _ONE)
# the count as it stands now, said after a change (变成九个了, 改成五位, 只剩两个人, 总共十个): a bare 个 counts
# here only where the clause ends
_NOW = (r"(?:" + _ALL + r"|变成|变为|变|改成|改为|成了|只剩下?|就剩下?|还剩下?|剩下|剩|只有|现在是|现在)"
        r"\s*(?:是|有)?\s*(\d+)\s*(?:个人|位|人|口人|口|个(?=$|[\s，,。！!了啦喇咯吧啊呢呀~～]))")
_NOW_TOTAL = re.compile(_NOW)
# the one who speaks, counted on top of the guests named: 三个朋友，加上我
_AND_ME = re.compile(r"算上我|加上我|加我|连我|包括我|带上我|还有我|再加上?我")
_PLUS = re.compile(r"(\d+)\s*(?:个人|位|口人|口|个|人)?\D{0,6}?(?:加上|外加|再加|加|还有|另外|以及|和|跟)"
                   r"\D{0,6}?(\d+)\s*(?:个人|位|口人|口|个|人)(?!\d)")
# groups of a table: 3个大人1个小孩, 两个老人三个孩子
_GROUP = re.compile(r"(\d+)\s*(?:个|位|名)?(?:大人|成人|小孩|孩子|小朋友|娃|宝宝|老人家|老人|男的|女的)")
_GUESTS = re.compile(r"(?<![有])(\d+)\s*(?:个|位|名)[\u4e00-\u9fff]{0,3}?(?:客人|朋友|同事|同学|亲戚|家人|邻居|闺蜜|哥们)")
# a bare 个 counts only at the end or before eating ("3个", "3个吃"), never as "one of them"
# ("有一个不吃牛肉", "一个朋友芒果过敏" are about a person, not the head count)
_COUNT = re.compile(r"(\d+)\s*" + _ONE + r"|(?<!有)(\d+)\s*个(?=\s|$|[，,。！!吧啊呢呀~～])")
_EATING = re.compile(r"(\d+)\s*(?:个)?(?:吃|用餐|就餐)")
_ALONE = re.compile(r"就我(?:自己|一个)|我一个人|我自己吃|一个人吃|独自")
_ALONE_ANSWER = re.compile(r"(就)?(我)?(自己|一个人)(吃)?")
# people named by kinship, for "…也要过来": how many each word brings
_KIN = (("爸妈", 2), ("父母", 2), ("公婆", 2), ("岳父母", 2), ("爷爷奶奶", 2), ("外公外婆", 2), ("姥姥姥爷", 2),
        ("夫妻", 2), ("两口子", 2), ("小两口", 2))
_KIN_ONE = re.compile(r"我?(?:爸|妈|爷爷|奶奶|外公|外婆|姥姥|姥爷|哥|姐|弟|妹|舅|姨|叔|婶|姑|老公|老婆|媳妇|对象|男朋友|女朋友|"
                      r"闺蜜|朋友|同事|同学|邻居|室友)")
_FAMILY = re.compile(r"(?:一|1)家(\d+)口")
# who a change of the count brings or takes away
_WHO = r"(?:个人|人|客人|朋友|同事|同学|亲戚|小孩|孩子|小朋友|大人|老人|家人|邻居)"
_CLAUSE_END = r"(?=$|[\s，,。！!~～?？啊呀吧哈呢])"


def _delta_grammar(num: str) -> re.Pattern[str]:
    """The ways a count said before grows or shrinks, over numbers written as ``num``: arrivals (又多来了仨,
    多了两个人, 再加两位, 又来了一个朋友, 加俩) and departures (有一个来不了了, 三个人不来了, 少了一个人, 走了俩).
    A bare 个 counts people only after a verb of coming or going (又来了两个), never after 加 (再加两个 may be
    dishes)."""
    arrive = (r"(?<![好很许大太不差])(?:又|再|还|另外|另)?(?:多|加|添|增加|新增)(?:叫|请|喊|约|带)?(?:上)?了?(?:来|过来)?了?"
              r"|(?:又|再|还|另外)(?:叫|请|喊|约|带)(?:上|了|来)*"  # 再叫两个朋友, 又约了俩同事
              r"|(?:又|再|另外)(?:要)?(?:过)?(?:来|到)了?|多出(?:来)?了?")
    come = r"(?:又|另外)(?:要)?(?:过)?(?:来|到)了?|(?<![好很许大太不差])又?多(?:过)?来了?"
    gone = (r"(?:临时|突然|说|有事|今晚|晚上|又|也|都)*(?:来不了|来不到|不来(?:了|啦|喇|咯|哦)|不能来|没法来|来不成|去不了|"
            r"不过来了|走了|先走了?|先撤了?|撤了|不来(?=$|[\s，,。！!~～]))")
    less = r"(?<![多至最])(?:少|减|去掉)|走"
    return re.compile(
        rf"(?:{arrive})\s*(?:(?P<more_n>{num})\s*(?:个|位|名)?\s*{_WHO}|(?P<more_pos>{num})\s*位|(?:个|位)\s*{_WHO})"
        rf"|(?:{come})\s*(?:(?P<came_n>{num})\s*(?:个|位)?|个){_CLAUSE_END}"
        rf"|(?:{come})\s*(?P<came_of>{num})\s*(?:个|位|名)?[\u4e00-\u9fff]{{1,6}}?的{_CLAUSE_END}"
        rf"|(?:{less})了?(?:来)?了?\s*(?P<less_n>{num})?\s*(?:个|位|名)?\s*{_WHO}"
        rf"|(?:(?<![多至最])少|走)了\s*(?P<left_n>{num})\s*(?:个|位)?{_CLAUSE_END}"
        rf"|(?P<gone_n>{num})\s*(?:个|位|名)?\s*{_WHO}?\s*{gone}"
        rf"|(?P<gone_one>(?:有|那|这)个)\s*{_WHO}?\s*{gone}")  # 有个同事不来啦 / 那个不来了: one


_DELTA = _delta_grammar(r"\d+")
_WRITTEN = r"(?:\d+|[一两二三四五六七八九十]+|俩|仨)"
# the same grammars over the words as written (俩, 两, 3), for the spans a follow-up accounts for
PEOPLE_DELTA = _delta_grammar(_WRITTEN).pattern
PEOPLE_TOTAL = _NOW.replace(r"(\d+)", _WRITTEN).replace("[一1]共", "一共")
_COMING = re.compile(r"也(?:要)?(?:过|回)?来|也来|要来|过来|来了")


def parse_people(text: str, answer: bool = False) -> int | None:
    """How many people eat. ``answer``: the whole message answers "几个人？" (a bare 3 counts)."""
    t = approximate_numerals(text)
    total = _TOTAL.search(t) or _NOW_TOTAL.search(t)
    if total is not None:
        return int(next(g for g in total.groups() if g))
    plus = _PLUS.search(t)
    if plus is not None and not re.search(r"\d\s*(?:块|元|钱|¥)", t[plus.start():plus.end() + 2]):
        return int(plus.group(1)) + int(plus.group(2))
    groups = _GROUP.findall(t)
    if len(groups) >= 2:
        return sum(int(g) for g in groups)
    m = _COUNT.search(t)
    if m is not None:
        return int(next(g for g in m.groups() if g))
    guests = _GUESTS.search(t)
    if guests is not None:
        return int(guests.group(1)) + (1 if _AND_ME.search(t) else 0)
    m = _EATING.search(t)
    if m is None and answer:
        m = re.fullmatch(r"\D{0,4}?(\d+)\D{0,4}", t.strip())
    if m is not None:
        return int(m.group(1))
    if _ALONE.search(t) or (answer and _ALONE_ANSWER.fullmatch(t.strip())):
        return 1
    return None


def people_delta(text: str) -> int | None:
    """How a count said before changes: 再加俩人 → +2, 少一个人 → -1, 我爸妈也要过来 → +2,
    我弟一家三口也来 → +3, 朋友也要来 → +1. None when the text changes no count."""
    t = approximate_numerals(text)
    found = _DELTA.search(t)
    if found is not None:
        more = found.group("more_n") or found.group("more_pos") or found.group("came_n") or found.group("came_of")
        less = found.group("less_n") or found.group("left_n") or found.group("gone_n")
        if more:
            return int(more)
        if found.group("less_n") is not None or found.group("left_n") is not None or found.group("gone_n") is not None:
            return -int(less)
        if found.group("gone_one") is not None:
            return -1
        return -1 if found.group(0).startswith(("少", "减", "去掉", "走")) else 1
    if not _COMING.search(t):
        return None
    family = _FAMILY.search(t)
    if family is not None:
        return int(family.group(1))
    counted = _GROUP.findall(t) or _GUESTS.findall(t)
    if counted:
        return sum(int(g) for g in counted)
    for word, count in _KIN:
        if word in t:
            return count
    named = _KIN_ONE.findall(t)
    return max(1, len(named)) if named or "也" in t else None


def people_total(text: str) -> int | None:
    """The head count as it stands after a change, when it is said outright (变成九个了, 改成五位, 只剩两个人,
    总共十个, 加我一共5位): the number said wins over the change said beside it."""
    t = approximate_numerals(text)
    found = _TOTAL.search(t) or _NOW_TOTAL.search(t)
    return int(next(g for g in found.groups() if g)) if found is not None else None
