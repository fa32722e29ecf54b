"""The words of a correction ("不对，是4个", "改成9点", "哦不对，171"): one list for every stage.

:data:`CORRECTION` finds a correction word; :func:`correction_tail` gives the corrected words
(after the last 是/改成, or, when none follows the correction word, everything after it);
:func:`corrected_time` reads a corrected time against the one it corrects ("明天下午3点" → "不对，是4点").
"""

from __future__ import annotations

import re

from runtime.parsers import day_parts, festivals
from runtime.parsers.shift import shift_minutes
from runtime.parsers.timephrase import TimeExpr

__all__ = ["CORRECTION", "corrected_time", "correction_tail"]

# ... and a clause that starts with 是 and a number after a reason ("慢着 早上没上厕所 是五十八点二")
CORRECTION = re.compile(r"不对|不是|错了|说错|改成|改为|改一下|应该是|其实是|换成|更正"
                        r"|(?<=[，,。；;\s])是(?=\s*[\d零一二两三四五六七八九十百半])|不(?=[，,、。\s]+是)"
                        r"|还是(?:写|记|填|按|改)?成?(?=\s*[\d零一二两三四五六七八九十百半])")  # 体重还是写69吧
_CORRECTED_TO = re.compile(r"应该是|其实是|改成|改为|换成|还是(?:写|记|填|按|改)?成?|是")
_TRIM = "，,。.！!~～ "
_LEAD = re.compile(r"^(?:[了啦吧呀啊哦嗯，,。\s]|应该|我说的?)+")


def correction_tail(text: str) -> str | None:
    """In a correction the corrected words: 不是3个，是4个 → 4个; 不对，改成9点 → 9点; 不对，8点 → 8点.

    None when ``text`` is no correction or nothing follows the correction word.
    """
    words = list(CORRECTION.finditer(text))
    if not words:
        return None
    marks = [m for m in _CORRECTED_TO.finditer(text) if m.start() >= words[0].start()]
    if marks:
        tail = text[marks[-1].end():]
    else:
        tail = _LEAD.sub("", text[words[-1].end():])
    tail = tail.strip(_TRIM)
    return tail or None


def _alt(words: object) -> str:
    return "|".join(sorted(map(re.escape, words), key=len, reverse=True))  # type: ignore[call-overload]


# a day said (今晚 and 中秋 are days; 晚上 and 十一点 are not)
_DAY_WORDS = re.compile(r"天|号|日|周|星期|礼拜|月|年|节|初|廿|[今明后][晚早晨夜]|"
                        + _alt(w for w in festivals.WORDS if not re.fullmatch(r"[一二三四五六七八九十月]+", w)))
_PART_WORDS = re.compile(_alt(day_parts.WORDS))
_EXPLICIT_24H = re.compile(r"\d{1,2}[:：]\d{2}|(?:1[3-9]|2[0-3])[点时]|[十二][三四五六七八九]点|二十[一二三]?点")


def corrected_time(new: TimeExpr, old: TimeExpr, said: str) -> TimeExpr:
    """What a correction means — it changes only what it names: a new day keeps the old clock time ("是大后天"),
    or the old part of the day's usual hour; a clock time or a part of the day keeps the old day ("改到中午";
    "是4点" after 下午3点 is 16:00: a bare clock time takes the half of the day nearest the old time, one said
    with its part of the day is as said, "晚上8点"); a time moved from the old one ("提前半小时", "晚点") is
    already exact."""
    if shift_minutes(said) is not None or (new.rrule and new.rrule != old.rrule):
        return new  # moved from the old time ("提前半小时", "晚点"), or a new repeat ("每隔两小时"): exact as said
    dated = new.dated if new.dated is not None else bool(_DAY_WORDS.search(said))
    parts_said = bool(_PART_WORDS.search(said))
    timed = new.has_time or parts_said  # 中午 names a time of the day, if not a clock time
    parted = tuple(a for a in old.assumed if a[1] in {p.value for p in day_parts.Part})
    if dated and not timed and (old.has_time or parted):
        at = new.at.replace(hour=old.at.hour, minute=old.at.minute, second=0, microsecond=0)
        return TimeExpr(at=at, rrule=new.rrule or old.rrule, has_time=old.has_time, span=new.span,
                        assumed=() if old.has_time else parted, dated=True)
    if timed and not dated:
        hour = new.at.hour
        if hour % 12 and not _EXPLICIT_24H.search(said) and not parts_said:
            hour = min((hour % 12, hour % 12 + 12), key=lambda h: abs(h - old.at.hour))
        at = old.at.replace(hour=hour, minute=new.at.minute, second=0, microsecond=0)
        return TimeExpr(at=at, rrule=old.rrule, has_time=new.has_time, span=new.span, assumed=new.assumed,
                        dated=old.dated)
    return new
