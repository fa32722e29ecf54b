"""Elliptical follow-ups to a date question: "下周二是几号" → "那周四呢" → "周四是几号"."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from runtime.skill.parsers import festivals, time_spans
from skills.datetime._zones import city_in

__all__ = ["follow_up_params", "follow_up_question"]

_FRAME = re.compile(r"^(?:那|那么|那要是|换成|还有|再问下|那如果是)?\s*(?P<core>.+?)\s*(?:呢|那|怎么样|如何|的呢)?[?？。!！]*$")
_WEEK_PREFIX = re.compile(r"^(下下个?|下个?|这个?|本|上个?)(?:周|星期|礼拜)")
_BARE_WEEKDAY = re.compile(r"(?:周|星期|礼拜)[一二三四五六日天末]")
_FESTIVAL = re.compile("|".join(sorted(map(re.escape, festivals.WORDS), key=len, reverse=True)))


def _day_span(text: str) -> tuple[int, int] | None:
    spans = time_spans(text)
    if spans:
        return spans[0]
    m = _FESTIVAL.search(text)
    return (m.start(), m.end()) if m else None


_THAT_DAY = re.compile(r"那天|那一天|当天|这天|这一天")


def follow_up_question(previous_question: str, fragment: str) -> str | None:
    """``previous_question`` with its day, festival or city replaced by the fragment's; None when the
    fragment names nothing of the kind the previous question has (or is not a bare fragment).
    "那天星期几" after "下周五是几号" asks about that same day: 下周五星期几."""
    that = _THAT_DAY.search(fragment)
    if that is not None:
        span = _day_span(previous_question)
        if span is None or time_spans(fragment):
            return None
        return fragment[:that.start()] + previous_question[span[0]:span[1]] + fragment[that.end():]
    m = _FRAME.match(fragment.strip())
    if m is None:
        return None
    core = re.sub(r"^(?:离|距离|距|到)", "", m.group("core").strip())  # "那离除夕呢" after a countdown
    if not core or len(core) > 12:
        return None
    city = city_in(core)
    if city is not None and city == core:
        old = city_in(previous_question)
        if old is None:
            return None
        return previous_question.replace(old, city, 1)
    if time_spans(core) != [(0, len(core))] and not _FESTIVAL.fullmatch(core):
        return None
    span = _day_span(previous_question)
    if span is None:
        return None
    week = _WEEK_PREFIX.match(previous_question[span[0]:span[1]])
    if week and _BARE_WEEKDAY.fullmatch(core):  # 下周二是几号 → 那周四呢: Thursday of that same week
        core = week.group(1) + core
    return previous_question[:span[0]] + core + previous_question[span[1]:]


def follow_up_params(previous: Mapping[str, Any], fragment: str) -> Mapping[str, Any] | None:
    """The ``ActionSpec.follow_up`` hook: the previous query's params with the rewritten question."""
    question = follow_up_question(str(previous.get("question") or ""), fragment)
    return None if question is None else {"question": question}  # a new day: nothing derived from the old one
