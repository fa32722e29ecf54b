"""The reminder's ``when`` slot: the check that refuses a time that leaves a temporal word unexplained.

DESIGN §3.4: a reminder is never confirmed while a temporal word of the message (a festival the
calendar does not know, 下班后, a second date …) is left unexplained, and two names of the day that
disagree (8月15日中秋节) are asked about with both readings. A part of the day without a clock time is
no reason to ask: it takes its usual hour, and the confirmation says so (``_assumed``). The engine calls
:func:`check_when` on every value of the slot; a question discards the value and is asked instead.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from typing import Any

from runtime.skill.parsers import TimeExpr, format_when

__all__ = ["as_time", "check_when", "readings_question", "unexplained_question"]


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
    parted = any(what not in ("month-end", "weekend") for _, what in when.assumed)
    tail = f"{when.at.hour % 12 or 12}点" if parted else "晚上8点"  # 元宵节晚上 → 元宵节晚上8点
    example = f"{when.said}{tail}" if when.said and not when.has_time and not when.rrule else "12月24日晚上8点"
    return (f"{words}我没能确定是哪天哪个时间，我只听懂了{understood}。"
            f"具体什么时候提醒你？请把日期和时间一起告诉我，比如「{example}」。")


def readings_question(when: TimeExpr) -> str | None:
    """The question to ask when two names of the day disagree (8月15日中秋节; 12月25日周五 when that is a
    Saturday): both readings, and the words to answer with (read again with the rest of what was said)."""
    if len(when.readings) < 2:
        return None
    (word_a, day_a), (word_b, day_b) = when.readings[:2]
    answers = [_answer(word_a, day_a), _answer(word_b, day_b)]
    return (f"{_reading(word_a, day_a)}，{_reading(word_b, day_b)}，不是同一天。按哪天提醒你？"
            f"回我「{answers[0]}」或「{answers[1]}」就行。")


def _date(day: date) -> str:
    return f"{day.month}月{day.day}日"


def _reading(word: str, day: date) -> str:
    """「8月15日」是周日 · 「中秋节」是9月15日（周三） · 那周的「周五」是12月24日."""
    weekday = f"周{'一二三四五六日'[day.weekday()]}"
    if _WEEKDAY.fullmatch(word):
        return f"那周的「{word}」是{_date(day)}"
    if word.endswith(_date(day)) or word.endswith(f"{day.month}月{day.day}号"):
        return f"「{word}」是{weekday}"
    return f"「{word}」是{_date(day)}（{weekday}）"


def _answer(word: str, day: date) -> str:
    """What to answer to pick a reading: the word, or for a weekday (which alone means the next one) its date."""
    return _date(day) if _WEEKDAY.fullmatch(word) else word


_WEEKDAY = re.compile(r"(?:周|星期|礼拜)[一二三四五六日天末]")
# a stretch of days, not a day: a reminder needs the day (and the time) out of it. A bare 周末 may also mean
# every weekend; 月底 is the month's last day and 这周末/下周末 its Saturday (DESIGN §3.4)
_STRETCH = re.compile(r"(?<![这本下])周末|月中|年底|年末|(?<!大)(?:月初|年初)(?![一二三四五六七八九十])|下周(?![一二三四五六日天末])|"
                      r"这周(?![一二三四五六日天末])|"
                      r"本周(?![一二三四五六日天末])|过几天|改天|这几天|最近|节后|假期")


def stretch_question(when: TimeExpr) -> str | None:
    """The question to ask when ``when`` names a stretch of days and no time ("周末", "月中")."""
    if when.has_time or when.rrule or not _STRETCH.search(when.said or ""):
        return None
    return f"「{when.said}」具体哪天、几点提醒你？比如「{when.at.month}月{when.at.day}日上午10点」。"


def check_when(value: Any) -> str | None:
    """None when the time can be used as it is (a part of the day alone takes its usual hour, and the
    reply says so); otherwise the question that asks for it again."""
    when = as_time(value)
    if when is None:
        return None  # the engine asks the slot's own question for a missing value
    return readings_question(when) or unexplained_question(when) or stretch_question(when)
