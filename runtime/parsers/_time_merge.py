"""A corrected time phrase read against the one it corrects ("明天下午3点" → "不对，是4点")."""

from __future__ import annotations

import re

from runtime.parsers.timephrase import TimeExpr

__all__ = ["corrected_time"]

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
