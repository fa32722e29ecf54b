"""The reminder's ``when`` slot: the check that refuses a time that leaves a temporal word unexplained.

DESIGN §3.4: a reminder is never confirmed while a temporal word of the message (a festival the
calendar does not know, 下班后, a second date …) is left unexplained. The engine calls
:func:`check_when` on every value of the slot; a question discards the value and is asked instead.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from runtime.skill.parsers import TimeExpr, format_when

__all__ = ["as_time", "check_when", "unexplained_question"]


def as_time(value: Any) -> TimeExpr | None:
    """The slot value as a :class:`TimeExpr` (it travels as ``TimeExpr.to_param()``), or None."""
    if isinstance(value, TimeExpr):
        return value
    if isinstance(value, Mapping):
        try:
            return TimeExpr.from_param(dict(value))
        except (KeyError, ValueError, TypeError):
            return None
    return None


def unexplained_question(when: TimeExpr) -> str | None:
    """The question to ask when ``when`` leaves words unexplained (quoting what was understood)."""
    if not when.unexplained:
        return None
    words = "、".join(f"「{w}」" for w in when.unexplained)
    understood = f"「{when.said}」（{format_when(when.at)}）" if when.said else format_when(when.at)
    example = f"{when.said}晚上8点" if when.said and not when.has_time and not when.rrule else "12月24日晚上8点"
    return (f"{words}我没能确定是哪天哪个时间，我只听懂了{understood}。"
            f"具体什么时候提醒你？请把日期和时间一起告诉我，比如「{example}」。")


# a stretch of days, not a day: a reminder needs the day (and the time) out of it
_STRETCH = re.compile(r"周末|月底|月中|月末|年底|年末|(?<!大)(?:月初|年初)(?![一二三四五六七八九十])|下周(?![一二三四五六日天])|"
                      r"这周(?![一二三四五六日天])|"
                      r"本周(?![一二三四五六日天])|过几天|改天|这几天|最近|节后|假期")


def stretch_question(when: TimeExpr) -> str | None:
    """The question to ask when ``when`` names a stretch of days and no time ("周末", "月底")."""
    if when.has_time or when.rrule or not _STRETCH.search(when.said or ""):
        return None
    return f"「{when.said}」具体哪天、几点提醒你？比如「{when.at.month}月{when.at.day}日上午10点」。"


_PART = re.compile(r"早上|早晨|清晨|上午|中午|下午|傍晚|晚上|夜里|半夜|凌晨|今晚|明晚|明早|今早|后晚|晚|早")


def clock_question(when: TimeExpr) -> str | None:
    """The question to ask when ``when`` names a part of the day but no clock time ("晚上", "周五下午"):
    which time, rather than a guessed one (a day alone keeps its default hour)."""
    if when.has_time or when.timer or not when.said or not _PART.search(when.said):
        return None
    hour = when.at.hour % 12 or 12
    return f"「{when.said}」（{when.at.month}月{when.at.day}日）几点提醒你？比如「{when.said}{hour}点」。"


def check_when(value: Any) -> str | None:
    """None when the time can be used as it is; otherwise the question that asks for it again."""
    when = as_time(value)
    if when is None:
        return None  # the engine asks the slot's own question for a missing value
    return unexplained_question(when) or stretch_question(when) or clock_question(when)
