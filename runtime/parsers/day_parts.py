"""The clock times people mean (DESIGN §3.4): a part of the day said without a clock time takes its
conventional hour, and a day said alone takes 09:00.

This is the one table of them. The time parser reads it (下午 → 15:00), the reminder replies read it
(「下午没说几点，先按15:00」, so the user can change it) and the tests and ``docs/reminders.md`` are
checked against it.

>>> clock_of(WORDS["下午"]), clock_of(WORDS["睡前"]), DAY_CLOCK
(datetime.time(15, 0), datetime.time(22, 0), datetime.time(9, 0))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import time
from enum import StrEnum

__all__ = ["DAY_CLOCK", "DAY_PARTS", "DayPart", "Part", "WORDS", "clock_of"]


class Part(StrEnum):
    """Parts of the day; each has a conventional hour and a rule for reading 1-12 o'clock said with it."""

    DAWN = "dawn"
    MORNING = "morning"
    FORENOON = "forenoon"
    NOON = "noon"
    AFTERNOON = "afternoon"
    DUSK = "dusk"
    EVENING = "evening"
    LATE = "late"        # 夜里, 睡前: late in the evening, before sleep
    NIGHT = "night"      # 半夜, 深夜: around midnight


@dataclass(frozen=True, slots=True)
class DayPart:
    """One row of the table: the words people use for a part of the day and the hour it means.

    ``names`` are the words the design and the docs list; ``also`` other words for the same part.
    A single character (早, 晚, 夜) counts only next to a clock time (早8点; 早点睡 is no time).
    """

    part: Part
    clock: time
    names: tuple[str, ...]
    also: tuple[str, ...] = ()

    @property
    def words(self) -> tuple[str, ...]:
        """Every word for this part of the day."""
        return self.names + self.also


DAY_PARTS: tuple[DayPart, ...] = (
    DayPart(Part.MORNING, time(8), ("早上", "早晨"), ("清晨", "一早", "大早", "早")),
    DayPart(Part.FORENOON, time(9), ("上午",)),
    DayPart(Part.NOON, time(12), ("中午",), ("正午", "午间")),
    DayPart(Part.AFTERNOON, time(15), ("下午",), ("午后",)),
    DayPart(Part.DUSK, time(18), ("傍晚",), ("黄昏",)),
    DayPart(Part.EVENING, time(20), ("晚上",), ("晚间", "夜晚", "晚", "夜")),
    DayPart(Part.LATE, time(22), ("睡前", "夜里"), ("夜间", "睡觉前", "临睡前", "睡之前", "睡觉之前", "晚上睡前",
                                                   "晚上睡觉前")),
    DayPart(Part.DAWN, time(5), ("凌晨",)),
    DayPart(Part.NIGHT, time(23), ("半夜",), ("深夜", "午夜")),
)
"""The conventional hours, in the order of the day (凌晨 and 半夜 last: rarely meant for a reminder)."""

DAY_CLOCK = time(9)
"""A day said with no part of the day and no clock time (明天, 12月24日, 中秋)."""

WORDS: Mapping[str, Part] = {word: row.part for row in DAY_PARTS for word in row.words}
"""Every word for a part of the day."""

_CLOCK: Mapping[Part, time] = {row.part: row.clock for row in DAY_PARTS}


def clock_of(part: Part) -> time:
    """The conventional clock time of ``part``."""
    return _CLOCK[part]

