"""The scheduler's SQL side: find due occurrences, claim each exactly once, advance recurrences.

Exactly-once rests on one conditional update (``… SET state='enqueued' WHERE id IN (…) AND
state='pending'``): whichever scheduler's update changes a row owns that push; a second scheduler,
a retry or a restart finds the row no longer pending. The next occurrence of a recurring reminder
is inserted in the same transaction, and ``unique(reminder_id, due_at)`` makes that idempotent too.

Missed-occurrence policy after downtime: an occurrence claimed less than :data:`LATE_LIMIT` after
its due time is delivered late (the text says so); older ones are marked ``missed`` and the user
is told at their next message (:func:`missed_notice`). A recurring reminder then resumes from its
next occurrence after now — one missed row, not one per skipped day.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlmodel import Session

from runtime.skill.parsers import format_when
from skills.models import User
from skills.reminders._followups import fired
from skills.reminders._recur import next_after
from skills.reminders.models import OccurrenceState, Reminder, ReminderOccurrence, ReminderStatus, as_utc

__all__ = [
    "LATE_LIMIT", "DuePush", "Fired", "claim", "due_occurrences", "fire_due", "missed_notice", "push_key",
    "record_outcome", "release", "stale_enqueued",
]

LATE_LIMIT = timedelta(hours=1)
_OCC = ReminderOccurrence.__table__  # type: ignore[attr-defined]
_REM = Reminder.__table__  # type: ignore[attr-defined]
_USERS = User.__table__  # type: ignore[attr-defined]
_CHUNK = 500


@dataclass(frozen=True, slots=True)
class DuePush:
    """A push to hand to delivery. ``key`` identifies the occurrence; delivery dedupes on it."""

    user: str
    text: str
    key: str
    content: str = ""  # what the reminder is about (the focus of "过十分钟再叫我" right after it)
    due: str = ""  # when it was due, ISO 8601

    def shown(self) -> tuple[str, Any]:
        """What the user was shown, as the focus of a follow-up: (intent, ``SkillResult``)."""
        return "reminder.snooze", fired(self.content, self.due)


@dataclass(frozen=True, slots=True)
class Fired:
    """What one :func:`fire_due` pass did."""

    pushes: tuple[DuePush, ...]
    missed: int = 0
    skipped: int = 0


def push_key(occurrence_id: int) -> str:
    """The idempotency key of an occurrence's push."""
    return f"reminder:{occurrence_id}"


def _occurrence_id(key: str) -> int:
    prefix, _, raw = key.partition(":")
    if prefix != "reminder" or not raw.isdigit():
        raise ValueError(f"not a reminder push key: {key!r}")
    return int(raw)


def due_occurrences(session: Session | Connection, now: datetime, limit: int) -> list[int]:
    """Ids of pending occurrences due at or before ``now``, oldest first (at most ``limit``)."""
    now = as_utc(now)
    stmt = (select(_OCC.c.id).where(_OCC.c.state == OccurrenceState.PENDING.value, _OCC.c.due_at <= now)
            .order_by(_OCC.c.due_at, _OCC.c.id).limit(limit))
    return [row[0] for row in session.execute(stmt)]


def claim(session: Session | Connection, ids: Sequence[int], now: datetime,
          state: OccurrenceState = OccurrenceState.ENQUEUED) -> list[int]:
    """Move the still-pending occurrences among ``ids`` to ``state``; the ids this call won."""
    now = as_utc(now)
    won: list[int] = []
    for i in range(0, len(ids), _CHUNK):
        stmt = (update(_OCC).where(_OCC.c.id.in_(ids[i:i + _CHUNK]), _OCC.c.state == OccurrenceState.PENDING.value)
                .values(state=state.value, fired_at=now).returning(_OCC.c.id))
        won.extend(row[0] for row in session.execute(stmt))
    return won


def _push_text(content: str, due: datetime, now: datetime, tz: str) -> str:
    late = now - due
    if late >= timedelta(minutes=2):
        local = due.astimezone(ZoneInfo(tz))
        return f"⏰ 提醒：{content}（原定{local:%H:%M}，晚了{int(late.total_seconds() // 60)}分钟）"
    return f"⏰ 提醒：{content}"


def fire_due(engine: Engine, now: datetime, *, limit: int = 5000, catch_up: bool = True) -> Fired:
    """Claim every due occurrence (up to ``limit``), advance recurrences, return the pushes to send.

    ``catch_up=False`` treats every due occurrence as on time (script mode, where the clock jumps
    and the scheduler is simulated as if it had been running all along).
    """
    now = as_utc(now)
    with engine.begin() as conn:
        ids = due_occurrences(conn, now, limit)
        if not ids:
            return Fired(())
        rows = _load(conn, ids)
        late = {i for i, r in rows.items() if catch_up and now - r.due_at > LATE_LIMIT}
        unsubscribed = _unsubscribed(conn, {r.user_id for r in rows.values()})
        skip = {i for i, r in rows.items() if r.user_id in unsubscribed and i not in late}
        missed = claim(conn, sorted(late), now, OccurrenceState.MISSED)
        skipped = claim(conn, sorted(skip), now, OccurrenceState.CANCELLED)
        won = claim(conn, sorted(set(rows) - late - skip), now)
        _advance(conn, [rows[i] for i in (*missed, *skipped, *won)], now, late=set(missed))
        pushes = tuple(DuePush(rows[i].user_id, _push_text(rows[i].content, rows[i].due_at,
                                                           now if catch_up else rows[i].due_at, rows[i].tz),
                               push_key(i), rows[i].content, as_utc(rows[i].due_at).isoformat())
                       for i in sorted(won, key=lambda i: (rows[i].due_at, i)))
    return Fired(pushes, missed=len(missed), skipped=len(skipped))


@dataclass(frozen=True, slots=True)
class _Due:
    id: int
    user_id: str
    due_at: datetime
    snooze: bool
    reminder_id: int
    content: str
    rrule: str | None
    tz: str
    first_due: datetime


def _load(conn: Connection, ids: list[int]) -> dict[int, _Due]:
    out: dict[int, _Due] = {}
    for i in range(0, len(ids), _CHUNK):
        stmt = (select(_OCC.c.id, _OCC.c.user_id, _OCC.c.due_at, _OCC.c.snooze, _OCC.c.reminder_id,
                       _REM.c.content, _REM.c.rrule, _REM.c.tz, _REM.c.first_due)
                .join(_REM, _REM.c.id == _OCC.c.reminder_id).where(_OCC.c.id.in_(ids[i:i + _CHUNK])))
        for r in conn.execute(stmt):
            out[r.id] = _Due(r.id, r.user_id, as_utc(r.due_at), bool(r.snooze), r.reminder_id, r.content,
                             r.rrule, r.tz, as_utc(r.first_due))
    return out


def _unsubscribed(conn: Connection, users: set[str]) -> set[str]:
    if not users:
        return set()
    stmt = select(_USERS.c.openid).where(_USERS.c.openid.in_(sorted(users)), _USERS.c.subscribed.is_(False))
    return {row[0] for row in conn.execute(stmt)}


def _advance(conn: Connection, rows: list[_Due], now: datetime, late: set[int]) -> None:
    """Insert the next occurrence of each recurring reminder; finish one-off reminders."""
    nexts: list[dict[str, object]] = []
    done: list[int] = []
    for row in rows:
        if row.snooze:
            continue
        if not row.rrule:
            done.append(row.reminder_id)
            continue
        after = max(row.due_at, now - LATE_LIMIT) if row.id in late else row.due_at
        nxt = next_after(row.rrule, row.first_due, row.tz, after)
        if nxt is None:
            done.append(row.reminder_id)
        else:
            nexts.append({"reminder_id": row.reminder_id, "user_id": row.user_id, "due_at": nxt,
                          "state": OccurrenceState.PENDING.value, "snooze": False, "notified": False})
    if nexts:
        _insert_ignore(conn, nexts)
    for i in range(0, len(done), _CHUNK):
        conn.execute(update(_REM).where(_REM.c.id.in_(done[i:i + _CHUNK]),
                                        _REM.c.status == ReminderStatus.ACTIVE.value)
                     .values(status=ReminderStatus.DONE.value))


def _insert_ignore(conn: Connection, values: list[dict[str, object]]) -> None:
    dialect = conn.engine.dialect.name
    if dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert
        conn.execute(sqlite_insert(_OCC).on_conflict_do_nothing(), values)
    elif dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert
        conn.execute(pg_insert(_OCC).on_conflict_do_nothing(), values)
    else:  # pragma: no cover - other databases: one row at a time, skipping existing ones
        for value in values:
            exists = conn.execute(select(_OCC.c.id).where(and_(_OCC.c.reminder_id == value["reminder_id"],
                                                               _OCC.c.due_at == value["due_at"]))).first()
            if exists is None:
                conn.execute(insert(_OCC).values(**value))


def record_outcome(engine: Engine, key: str, channel: str) -> bool:
    """Delivery's receipt: the push for ``key`` went out through ``channel`` (or was parked/dropped)."""
    stmt = (update(_OCC).where(_OCC.c.id == _occurrence_id(key), _OCC.c.state == OccurrenceState.ENQUEUED.value)
            .values(state=OccurrenceState.SENT.value, channel=channel))
    with engine.begin() as conn:
        return bool(conn.execute(stmt).rowcount)


def release(engine: Engine, key: str) -> bool:
    """Give a claimed push back (the sink failed before handing it over); it is retried next tick."""
    stmt = (update(_OCC).where(_OCC.c.id == _occurrence_id(key), _OCC.c.state == OccurrenceState.ENQUEUED.value)
            .values(state=OccurrenceState.PENDING.value, fired_at=None))
    with engine.begin() as conn:
        return bool(conn.execute(stmt).rowcount)


def stale_enqueued(engine: Engine, now: datetime, older_than: timedelta, limit: int = 1000) -> list[DuePush]:
    """Claimed pushes with no delivery receipt after ``older_than`` (the scheduler died mid-way).

    They are offered again; delivery dedupes on the key, so the user still gets one message.
    """
    now = as_utc(now)
    stmt = (select(_OCC.c.id, _OCC.c.user_id, _OCC.c.due_at, _OCC.c.fired_at, _REM.c.content, _REM.c.tz)
            .join(_REM, _REM.c.id == _OCC.c.reminder_id)
            .where(_OCC.c.state == OccurrenceState.ENQUEUED.value, _OCC.c.fired_at <= now - older_than)
            .order_by(_OCC.c.fired_at).limit(limit))
    with engine.connect() as conn:
        return [DuePush(r.user_id, _push_text(r.content, as_utc(r.due_at), as_utc(r.fired_at), r.tz),
                        push_key(r.id), r.content, as_utc(r.due_at).isoformat()) for r in conn.execute(stmt)]


def missed_notice(session: Session, user: str) -> str | None:
    """"You missed …" for the user's missed occurrences not yet mentioned (marks them told; caller commits)."""
    stmt = (select(_OCC.c.id, _OCC.c.due_at, _REM.c.content, _REM.c.tz)
            .join(_REM, _REM.c.id == _OCC.c.reminder_id)
            .where(_OCC.c.user_id == user, _OCC.c.state == OccurrenceState.MISSED.value,
                   _OCC.c.notified.is_(False))
            .order_by(_OCC.c.due_at).limit(20))
    rows = list(session.execute(stmt))
    if not rows:
        return None
    session.execute(update(_OCC).where(_OCC.c.id.in_([r.id for r in rows])).values(notified=True))
    items = "；".join(f"{format_when(as_utc(r.due_at).astimezone(ZoneInfo(r.tz)))} {r.content}" for r in rows)
    return f"抱歉，服务中断期间有{len(rows)}条提醒没能按时送达：{items}"


def count_pending(session: Session | Connection) -> int:
    """How many occurrences wait to fire (for stats)."""
    stmt = select(func.count()).select_from(_OCC).where(_OCC.c.state == OccurrenceState.PENDING.value)
    return int(session.execute(stmt).scalar_one())
