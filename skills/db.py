"""SQL persistence helpers: one engine factory for SQLite (default) and PostgreSQL.

Table models live next to the skills that own them; :func:`import_models` imports every model
module listed in :data:`MODEL_MODULES` so their tables are registered on ``SQLModel.metadata``.
The schema itself comes only from the Alembic migrations (:mod:`skills.migrate`); a model change
needs a new revision in ``skills/migrations/versions`` (a test compares the two).
Writes are idempotent through a unique ``source_msg_id`` column on every table a message writes.
"""

from __future__ import annotations

import importlib
import sqlite3
import time
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import create_engine

# Every module that defines SQLModel tables; add yours here.
MODEL_MODULES: tuple[str, ...] = ("skills.models", "skills.reminders.models")
SQLITE_BUSY_TIMEOUT_MS = 5000  # how long a statement waits for another process's write lock
SQLITE_WAL_WAIT_S = 120.0  # how long a new connection waits to switch the file to WAL (a long upgrade)


def normalise_url(url: str) -> str:
    """Accept ``postgres://``/``postgresql://`` and use the psycopg 3 driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def make_sql_engine(url: str, *, schema: str | None = None, **kwargs: Any) -> Engine:
    """An engine for ``url``. ``schema`` sets the PostgreSQL search_path (throwaway test schemas)."""
    url = normalise_url(url)
    if url.startswith("sqlite"):
        kwargs.setdefault("connect_args", {"check_same_thread": False})
        engine = create_engine(url, **kwargs)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            cursor = dbapi_conn.cursor()
            try:
                cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
                _use_wal(cursor)
            finally:
                cursor.close()

        return engine
    if schema:
        kwargs.setdefault("connect_args", {"options": f"-csearch_path={schema}"})
    kwargs.setdefault("pool_pre_ping", True)
    return create_engine(url, **kwargs)


def _use_wal(cursor: Any) -> None:
    """Switch the SQLite file to WAL, waiting while another process holds it.

    The switch needs the file to itself for a moment. SQLite answers "database is locked" at once,
    without calling the busy handler, when the lock cannot be had without a deadlock (another
    connection is between its read and its write, e.g. a process upgrading the schema under
    ``BEGIN IMMEDIATE`` while this one starts): so the wait for it is a loop of our own.
    """
    deadline = time.monotonic() + SQLITE_WAL_WAIT_S
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def import_models() -> None:
    """Import every model module so all tables are known to ``SQLModel.metadata``."""
    for name in MODEL_MODULES:
        importlib.import_module(name)
