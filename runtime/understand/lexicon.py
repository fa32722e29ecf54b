"""The shared lexicon (DESIGN §3.6): everyday verbs and question shapes mapped to operations, the ways
people point at something shown ("第二个", "最后那道"), elliptical shapes ("那X呢"), and the function
words that carry no request of their own. With the objects the skills declare, operation × object
covers combinations nobody wrote down.

Pure functions over text; spans are ``(start, end)`` character offsets.
"""

from __future__ import annotations

import functools
import re

from runtime.parsers.negation import NOT_NEEDED
from runtime.parsers.shift import shift_minutes
from runtime.parsers.timephrase import time_spans
from runtime.skill import Operation

__all__ = ["ANOTHER", "NOT_NEEDED", "OPERATION_PATTERNS", "Span", "VOCABULARY", "ahead_minutes", "asks_again_now", "asks_for_another",
           "clauses", "explained", "follow_up_fragment", "is_correction", "is_elliptical_question", "operations",
           "ordinals", "unexplained", "value_spans", "yes_no"]

Span = tuple[int, int]

# "用不着叫我了" / "不用提醒了" / "甭催了": a reminding verb said not to be needed any more is a delete

# The shapes of each operation, most specific first. A question shape (有哪些, 多少) is "see".
_OPERATIONS: tuple[tuple[Operation, re.Pattern[str]], ...] = tuple((op, re.compile(p)) for op, p in (
    (Operation.SNOOZE, r"(过|等|晚)\s*[^，,。]{0,6}?再(叫|提醒|喊|通知)我?|再(叫|提醒|喊)我?一(下|次|遍)|稍后再|晚点再|推迟|延后|往后推|挪到"),
    (Operation.DONE, r"(做|弄|搞|办|忙)(完|好)了|完成了|已经(做|弄|办)了"),
    (Operation.DELETE, r"删除|删掉|删了|删|取消|撤销|撤回|去掉|清空|清掉|清除|清光|清理掉|全扔了|都扔了|关掉|关了|不要了|不用了|作废|算了|拉倒|(?:"
                       + NOT_NEEDED + r")(?:再)?(?:提醒|叫|喊|催)"),
    (Operation.CHANGE, r"改成|改为|改到|换成|换到|调成|调到|改一下|修改|更新|调整|挪|改|换"),
    (Operation.CREATE, r"新建|添加|加一个|加个|设置|设个|设一个|定个|定一个|建个|记一下|记下|记上|记一笔|记一条|记个|记录一下|帮我记|"
                       r"登记|打卡|安排|重新记|重记|从头(?:再)?记|"
                       # making a few of something ("搭配两个菜", "做几道拿手菜"): 几 counts here, it asks nothing
                       r"(?:搭配|配|做|炒|弄|整|烧)(?:上)?(?:几|一|两|三|四|五|六)(?:个|道|样)(?=[^，,。！!？?\s]{0,2}菜)"),
    (Operation.SEE, r"发(?:给)?我(?:一?下|看看)?|给我发(?:一?下)?|看看|看一下|看下|瞧瞧|瞅瞅|查查|查一下|查下|查看|查询|列一下|列出|列个|给我看|显示|说说|讲讲|告诉我|有哪些|有什么|"
                    r"有啥|有多少|还剩|剩多少|剩下|多少|几次|几个|几条|怎么样|什么情况|情况|是什么|是多少|是啥|怎么做|咋做|怎么弄|做法|"
                    r"步骤|看|查|啥|就这(?:一)?(?:个|条|些|几个|几条|几样)|没(?:有)?别的|只有这(?:些|个|几个|几条|几样)"),
))

OPERATION_PATTERNS: dict[Operation, str] = {op: p.pattern for op, p in _OPERATIONS}  # (for generated tests)

# Another one of the kind just shown, not what was shown ("换一个", "再来个别的", "还有别的吗", "换一批", "来点不一样的"):
# the skill whose result is in focus says what "another" is for it (the next recipe, a new table).
_OTHER = r"(?:别的|其他的?|其它的?|另外的|不一样的|新的|不同的)"
ANOTHER = (r"(?:换|再来|再换|再整|再弄|再推荐|再给我?|来|推荐|重新来|重新|重来)\s*(?:[一1]|几)?\s*(?:个|道|份|桌|套|批|样|种|款|些|点|下)?"
           rf"\s*{_OTHER}(?:的)?(?:菜|吃的|做法|菜谱)?"
           r"|^(?:那|那就|要不|要不然|还是)?(?:再)?换\s*(?:[一1]|几)?\s*(?:个|道|批|种|样|款|下)(?:吧|呗|呢|看看|试试)?[。！!~～]*$"
           rf"|还有(?:没有)?{_OTHER}(?:的)?(?:菜|吃的|做法)?(?:吗|没|不|么|呢|没有)?|(?:有没有|有无|有啥|有什么){_OTHER}|^(?:那)?{_OTHER}呢"
           r"|另(?:外)?(?:[一1])?(?:个|道|种)|不要这(?:个|道)(?:了)?|(?:这个|这道)不(?:想|要|喜欢)")

# "第二个" / "第2道" / "2号" / "最后那个" / "头一个": a position among what was shown (1-based; -1 is the last)
_ORDINAL = re.compile(r"第\s*(\d{1,2}|[一二两三四五六七八九十]{1,3})\s*(?:个|道|条|项|样|次|家|种)?"
                      r"|(?<![\d.月])(\d{1,2})\s*号(?:菜|提醒)"
                      r"|(最后|末尾|倒数第一)(?:一|那)?(?:个|道|条|项|样)?|(头|首)(?:一)?(?:个|道|条)")

# Function words, pronouns, particles and politeness: they carry no request of their own.
_FILLER = re.compile(
    r"发(?:给|过来|来)?我?(?:一?下)?|列(?:出来|出|一下|个)|能不能|可不可以|行不行|好不好|要不要|帮我|帮忙|麻烦你?|给我|替我|请你?|一下子?|一下|那个|这个|那道|这道|那条|这条|那些|这些|"
    r"那项|这项|里面|里头|上面|刚才|刚刚|刚|现在|我们|咱们|你|我|他|她|它|的|地|得|了|吧|呢|啊|呀|吗|嘛|哦|噢|哈|啦|呗|嗯|额|来着|"
    r"对了|哦对|忘了说|然后|另外|其实|就是|不过|还有|这回|这次|这下|嗯呐|呐|等等|等一下|等下|稍等|朋友|客人|家人|孩子|小孩|老人|同事|亲戚|老婆|老公|爸爸|妈妈|爸|妈|"
    r"弟弟|妹妹|哥哥|姐姐|弟|妹|哥|姐|表弟|表妹|对|"
    r"就|都|也|还|再|又|先|把|给|让|将|要|想|能|会|可以|一点|点|些|个|道|条|项|那|这|哪|一|是|在|有|没|呗|诶|哎|唉|哟|呦|嗨|嘿|喔|呃|嗐|"
    r"全部|全都|所有|统统|通通|"
    r"[\s，,。.！!？?~～…、；;：:（）()\"“”'‘’]|[\U0001F300-\U0001FAFF\u2600-\u27BF]")

# Yes and no as people say them to a question that waits for one ("没毛病", "就这样吧", "先别了")
_NO = re.compile(r"先别记|别记|先不记|不记|不对|不是|不行|不要|不用|不了|算了|先别|别了|否|取消|no\b|nope|❌|不")
_YES = re.compile(r"确认|确定|没问题|木问题|没毛病|没错|不错|正确|都对|对的|对了|对滴|对哒|对头|是的|是滴|是哒|好的|好嘞|好滴|好哒|"
                  r"行的|可以的?|阔以|"
                  r"就这样|就这么办|就它了|妥了|妥|成|嗯+|好|行|对|是|ok|okay|yes|yep|👌|👍|✅|✔|"
                  r"(?:就|那就|帮我)?记(?:上|下|着|下来|一下)?吧|(?:就|那就|帮我)?记(?:上|下|着|下来)")


# the day or the part of it a yes may repeat ("没错，昨天晚上", "是滴 上周六那天"): it restates, it asks nothing
_DAY_AGAIN = re.compile(r"(?:大?前|昨|今|大?后)(?:天|日|晚|早|夜|儿)|(?:上上?|这|本)?(?:个)?(?:周|星期|礼拜)[一二三四五六日天末]"
                        r"|早上|早晨|上午|中午|下午|傍晚|晚上|夜里|那天|那会儿?|那次|当天|的时候|那个点")


def yes_no(text: str) -> bool | None:
    """True for a yes, False for a no, None when ``text`` is more than a yes or a no (a correction, a
    request of its own): only the yes/no words and function words may be in it — and, beside a yes, the
    day it repeats ("对，就昨晚")."""
    t = text.strip().lower()
    yes = [m.span() for m in _YES.finditer(t)]
    no = [m.span() for m in _NO.finditer(t) if not any(a <= m.start() < b for a, b in yes)]
    if no and explained(t, no + yes):
        return False
    if yes and not no and explained(t, yes + [m.span() for m in _DAY_AGAIN.finditer(t)]):
        return True
    return None


def operations(text: str) -> list[tuple[Operation, Span]]:
    """Every operation ``text`` names, with where it says so (the first shape that matches a stretch wins)."""
    return list(_operations(text))


@functools.lru_cache(maxsize=4096)  # pure, asked by several stages per turn
def _operations(text: str) -> tuple[tuple[Operation, Span], ...]:
    found: list[tuple[Operation, Span]] = []
    taken: list[Span] = []
    for op, pattern in _OPERATIONS:
        for m in pattern.finditer(text):
            span = m.span()
            if any(s < span[1] and span[0] < e for s, e in taken):
                continue
            taken.append(span)
            found.append((op, span))
    return tuple(sorted(found, key=lambda f: f[1]))


def ordinals(text: str) -> list[tuple[int, Span]]:
    """Positions ``text`` points at ("第二个" → 2, "最后那道" → -1), with their spans."""
    out: list[tuple[int, Span]] = []
    for m in _ORDINAL.finditer(text):
        number = m.group(1) or m.group(2)
        index = _small_number(number) if number else (-1 if m.group(3) else 1)
        if index:
            out.append((index, m.span()))
    return out


_DIGIT = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def _small_number(said: str) -> int:
    """1..99 written in digits or in Chinese (二, 十二, 二十); 0 when it is not one."""
    if said.isdigit():
        return int(said)
    tens, ten, ones = said.partition("十")
    if not ten:
        return _DIGIT.get(said, 0) if len(said) == 1 else 0
    high = _DIGIT.get(tens, 0) if tens else 1
    low = _DIGIT.get(ones, 0) if ones else 0
    return high * 10 + low if high and (low or not ones) else 0


# a number said with what it counts ("150", "3个人", "半小时", "5公里", "两斤"): a slot value
_VALUE = re.compile(r"(?:控制在|不超过|不要超过|最多|顶多|大概|大约|差不多|预算)?\s*[\d零一二两三四五六七八九十百千万半俩仨.]+\s*"
                    r"(?:个人|口人|位|个|人|块钱|块|元|分钟|分|小时|钟头|公里|千米|km|米|斤|公斤|克|天|周|号|点)?"
                    r"(?:以内|之内|左右|上下|出头|以下|来块|多块)?")


# a period named by its place in time ("这个月", "今年", "上周"): a value too
_PERIOD = re.compile(r"(?:这个?|本|上上?个?|下下?个?|今|明|去|前|后)(?:年|月|周|星期|礼拜)|(?:大?[前后]|[今明昨])[天日]"
                     r"|最近|近来|这阵子|这段时间|这几天")


def value_spans(text: str) -> list[Span]:
    """Where ``text`` says a value: numbers with what they count, periods and time phrases ("明天下午3点")."""
    return list(_value_spans(text))


@functools.lru_cache(maxsize=4096)  # pure, asked by several stages per turn, and texts come again
def _value_spans(text: str) -> tuple[Span, ...]:
    found = [m.span() for m in _VALUE.finditer(text) if len(m.group().strip(". ")) > 1 or m.group().strip(". ").isdigit()]
    return tuple(found + [m.span() for m in _PERIOD.finditer(text)] + time_spans(text))


_CLAUSE_BREAK = re.compile(r"[，,。.！!？?；;~～…\s]+")


def clauses(text: str) -> list[Span]:
    """The clauses of ``text`` (split at punctuation and spaces), as spans."""
    out: list[Span] = []
    start = 0
    for m in _CLAUSE_BREAK.finditer(text):
        if m.start() > start:
            out.append((start, m.start()))
        start = m.end()
    if start < len(text):
        out.append((start, len(text)))
    return out


def unexplained(text: str, spans: list[Span]) -> str:
    """The characters of ``text`` that neither ``spans`` nor function words account for."""
    mask = [False] * len(text)
    for start, end in spans:
        for i in range(max(0, start), min(len(text), end)):
            mask[i] = True
    rest = "".join(" " if covered else ch for ch, covered in zip(text, mask, strict=True))
    return _FILLER.sub("", rest)


def explained(text: str, spans: list[Span], *, slack: int = 0) -> bool:
    """Whether ``spans`` and function words explain the whole message (``slack`` characters may be left)."""
    return len(unexplained(text, spans)) <= slack


# "那广州呢" / "明天呢" / "那要是周四呢" / "换成上海" / "不对，是6个人": a message that only makes sense
# against the last query's frame. The fragment is handed to that query's slot extraction.
_LEAD = (r"^(?:哦|噢|啊|呃|额|嗯|哎呀|哎哟|哎|唉|诶|欸|不用了|算了|还是|要不|等等|等会儿?|等一下|慢着)?"
         r"[，,\s]*")  # "不用了，改成9点半"
# "记错了" / "我说错了" / "搞错日子了": the speaker owns a slip before saying what is right
_SLIP = r"(?:我|刚才|刚刚)?(?:记|说|写|填|输|打|搞|弄|看)错(?:日子|天|时间|数|了|啦)*"
_FOLLOW_UP = re.compile(
    _LEAD + r"(?:(?:那要是|那换成|那么|如果是|要是|换成|改成|那)\s*(?P<a>.{1,16}?)(?:的话)?(?:呢|怎么样|咋样|如何)?"
    r"|(?P<b>.{1,12}?)(?:的话)?(?:呢|怎么样呢|又怎么样))[?？。!！~～]*$")
# a reason first, then what is right: "刚才秤没放平 应该是70.8", "表没按停，其实是50分钟"
_REASONED = re.compile(_LEAD + r"(?:刚才|刚刚)?[^，,。；;\s]{1,14}[，,。；;\s]+(?:应该是|其实是|实际是|实际上是)\s*"
                                r"(?P<c>[^，,。；;]{1,20}?)[。!！~～]*$")
_CORRECTED = re.compile(_LEAD + rf"(?:{_SLIP}[，,、。\s]*(?:(?:不对|不是)[，,、。\s]*)?|不对|不是|错了|不(?=[，,、。\s]+(?!不|算了|别|没事))"
                        r"|(?:把)?(?:刚才|刚刚|刚)(?:记|设|加|填|录|存|说)?(?:下)?的?(?:那个|那条|这个|这条|那笔|那次)?"
                        r"(?=改成|改为|换成|改到))[，,、。\s]*"
                        r"(?:是|应该是|改成|改为|换成|改到|其实是)?\s*(?P<c>.{1,20}?)[。!！~～]*$")


def ahead_minutes(text: str) -> float | None:
    """Minutes earlier of a message that only moves the time just set ("提前半小时(提醒我)", "提前一天");
    negative for later ("晚半小时", "往后推一小时"); 早点/晚点 are one step. None for anything else."""
    return shift_minutes(text)


def follow_up_fragment(text: str) -> str | None:
    """The changed part of an elliptical follow-up or a correction, or None when ``text`` is not one."""
    t = text.strip()
    m = _FOLLOW_UP.match(t) or _CORRECTED.match(t) or _REASONED.match(t)
    if m is None:
        return None
    fragment = next((g for g in m.groups() if g), "").strip("，, ")
    return fragment or None


# "再来一个别的" / "换一个" / "有其他的吗": something other than what was shown; the 一个 in it counts the thing
# asked for, never people or servings
_ANOTHER = re.compile(ANOTHER)


def asks_for_another(text: str) -> bool:
    """Whether ``text`` asks for something other than what was shown ("再来一个别的", "换一个")."""
    return _ANOTHER.search(text) is not None


def is_elliptical_question(text: str) -> bool:
    """"那广州呢", "那要是周四呢": a question that only makes sense against the last query's frame
    (a correction such as "不对，是6个人" is not one)."""
    return _FOLLOW_UP.match(text.strip()) is not None


def is_correction(text: str) -> bool:
    """"不对，是6个人" / "改成9点半": the message corrects what was said or done last."""
    t = text.strip()
    return _CORRECTED.match(t) is not None or _REASONED.match(t) is not None \
        or re.sub(_LEAD, "", t).startswith(("改成", "改为", "换成", "改到"))


# only "now", asked: 现在呢 / 那现在呢 / 这下呢 / 现在怎么样了 / 现在有哪些了
_NOW_AGAIN = re.compile(r"^(?:那|那么|所以)?(?:现在|目前|这会儿|这下|这样)(?:的话)?(?:呢|怎么样了?|咋样了?|如何了?|"
                        r"有哪些了?|有什么了?|有啥了?|是什么样|变成什么样了?)[?？。!！~～]*$")


def asks_again_now(text: str) -> bool:
    """"现在呢": the message asks only how things stand now (the last question again, at this moment)."""
    return _NOW_AGAIN.match(text.strip()) is not None


# The everyday words every skill's messages lean on — times of day, units, the verbs of the operations —
# that a pinyin-keyboard slip is repaired towards (题醒 → 提醒, 小使 → 小时); the skills add their own.
VOCABULARY: tuple[str, ...] = (
    "提醒", "闹钟", "计时器", "小时", "分钟", "钟头", "公里", "千米", "公斤", "早上", "早晨", "上午", "中午", "下午",
    "傍晚", "晚上", "夜里", "睡前", "凌晨", "明天", "后天", "大后天", "今天", "昨天", "前天", "大前天", "周末", "星期",
    "礼拜", "月底", "月初", "取消", "删除", "修改", "改成", "预算", "晚饭", "午饭", "早饭", "菜单", "菜谱", "做法",
    "冰箱", "体重", "身高", "天气", "运动", "锻炼", "记录", "计划", "确认", "继续",
)
