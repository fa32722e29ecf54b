"""What a person says about their training, read into a plan's terms (pure):

* restrictions — a body part or condition ("膝盖不好", "腰不太好", "血压高", "怀孕了") by what it rules out,
  or activities not wanted ("别安排跑跳", "不想游泳") — echoed by name, never by pasting the words;
* the free days ("只有周末有空", "周二周四晚上有空", "工作日没空");
* what to add ("想加点力量训练", "多安排点有氧").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from skills.exercise._met import activities, find_activity

__all__ = ["BODY", "CARDIO", "DAYS_SAID", "IMPACT", "extract_add", "extract_avoid", "extract_days", "describe_avoid", "describe_days",
           "ruled_out"]

# low-impact first: what a ruled-out cardio session becomes
CARDIO = ("快走", "骑车", "游泳", "椭圆机", "动感单车", "跑步", "跳绳")
IMPACT = frozenset({"跑步", "跳绳", "跳操", "HIIT", "篮球", "足球", "羽毛球", "网球", "爬山", "爬楼梯"})
# a condition (its words) → the activities it rules out, and how the plan says so
_CONDITIONS: tuple[tuple[str, str, frozenset[str], str], ...] = (
    ("膝盖", r"膝盖|膝关节|半月板|髌骨", IMPACT, "膝盖不好，不安排跑跳和爬坡"),
    ("脚踝", r"脚踝|脚腕|崴了?脚|跟腱", IMPACT, "脚踝不好，不安排跑跳"),
    ("腰", r"腰椎|腰间盘|腰肌|腰(?=[^果包带]|$)", frozenset({"划船机", "跳绳", "HIIT", "网球", "羽毛球"}),
     "腰不好，不安排扭转和冲击的运动，力量训练避开弯腰负重"),
    ("肩", r"肩膀|肩周|肩(?=[^上]|$)", frozenset({"羽毛球", "网球", "划船机", "游泳"}), "肩不好，不安排挥拍、划水的运动"),
    ("血压", r"高血压|血压高|血压", frozenset({"HIIT", "跳绳"}), "血压高，不安排高强度间歇，力量训练别憋气"),
    ("心脏", r"心脏|心血管|心梗", frozenset({"HIIT", "跳绳", "跑步", "篮球", "足球"}), "心脏方面要小心，只安排中低强度"),
    ("孕期", r"怀孕|孕期|孕妇|备孕", IMPACT | {"HIIT", "动感单车"}, "孕期只安排低强度运动"),
    ("年纪", r"老年人?|老人家|上了?年纪|岁数大|年纪大|老胳膊老腿|[六七八]十(?:多|来)?岁", IMPACT | {"HIIT"},
     "上了年纪，只安排低冲击、练平衡的运动"),
)
_CATEGORY = (("跑跳", r"跑跳|又跑又跳|蹦跳|跑(?:和|或|或者)?跳", IMPACT, "不安排跑跳"),
             ("剧烈", r"剧烈|高强度|太累的", frozenset({"HIIT", "跳绳", "跑步"}), "不安排剧烈运动"),
             ("跳", r"^跳(?:的|跃)?$|^蹦", frozenset({"跳绳", "跳操", "HIIT", "篮球"}), "不安排跳跃动作"))
_PROBLEM = (r"(?:的)?(?:不太好|不好|不行|有伤|受过伤|受伤了?|伤了|伤过|疼|痛|有点疼|有点痛|有问题|不舒服|有毛病|高|"
            r"做过手术|动过手术|崴过|崴了|扭过|扭伤过?|骨折过|不灵活|有旧伤|劳损)")
# a body part or condition said with what is wrong with it (the words a plan's follow-up listens for)
BODY = (r"(?:我|我的|最近)?(?:膝盖|膝关节|半月板|脚踝|脚腕|跟腱|腰椎|腰间盘|腰|肩膀|肩周|肩|血压|心脏|心血管)" + _PROBLEM
        + r"|(?:我)?(?:高血压|怀孕了?|孕期|备孕)"
        + r"|(?:我)?(?:都|已经)?(?:是)?(?:老年人|上了?年纪|岁数大了?|年纪大了?|[六七八]十(?:多|来)?岁了?)")
_NOT = r"(?:别|不要|不想|不能|不用|不适合|没法|避开|避免|不爱|不喜欢|讨厌|去掉|取消)"


def _conditions(text: str) -> list[str]:
    found = []
    for name, words, _, _ in _CONDITIONS:
        m = re.search(rf"(?:{words})", text)
        said_wrong = m is not None and (m.group().startswith("崴") or "高" in m.group() and name == "血压")
        if m and (name in ("孕期", "心脏", "年纪") or said_wrong or re.match(_PROBLEM, text[m.end():])):
            found.append(name)
    return found


def _not_wanted(text: str) -> list[str]:
    """Activities and kinds after a 别/不想/不能: "别安排跑跳", "不想游泳也不想跑步", "跳绳就算了"."""
    found: list[str] = []
    for m in re.finditer(rf"{_NOT}(?:再)?(?:安排|练|做|去)?(?P<what>[^，,。；;！!？?也]{{1,8}})", text):
        what = m.group("what")
        for name, words, _, _ in _CATEGORY:
            if re.search(words, what):
                found.append(name)
                break
        else:
            activity = find_activity(what)
            if activity is not None:
                found.append(activity)
    for m in re.finditer(r"(?P<what>[\u4e00-\u9fffA-Za-z]{2,5})(?:就)?(?:算了|免了|不要了|去掉吧?|别安排了?)", text):
        activity = find_activity(m.group("what"))
        if activity is not None:
            found.append(activity)
    return found


def extract_avoid(text: str) -> list[str] | None:
    """The restrictions ``text`` states, by name (膝盖, 腰, 跑跳, 游泳 …); None when it states none."""
    found = [*_conditions(text), *_not_wanted(text)]
    return list(dict.fromkeys(found)) or None


def ruled_out(avoid: Iterable[str]) -> set[str]:
    """Every activity the restrictions ``avoid`` rule out."""
    out: set[str] = set()
    known = activities()
    for item in avoid:
        for name, _, banned, _ in (*_CONDITIONS, *_CATEGORY):
            if item == name:
                out |= banned
        if item in known:
            out.add(item)
    return out


def describe_avoid(avoid: Iterable[str]) -> list[str]:
    """How the plan says each restriction: by what it rules out."""
    said = {name: text for name, _, _, text in (*_CONDITIONS, *_CATEGORY)}
    return [said.get(item, f"不安排{item}") for item in avoid]


_DAY_NUM = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_WEEKDAY = re.compile(r"(?:周|星期|礼拜)(?P<a>[一二三四五六日天])(?:(?:到|至|-|~)(?:周|星期|礼拜)?(?P<b>[一二三四五六日天]))?"
                      r"(?P<more>(?:[、和跟]?[一二三四五六日天](?![点号]))*)")
_FREE = r"(?:有空|有时间|能练|可以练|方便|才有空|才有时间|能去|可以去|能运动|可以运动|练|去|行|可以|成)"
_BUSY = r"(?:没空|没时间|不行|不可以|不成|不方便|练不了|去不了|要上班|加班|值班|出差|有事|别排|别安排|不要排|不要安排|不排|不安排|空出来)"


# a set of days as said ("周二周四", "礼拜一礼拜四", "周一到周三", "周末", "平时"), then free or busy on them:
# one statement of free or busy days, for a follow-up of a plan to recognise ("平时要上班 周三周日才可以")
_DAY_SET = (r"(?:(?:周|星期|礼拜)[一二三四五六日天](?:[、和跟到至~-]|(?:周|星期|礼拜)|[一二三四五六日天](?![点号]))*"
            r"|周末|双休|工作日|上班的日子|上班日|平时|平日|平常)")
DAYS_SAID = (rf"(?:我)?(?:只有|只能|只在|就|但是?|不过|可是)?{_DAY_SET}(?:的)?(?:早上|晚上|下午|上午|中午)?(?:我)?"
             rf"(?:才|要|得|需要|都|还)?(?:{_BUSY}|{_FREE})"
             rf"|(?:别|不要|不用|不)(?:给我)?(?:排|安排)(?:在)?{_DAY_SET}")

# a clause ends at punctuation or a space, and a contrast starts a new one ("平时没空 只有周六行", "工作日没空但周三可以")
_CLAUSE_BREAK = re.compile(r"[，,。；;！!？?\s]+|(?=但是|但|不过|可是|只有|只能|只在)")


def _clause_days(text: str) -> set[int]:
    days: set[int] = set()
    for m in _WEEKDAY.finditer(text):
        a = _DAY_NUM[m.group("a")]
        b = _DAY_NUM[m.group("b")] if m.group("b") else a
        days |= set(range(a, b + 1)) if b >= a else {a, b}
        days |= {_DAY_NUM[ch] for ch in m.group("more") if ch in _DAY_NUM}  # 周一三五
    if re.search(r"周末|礼拜六日|星期六日|双休", text):
        days |= {5, 6}
    if re.search(r"工作日|上班的日子|上班日|平时|平日|平常", text):
        days |= {0, 1, 2, 3, 4}
    return days


_ASKS = re.compile(r"[吗么嘛？?]|啥|什么|哪些|几|呢$")


def extract_days(text: str) -> list[int] | None:
    """The free weekdays ``text`` states (0 = Monday): "只有周末有空" → [5, 6]; "周二周四晚上有空" → [1, 3];
    "工作日没空" → [5, 6]; None when it says nothing of free days. Each clause says free or busy days
    ("平时没时间，只有周二和周六能练"): the free days said win, else every day but the busy ones."""
    free: set[int] = set()
    busy: set[int] = set()
    for clause in _CLAUSE_BREAK.split(text):
        days = _clause_days(clause)
        if not days or _ASKS.search(clause):  # "周六要练吗" asks about a day, it does not free it
            continue
        if re.search(_BUSY, clause):
            busy |= days
        elif re.search(_FREE + "|只有|只能|就|只在", clause):
            free |= days
    if not free and not busy:
        return None
    return sorted(free or set(range(7)) - busy) or None


def describe_days(days: Iterable[int]) -> str:
    """"只在周六、周日练", or, when most days are free, "周三、周五不安排"."""
    free = sorted(set(days))
    names = "一二三四五六日"
    if len(free) >= 4:
        return "、".join(f"周{names[d]}" for d in range(7) if d not in free) + "不安排"
    return "只在" + "、".join(f"周{names[d]}" for d in free) + "练"


_ADD = re.compile(r"(?:想|要|再|多|能不能|可以)?(?:加|添|增加|多安排|多练|多来|多做|安排|练练|练)(?:点|些|一点|一些|个|一次|一天|上)?"
                  r"(?:练练|练|做)?(?P<what>力量训练|力量|撸铁|肌肉|核心|有氧|拉伸|柔韧|瑜伽|游泳|骑车|快走|跑步|跳绳|球类?|[\u4e00-\u9fff]{2,4})")


def extract_add(text: str) -> list[str] | None:
    """Activities ``text`` asks to add: "想加点力量训练" → [力量训练]; "多安排点有氧" → [有氧]."""
    found: list[str] = []
    for m in _ADD.finditer(text):
        what = m.group("what")
        if what in ("有氧",):
            found.append("有氧")
        elif what in ("力量", "撸铁", "肌肉", "核心"):
            found.append("力量训练")
        elif what in ("柔韧",):
            found.append("拉伸")
        elif what.startswith("球"):
            found.append("羽毛球")
        else:
            activity = find_activity(what)
            if activity is not None:
                found.append(activity)
    return list(dict.fromkeys(found)) or None
