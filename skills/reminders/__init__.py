"""Reminders: create / list / cancel / snooze, durable occurrences and the scheduler's SQL side.

The skill spec is :data:`skills.reminders.skill.SPEC`; the scheduler's SQL steps live in
:mod:`skills.reminders.schedule`; :func:`run_due` and :func:`touch_notice` serve the processes. How a
message names a reminder's content and target (:func:`extract_content`, :func:`extract_target`,
:func:`parse_target`) and the check of a time before it is kept (:func:`check_when`) are read here too.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlmodel import Session

from skills.reminders._text import TIMER, extract_content, extract_target, parse_target
from skills.reminders._when import check_when
from skills.reminders.schedule import DuePush, fire_due, missed_notice

__all__ = ["TIMER", "check_when", "extract_content", "extract_target", "parse_target", "run_due", "touch_notice"]

_MAX_ROUNDS = 10_000


def run_due(services: Any, now: datetime) -> list[DuePush]:
    """Fire everything due up to ``now`` as if the scheduler had run all along (script mode).

    Deterministic: no lease, no catch-up policy (a jump of the clock is not downtime); a daily
    reminder crossed three times by one jump fires three times, oldest first. The pushes stay
    ``enqueued`` until the caller records their outcome (:func:`schedule.record_outcome`).
    """
    pushes: list[DuePush] = []
    for _ in range(_MAX_ROUNDS):
        fired = fire_due(services.db, now, catch_up=False)
        if not fired.pushes and not fired.skipped:
            break
        pushes.extend(fired.pushes)
    return pushes


def touch_notice(services: Any, user: str) -> str | None:
    """What to tell ``user`` at their next message about reminders missed during downtime (once)."""
    with Session(services.db) as session:
        text = missed_notice(session, user)
        session.commit()
    return text
