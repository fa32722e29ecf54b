"""Words that look temporal: what a message may mean as a time even when the parser has no rule for it.

The parser reports every cue that no token accounts for, so a reminder is never confirmed while
such a word is left unexplained (开斋节, 下班后, 生日那天, 农历十二月三十, 上旬…). Past words (昨天,
去年, 上个月) are not cues: a reminder cannot fire then, so they are part of what to remind.
"""

from __future__ import annotations

import re

__all__ = ["cue_spans", "leaning"]

_NOT_FESTIVAL = ("细节", "环节", "章节", "关节", "情节", "音节", "礼节", "调节", "小节", "季节性", "节目", "节约",
                 "节省", "节奏", "节能", "节食", "节制", "节俭", "节点", "节课", "节拍", "过节费")
_CUES = (
    # festivals and days the calendar does not know: 开斋节, 复活节, 世界读书日, 结婚纪念日
    r"[\u4e00-\u9fff]{1,4}节(?:日|当天|那天)?",
    r"(?:世界|国际|全国|全民)[\u4e00-\u9fff]{1,6}日|纪念日|周年|生日当天|生日那天",
    # calendar words
    r"农历|阴历|旧历|公历|阳历|闰[一二三四五六七八九十冬腊正]{1,2}月|正月|腊月|冬月|廿[一二三四五六七八九]?",
    r"初[一二三四五六七八九十](?![中级高])",
    r"[上中下]旬|月初|月中|月底|月末|月头|月尾|年初|年底|年末|年中|年尾|季度末|季末|学期末|期末|期中",
    r"年前|年后|节前|节后|假期|长假|小长假|黄金周|寒假|暑假|开学|放假|春运",
    # days counted from something the parser could not place
    r"前一天|前一晚|前两天|前几天|(?<!最)后一天|后几天|提前|当天|当日|那天|那一天|这一天|当晚|那晚|前夕|次日|第二天|隔天"
    r"|那周|那个月|那时候?|到时候?|届时",
    # events of the day
    r"(?:睡觉?|饭|餐|下班|上班|放学|上学|出门|起床|开会|会|考试|考|吃饭|午饭|晚饭|早饭)(?:前|后|之前|之后|以前|以后)"
    r"|起床后|到家(?:后|以后|之后|时)|回家(?:后|以后|之后|时)|醒来(?:后|以后|之后)|下了班|下完班|放了学|吃(?:完|了)(?:午|晚|早)?饭",
    # vague spans of time
    r"过几天|过两天|改天|回头|过阵子|过段时间|这几天|近期|最近几天|一会儿?|待会儿?|等会儿?|稍后|晚些时候|晚点",
    r"(?:之|以)?(?:前|后)(?:几|两)天|几天(?:后|以后|之后)|几(?:个)?(?:小时|分钟|周|星期|月)(?:后|以后|之后)",
    # numbers that look like a time or date but are not a valid one
    r"\d{1,2}(?:点|时)\d{2,}分?|[二三四五六七八九]十[一二三四五六七八九]?号|3[2-9]号|[4-9]\d号|\d{1,2}月\d{1,2}(?![\d号日])",
    r"[一二三四五六七八九十]{1,3}月[一二三四五六七八九十廿初]{1,3}(?![号日])",
)
_CUE = re.compile("|".join(f"(?:{c})" for c in _CUES))
_NOT = re.compile("|".join(map(re.escape, _NOT_FESTIVAL)))
_LEAD = re.compile(r"^.*(?:提醒我?|叫我|喊我|我|在|是|的|和|跟|过|要|等|到|给|帮)")


def cue_spans(text: str) -> list[tuple[int, int]]:
    """Spans of temporal-looking words in ``text`` (overlapping a token or not; the caller decides)."""
    blocked = [(m.start(), m.end()) for m in _NOT.finditer(text)]
    spans: list[tuple[int, int]] = []
    for m in _CUE.finditer(text):
        start, end = m.start(), m.end()
        if "节" in m.group(0):
            if any(a < end and start < b for a, b in blocked):
                continue
            lead = _LEAD.match(m.group(0))
            if lead is not None and lead.end() < len(m.group(0)) - 1:
                start += lead.end()
        spans.append((start, end))
    return spans


_LEANING = ((re.compile(r"下了?班|下完班|晚饭|晚餐|睡前|睡觉前|临睡|回家|到家"), "晚上"),
            (re.compile(r"午饭|午餐|午休|午觉|放了?学"), "下午"),
            (re.compile(r"起床|早饭|早餐|上班前|出门前|醒来"), "早上"))


def leaning(words: list[str] | tuple[str, ...]) -> str:
    """The part of the day that unexplained event words point to (下班后 → 晚上), or "": an answer
    giving only a clock time ("六点半") is read in that part of the day."""
    said = "".join(words)
    return next((part for pattern, part in _LEANING if pattern.search(said)), "")

