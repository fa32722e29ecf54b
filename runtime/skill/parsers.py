"""The parsers and calendar facts skills use (DESIGN §3.6): the skill-facing half of ``runtime.parsers``.

Values of TIME slots reach skills as ``TimeExpr.to_param()`` dicts; the time-phrase type, its
formatting, the clock times people mean (``day_parts``), the calendar facts (festivals, lunar dates, solar
terms) and the restriction reader are part of the skill protocol, so a skill needs nothing else from
``runtime/``.
"""

from __future__ import annotations

from typing import Any

from runtime.keys import skill_cache
from runtime.parsers import day_parts, festivals
from runtime.parsers.correction import corrected_time
from runtime.parsers.dietary import group_of, parse_restrictions
from runtime.parsers.lunar import next_solar_term, solar_term_on, solar_to_lunar
from runtime.parsers.negation import NOT_NEEDED
from runtime.parsers.people import PEOPLE_DELTA, PEOPLE_TOTAL, people_delta, people_total
from runtime.parsers.recurrence import next_occurrence
from runtime.parsers.slots import PARSERS
from runtime.parsers.timephrase import TimeExpr, describe_rrule, format_when, parse_time_phrase, time_spans
from runtime.understand.lexicon import ANOTHER

__all__ = ["ANOTHER", "NOT_NEEDED", "PEOPLE_DELTA", "PEOPLE_TOTAL", "TimeExpr", "corrected_time", "day_parts",
           "describe_rrule", "festivals", "format_when", "group_of", "next_occurrence", "next_solar_term",
           "parse_restrictions", "people_delta", "people_total", "parse_time_phrase", "parse_value", "skill_cache",
           "solar_term_on", "solar_to_lunar", "time_spans"]


def parse_value(kind: str, text: str, *, answer: bool = False) -> Any:
    """A value of slot type ``kind`` ("count", "money", "duration", …) in ``text``, or None; ``answer``
    reads leniently, as the answer to a question (a bare "3"). Not for "time": use parse_time_phrase."""
    parser = PARSERS.get(str(kind))
    return parser(text, answer) if parser is not None else None
