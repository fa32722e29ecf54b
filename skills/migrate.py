"""The schema of wxbot's business tables, through the Alembic migrations only.

:func:`upgrade_engine` brings a database to a revision while holding the database's schema lock,
so any number of processes may start together on an empty database: on PostgreSQL a transaction
advisory lock (the whole upgrade is one transaction: transactional DDL), on SQLite the write lock
taken by ``BEGIN IMMEDIATE`` before the current revision is read. The second process waits, then
finds the schema at head and does nothing.

:func:`status` reads where a database stands without changing it (a process started with
``DB_UPGRADE_ON_START=false`` refuses to run on a schema that is behind). A database made by the
table-creating code of old releases (no ``alembic_version`` table, every table of revision
:data:`LEGACY_REVISION`) is adopted: stamped at that revision, then upgraded as usual.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import OperationalError

from skills.db import import_models, make_sql_engine

__all__ = [
    "MIGRATIONS_DIR", "SchemaError", "SchemaStatus", "alembic_config", "current", "head", "init_db", "status",
    "upgrade", "upgrade_engine",
]

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
# The revision whose tables old releases created without Alembic; such a database is stamped here.
LEGACY_REVISION = "0002"
LEGACY_TABLES = frozenset({
    "applied_writes", "delivery_records", "users", "exercise_logs", "health_profiles", "pantry_items",
    "reminders", "reminder_occurrences",
})
# The pg_advisory_xact_lock key every wxbot process takes around a schema upgrade (any fixed bigint).
PG_LOCK_KEY = 0x5D2A_0F3E_8C41_7B69
SQLITE_LOCK_WAIT_S = 120.0


class SchemaError(Exception):
    """The database's schema cannot be used or upgraded as it is; ``status`` says where it stands."""

    def __init__(self, message: str, status: SchemaStatus | None = None) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class SchemaStatus:
    """Where a database stands: its revision (None: never migrated), the code's head, and whether
    the database's revision is one this code knows."""

    current: str | None
    head: str
    known: bool = True
    legacy: bool = False  # tables of an old release without alembic_version (adopted on upgrade)

    @property
    def at_head(self) -> bool:
        return self.current == self.head

    @property
    def behind(self) -> bool:
        """True when an upgrade would change the database."""
        return self.known and not self.at_head


def alembic_config() -> Config:
    """The Alembic config for wxbot's tables, independent of the working directory."""
    cfg = Config(str(MIGRATIONS_DIR / "alembic.ini"))
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    return cfg


def head() -> str:
    """The newest revision this code knows."""
    found = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert found is not None, "no migrations found"
    return found


def _known(revision: str) -> bool:
    from alembic.util.exc import CommandError

    try:
        return ScriptDirectory.from_config(alembic_config()).get_revision(revision) is not None
    except CommandError:
        return False


def _status_on(connection: Connection) -> SchemaStatus:
    # read alembic_version with plain SQL: a MigrationContext logs two INFO lines at every process start
    tables = set(inspect(connection).get_table_names())
    revision = None
    if "alembic_version" in tables:
        revision = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    newest = head()
    if revision is not None:
        return SchemaStatus(current=str(revision), head=newest, known=_known(str(revision)))
    if not tables & LEGACY_TABLES:
        return SchemaStatus(current=None, head=newest)
    if tables >= LEGACY_TABLES:
        return SchemaStatus(current=None, head=newest, legacy=True)
    missing = ", ".join(sorted(LEGACY_TABLES - tables))
    raise SchemaError(f"the database holds some of wxbot's tables but no alembic_version (missing: {missing})",
                      SchemaStatus(current=None, head=newest, known=False))


def status(engine: Engine) -> SchemaStatus:
    """Where the database behind ``engine`` stands (read only)."""
    with engine.connect() as connection:
        return _status_on(connection)


def current(engine: Engine) -> str | None:
    """The revision the database is at (None when never migrated)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


@contextmanager
def _schema_lock(engine: Engine) -> Iterator[Connection]:
    """A connection inside one transaction that holds the database's schema lock until it commits."""
    if engine.dialect.name == "postgresql":
        with engine.begin() as connection:
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_LOCK_KEY})
            yield connection
        return
    if engine.dialect.name != "sqlite":
        with engine.begin() as connection:
            yield connection
        return
    with engine.connect() as connection:
        deadline = time.monotonic() + SQLITE_LOCK_WAIT_S
        while True:
            try:  # busy_timeout (skills.db) waits inside each try; a long upgrade elsewhere needs more
                connection.exec_driver_sql("BEGIN IMMEDIATE")
                break
            except OperationalError as exc:
                connection.rollback()
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
        try:
            yield connection
        except BaseException:
            connection.rollback()
            raise
        connection.commit()


def upgrade_engine(engine: Engine, revision: str = "head") -> SchemaStatus:
    """Upgrade the database behind ``engine`` to ``revision`` under the schema lock; returns the
    status found before (``status.behind`` False: nothing was done). Raises :class:`SchemaError` when
    the database is at a revision this code does not know (a newer release migrated it)."""
    cfg = alembic_config()
    with _schema_lock(engine) as connection:
        found = _status_on(connection)
        if not found.known:
            raise SchemaError(f"the database is at revision {found.current}, which this release does not know "
                              f"(its newest is {found.head})", found)
        if revision == "head" and found.at_head:
            return found
        cfg.attributes["connection"] = connection
        if found.legacy:
            command.stamp(cfg, LEGACY_REVISION)
        command.upgrade(cfg, revision)
        return found


def upgrade(url: str, revision: str = "head", *, schema: str | None = None) -> SchemaStatus:
    """Upgrade the database at ``url`` (SQLite or PostgreSQL) to ``revision``."""
    engine = make_sql_engine(url, schema=schema)
    try:
        return upgrade_engine(engine, revision)
    finally:
        engine.dispose()


def init_db(engine: Engine) -> None:
    """Bring the database behind ``engine`` to the newest schema through the migrations.

    Safe when several processes start together on an empty database: the upgrade runs under the
    database's schema lock (see :func:`upgrade_engine`).
    """
    import_models()
    upgrade_engine(engine)
