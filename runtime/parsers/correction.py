"""The words of a correction ("不对，是4个", "改成9点", "哦不对，171"): one list for every stage.

:data:`CORRECTION` finds a correction word; :func:`correction_tail` gives the corrected words
(after the last 是/改成, or, when none follows the correction word, everything after it);
:func:`corrected_time` reads a corrected time against the one it corrects ("明天下午3点" → "不对，是4点").
"""

from __future__ import annotations

import re

from runtime.parsers.timephrase import TimeExpr

__all__ = ["CORRECTION", "corrected_time", "correction_tail"]

# ... and a clause that starts with 是 and a number after a reason ("慢着 早上没上厕所 是五十八点二")
CORRECTION = re.compile(r"不对|不是|错了|说错|改成|改为|改一下|应该是|其实是|换成|更正"
                        r"|(?<=[，,。；;\s])是(?=\s*[\d零一二两三四五六七八九十百半])|不(?=[，,、。\s]+是)")
_CORRECTED_TO = re.compile(r"应该是|其实是|改成|改为|换成|是")
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


_DAY_WORDS = re.compile(r"天|号|日|周|星期|礼拜|月|年|节|晚|早|下午|上午|中午|凌晨|夜")
_EXPLICIT_24H = re.compile(r"\d{1,2}[:：]\d{2}|(?:1[3-9]|2[0-3])[点时]|[十二][三四五六七八九]点|二十[一二三]?点")


def corrected_time(new: TimeExpr, old: TimeExpr, said: str) -> TimeExpr:
    """What a correction means: a new day keeps the old clock time ("是大后天"); a bare clock time
    keeps the old day and the half of the day nearest the old time ("是4点" after 下午3点 → 16:00); a time
    counted back from the old one ("提前半小时") is already exact."""
    if said.lstrip().startswith("提前") or (new.rrule and new.rrule != old.rrule):
        return new  # counted back from the old time, or a new repeat ("每隔两小时"): exact as said
    if not new.has_time and old.has_time:
        at = new.at.replace(hour=old.at.hour, minute=old.at.minute, second=0, microsecond=0)
        return TimeExpr(at=at, rrule=new.rrule or old.rrule, has_time=True, span=new.span)
    if new.has_time and not _DAY_WORDS.search(said):
        hour = new.at.hour
        if hour % 12 and not _EXPLICIT_24H.search(said):
            hour = min((hour % 12, hour % 12 + 12), key=lambda h: abs(h - old.at.hour))
        at = old.at.replace(hour=hour, minute=new.at.minute, second=0, microsecond=0)
        return TimeExpr(at=at, rrule=old.rrule, has_time=True, span=new.span)
    return new
