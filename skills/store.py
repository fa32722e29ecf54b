"""Idempotent write helpers shared by the skills.

A message may be processed more than once (at-least-once delivery); its effects must not be.
:func:`apply_once` runs an upsert and records an :class:`AppliedWrite` receipt in the same
transaction; :func:`insert_once` inserts a row whose own ``source_msg_id`` is unique. Both
treat a unique-constraint race as "already applied".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, SQLModel, select

from skills.models import AppliedWrite, HealthProfile, User

__all__ = ["apply_once", "ensure_user", "get_profile", "insert_once"]

T = TypeVar("T", bound=SQLModel)


def ensure_user(session: Session, openid: str, tz: str = "Asia/Shanghai") -> User:
    """The user row for ``openid``, created (flushed, not committed) when missing."""
    user = session.get(User, openid)
    if user is None:
        user = User(openid=openid, tz=tz)
        session.add(user)
        session.flush()
    return user


def get_profile(engine: Engine, openid: str) -> HealthProfile | None:
    """The user's health profile, detached from its session, or None."""
    with Session(engine, expire_on_commit=False) as session:
        return session.exec(select(HealthProfile).where(HealthProfile.user_id == openid)).first()


def apply_once(engine: Engine, *, msg_id: str, user: str, action: str, tz: str,
               write: Callable[[Session], None]) -> bool:
    """Run ``write`` unless ``msg_id`` was applied before. True when it ran now."""
    with Session(engine) as session:
        if session.get(AppliedWrite, msg_id) is not None:
            return False
        ensure_user(session, user, tz)
        write(session)
        session.add(AppliedWrite(source_msg_id=msg_id, user_id=user, action=action))
        try:
            session.commit()
        except IntegrityError:
            session.rollback()
            return False
    return True


def insert_once(engine: Engine, row: T, *, msg_id: str, user: str, tz: str = "Asia/Shanghai") -> tuple[T, bool]:
    """Insert ``row`` (its model has a unique ``source_msg_id``) unless one exists.

    Returns the stored row and whether it was inserted now.
    """
    model = type(row)
    column = model.source_msg_id  # type: ignore[attr-defined]
    with Session(engine, expire_on_commit=False) as session:
        existing = session.exec(select(model).where(column == msg_id)).first()
        if existing is not None:
            return existing, False
        ensure_user(session, user, tz)
        session.add(row)
        try:
            session.commit()
        except IntegrityError:
            session.rollback()
            again = session.exec(select(model).where(column == msg_id)).one()
            return again, False
        session.refresh(row)
        return row, True
