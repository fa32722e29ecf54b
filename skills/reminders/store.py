"""Reminder writes and reads for the skill: create, list, cancel, snooze — each idempotent."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from skills.reminders._text import ALL, LATEST
from skills.reminders.models import OccurrenceState, Reminder, ReminderOccurrence, ReminderStatus, as_utc
from skills.store import ensure_user

__all__ = ["ActiveReminder", "cancel", "create", "list_active", "select_targets", "snooze"]

_OCC = ReminderOccurrence.__table__  # type: ignore[attr-defined]
_REM = Reminder.__table__  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class ActiveReminder:
    """A reminder still to fire, as numbered in the user's list."""

    number: int
    reminder_id: int
    content: str
    next_due: datetime      # aware UTC
    rrule: str | None
    tz: str


def create(engine: Engine, *, user: str, content: str, at: datetime, rrule: str | None, tz: str,
           msg_id: str) -> tuple[int, bool]:
    """Store a reminder and its first occurrence. Returns (reminder id, created now?).

    Keyed by ``msg_id``: the same message processed twice creates one reminder.
    """
    due = as_utc(at)
    with Session(engine) as session:
        existing = session.execute(select(_REM.c.id).where(_REM.c.source_msg_id == msg_id)).first()
        if existing is not None:
            return int(existing[0]), False
        ensure_user(session, user, tz)
        reminder = Reminder(user_id=user, content=content, first_due=due, rrule=rrule, tz=tz, source_msg_id=msg_id)
        session.add(reminder)
        session.flush()
        assert reminder.id is not None
        session.add(ReminderOccurrence(reminder_id=reminder.id, user_id=user, due_at=due))
        try:
            session.commit()
        except IntegrityError:
            session.rollback()
            again = session.execute(select(_REM.c.id).where(_REM.c.source_msg_id == msg_id)).one()
            return int(again[0]), False
        return reminder.id, True


def list_active(engine: Engine, user: str) -> list[ActiveReminder]:
    """The user's reminders with a pending occurrence, soonest first, numbered from 1."""
    next_due = func.min(_OCC.c.due_at).label("next_due")
    stmt = (select(_REM.c.id, _REM.c.content, _REM.c.rrule, _REM.c.tz, next_due)
            .join(_OCC, _OCC.c.reminder_id == _REM.c.id)
            .where(_OCC.c.user_id == user, _OCC.c.state == OccurrenceState.PENDING.value,
                   _REM.c.status != ReminderStatus.CANCELLED.value)
            .group_by(_REM.c.id, _REM.c.content, _REM.c.rrule, _REM.c.tz)
            .order_by(next_due, _REM.c.id))
    with engine.connect() as conn:
        rows = list(conn.execute(stmt))
    return [ActiveReminder(n, r.id, r.content, as_utc(r.next_due), r.rrule, r.tz) for n, r in enumerate(rows, 1)]


def select_targets(active: Sequence[ActiveReminder], target: int | str) -> list[ActiveReminder]:
    """Which of ``active`` a cancel target names: a list number, 全部, or words of the content."""
    if isinstance(target, int):
        return [r for r in active if r.number == target]
    if target == ALL:
        return list(active)
    if target.startswith("#"):  # one picked from a list shown: "#12 吃药"
        picked = target[1:].split(" ", 1)[0]
        return [r for r in active if str(r.reminder_id) == picked]
    if target == LATEST:
        return [max(active, key=lambda r: r.reminder_id)] if active else []
    words = target.strip()
    if not words:
        return []
    exact = [r for r in active if r.content == words]
    if exact:
        return exact
    said = [r for r in active if words in r.content or r.content in words]
    # "吃药那个" for 吃降压药: the words said in order, with a little between them, name it when one fits
    loose = [r for r in active if len(words) >= 2 and _in_order(words, r.content)]
    return said or (loose if len(loose) == 1 else [])


def _in_order(words: str, content: str) -> bool:
    """Whether ``words`` appear in ``content`` in order, each after the one before (吃药 in 吃降压药)."""
    at = 0
    for ch in words:
        at = content.find(ch, at)
        if at < 0:
            return False
        at += 1
    return True


def cancel(engine: Engine, reminder_ids: Sequence[int]) -> int:
    """Cancel these reminders and their pending occurrences; how many were still active (idempotent)."""
    if not reminder_ids:
        return 0
    with engine.begin() as conn:
        changed = conn.execute(update(_REM).where(_REM.c.id.in_(list(reminder_ids)),
                                                  _REM.c.status != ReminderStatus.CANCELLED.value)
                               .values(status=ReminderStatus.CANCELLED.value)).rowcount
        conn.execute(update(_OCC).where(_OCC.c.reminder_id.in_(list(reminder_ids)),
                                        _OCC.c.state == OccurrenceState.PENDING.value)
                     .values(state=OccurrenceState.CANCELLED.value))
    return int(changed)


def snooze(engine: Engine, *, user: str, at: datetime, msg_id: str) -> str | None:
    """Repeat the user's most recently pushed reminder at ``at``; its content, or None if none was pushed.

    Keyed by ``msg_id`` (a retried message adds no second repeat). A snoozed repeat does not
    advance a recurring rule.
    """
    with Session(engine) as session:
        done = session.execute(select(_REM.c.content).join(_OCC, _OCC.c.reminder_id == _REM.c.id)
                               .where(_OCC.c.source_msg_id == msg_id)).first()
        if done is not None:
            return str(done[0])
        last = session.execute(
            select(_OCC.c.reminder_id, _REM.c.content).join(_REM, _REM.c.id == _OCC.c.reminder_id)
            .where(_OCC.c.user_id == user,
                   _OCC.c.state.in_([OccurrenceState.ENQUEUED.value, OccurrenceState.SENT.value]),
                   _REM.c.status != ReminderStatus.CANCELLED.value)
            .order_by(_OCC.c.fired_at.desc(), _OCC.c.id.desc()).limit(1)).first()
        if last is None:
            return None
        session.add(ReminderOccurrence(reminder_id=last.reminder_id, user_id=user, due_at=as_utc(at),
                                       snooze=True, source_msg_id=msg_id))
        try:
            session.commit()
        except IntegrityError:
            session.rollback()  # same moment already scheduled, or the message was applied meanwhile
        return str(last.content)
