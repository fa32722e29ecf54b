"""What a reminder's confirmation says it took by convention (DESIGN §3.4, "Times people mean").

A part of the day said without a clock time takes its usual hour from the one table
(``day_parts``), 月底 the month's last day, 下周末 its Saturday; the reply says so in a few words, so the
user sees it and can change it at once ("改成7点", "晚半小时").
"""

from __future__ import annotations

from runtime.skill.parsers import TimeExpr, day_parts

__all__ = ["assumed_note"]

_DAYS = {"month-end": "按最后一天算", "weekend": "按周六算"}


def _clock(what: str) -> str | None:
    try:
        return f"{day_parts.clock_of(day_parts.Part(what)):%H:%M}"
    except ValueError:
        return None  # a value stored by an older release: nothing to say about it


def assumed_note(when: TimeExpr) -> str:
    """「（下午没说几点，先按15:00，要改直接说）」, 「（月底按最后一天算，没说几点，先按09:00，要改直接说）」,
    or "" when nothing was taken by convention."""
    said: list[str] = []
    timed = False
    for word, what in when.assumed:
        if what in _DAYS:
            said.append(f"{word}{_DAYS[what]}")
        elif (clock := _clock(what)) is not None:
            said.append(f"{word}没说几点，先按{clock}")
            timed = True
    if not said:
        return ""
    if not when.has_time and not timed:
        said.append(f"没说几点，先按{day_parts.DAY_CLOCK:%H:%M}")
    return f"（{'，'.join(said)}，要改直接说）"
