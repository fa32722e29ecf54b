"""Reminder tables: a reminder (what, for whom, its rule) and its occurrences (each fires once).

Times are stored in UTC (``DateTime(timezone=True)``; SQLite hands them back naive, so read them
through :func:`as_utc`). An occurrence moves ``pending → enqueued → sent`` (or ``missed`` /
``cancelled``) only through conditional updates, which is what makes it fire exactly once.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import Column, DateTime, Index, UniqueConstraint
from sqlmodel import Field, SQLModel

__all__ = ["OccurrenceState", "Reminder", "ReminderOccurrence", "ReminderStatus", "as_utc"]


def as_utc(value: datetime) -> datetime:
    """``value`` as an aware UTC datetime (naive values are UTC, as stored)."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _now() -> datetime:
    return datetime.now(UTC)


def _ts(nullable: bool = False, default: bool = True) -> Any:
    column = Column(DateTime(timezone=True), nullable=nullable)
    return Field(default_factory=_now, sa_column=column) if default else Field(default=None, sa_column=column)


class ReminderStatus(StrEnum):
    """Lifecycle of a reminder."""

    ACTIVE = "active"
    DONE = "done"            # a one-off reminder whose occurrence has fired
    CANCELLED = "cancelled"


class OccurrenceState(StrEnum):
    """Lifecycle of one occurrence."""

    PENDING = "pending"
    ENQUEUED = "enqueued"    # claimed by a scheduler, push handed to delivery
    SENT = "sent"            # delivery recorded its outcome (``channel``)
    MISSED = "missed"        # too late after downtime; the user is told at the next touch
    CANCELLED = "cancelled"  # reminder cancelled, or the user had unsubscribed when it fell due


class Reminder(SQLModel, table=True):
    """What to remind a user of, from when, and how it repeats (RFC 5545 rule, in ``tz``)."""

    __tablename__ = "reminders"

    id: int | None = Field(default=None, primary_key=True)
    user_id: str = Field(index=True, max_length=64)
    content: str = Field(max_length=256)
    first_due: datetime = _ts(default=False)
    rrule: str | None = Field(default=None, max_length=128)
    tz: str = Field(default="Asia/Shanghai", max_length=64)
    status: str = Field(default=ReminderStatus.ACTIVE.value, max_length=16)
    source_msg_id: str = Field(unique=True, max_length=128)
    created_at: datetime = _ts()


class ReminderOccurrence(SQLModel, table=True):
    """One moment a reminder falls due. Unique per (reminder, due time); fires at most once."""

    __tablename__ = "reminder_occurrences"
    __table_args__ = (
        UniqueConstraint("reminder_id", "due_at", name="uq_occurrence_reminder_due"),
        Index("ix_occurrence_state_due", "state", "due_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    reminder_id: int = Field(foreign_key="reminders.id", index=True)
    user_id: str = Field(index=True, max_length=64)
    due_at: datetime = _ts(default=False)
    state: str = Field(default=OccurrenceState.PENDING.value, max_length=16)
    fired_at: datetime | None = _ts(nullable=True, default=False)
    channel: str | None = Field(default=None, max_length=16)
    snooze: bool = False                 # a snoozed repeat: does not advance the rule
    notified: bool = False               # a missed occurrence the user has been told about
    source_msg_id: str | None = Field(default=None, unique=True, max_length=128)
