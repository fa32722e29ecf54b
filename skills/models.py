"""Shared SQL tables of the business skills (SQLModel).

Every table a message writes carries a ``source_msg_id``: unique on append-only tables
(exercise logs, delivery records), and recorded in :class:`AppliedWrite` for upserts
(profile, pantry), so a retried message never applies its effect twice.
Reminder tables live in ``skills.reminders.models``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column, DateTime, UniqueConstraint
from sqlmodel import Field, SQLModel

__all__ = ["AppliedWrite", "DeliveryRecord", "ExerciseLog", "HealthProfile", "PantryItem", "User", "utcnow"]


def utcnow() -> datetime:
    """The current time in UTC (aware); the default for audit columns."""
    return datetime.now(UTC)


def _ts(nullable: bool = False) -> Any:
    return Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=nullable))


class User(SQLModel, table=True):
    """One WeChat user of the account, keyed by openid."""

    __tablename__ = "users"

    openid: str = Field(primary_key=True, max_length=64)
    tz: str = Field(default="Asia/Shanghai", max_length=64)
    subscribed: bool = True
    created_at: datetime = _ts()


class HealthProfile(SQLModel, table=True):
    """A user's goal, body measures, food constraints and default city (one row per user)."""

    __tablename__ = "health_profiles"

    id: int | None = Field(default=None, primary_key=True)
    user_id: str = Field(foreign_key="users.openid", unique=True, max_length=64)
    goal: str | None = Field(default=None, max_length=16)
    height_cm: float | None = None
    weight_kg: float | None = None
    target_weight_kg: float | None = None  # the weight wished for ("目标体重60"), beside the one now
    city: str | None = Field(default=None, max_length=32)
    dislikes: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    allergies: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    # health conditions by name (痛风); the foods each rules out are kept in ``dislikes``
    conditions: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=True))
    source_msg_id: str | None = Field(default=None, max_length=128)
    updated_at: datetime = _ts()


class PantryItem(SQLModel, table=True):
    """What a user has at home: one row per (user, canonical ingredient name).

    ``name`` is the canonical ingredient (番茄), what plans and recipes match on; ``said`` the word the
    user last called it by (西红柿), what the bot says back (None: the canonical name was said)."""

    __tablename__ = "pantry_items"
    __table_args__ = (UniqueConstraint("user_id", "name", name="uq_pantry_user_name"),)

    id: int | None = Field(default=None, primary_key=True)
    user_id: str = Field(foreign_key="users.openid", index=True, max_length=64)
    name: str = Field(max_length=32)
    said: str | None = Field(default=None, max_length=32)
    quantity: float = 0.0
    unit: str = Field(default="克", max_length=8)
    source_msg_id: str | None = Field(default=None, max_length=128)
    updated_at: datetime = _ts()


class ExerciseLog(SQLModel, table=True):
    """One logged workout with its energy estimate (MET × kg × hours)."""

    __tablename__ = "exercise_logs"

    id: int | None = Field(default=None, primary_key=True)
    user_id: str = Field(foreign_key="users.openid", index=True, max_length=64)
    activity: str = Field(max_length=32)
    minutes: float | None = None
    distance_km: float | None = None
    met: float
    weight_kg: float
    weight_assumed: bool = False
    kcal: float
    done_at: datetime = _ts()
    source_msg_id: str = Field(unique=True, max_length=128)


class DeliveryRecord(SQLModel, table=True):
    """One reply or push handed to WeChat, keyed by the message or push job that caused it."""

    __tablename__ = "delivery_records"

    id: int | None = Field(default=None, primary_key=True)
    user_id: str = Field(index=True, max_length=64)
    kind: str = Field(default="reply", max_length=16)          # reply | push
    channel: str = Field(default="passive", max_length=16)     # passive | custom | template
    ref: str | None = Field(default=None, max_length=128)      # e.g. a reminder id
    text: str = ""
    status: str = Field(default="sent", max_length=16)         # sent | failed | dropped
    error: str | None = Field(default=None, max_length=256)
    source_msg_id: str = Field(unique=True, max_length=128)
    created_at: datetime = _ts()


class AppliedWrite(SQLModel, table=True):
    """Receipt of an upsert a message caused; its presence means "already applied"."""

    __tablename__ = "applied_writes"

    source_msg_id: str = Field(primary_key=True, max_length=128)
    user_id: str = Field(max_length=64)
    action: str = Field(max_length=64)
    created_at: datetime = _ts()
