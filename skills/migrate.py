"""Run the Alembic schema migrations programmatically (no ``alembic.ini`` on the working directory).

``upgrade(url)`` brings a SQLite file or a PostgreSQL database to the newest schema; ``schema``
selects a PostgreSQL schema (throwaway test schemas). The Alembic scripts live in
``skills/migrations/``.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy.engine import Engine

from skills.db import make_engine

__all__ = ["MIGRATIONS_DIR", "alembic_config", "current", "upgrade", "upgrade_engine"]

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"


def alembic_config() -> Config:
    """The Alembic config for wxbot's tables, independent of the working directory."""
    cfg = Config(str(MIGRATIONS_DIR / "alembic.ini"))
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    return cfg


def upgrade_engine(engine: Engine, revision: str = "head") -> None:
    """Upgrade the database behind ``engine`` to ``revision``."""
    cfg = alembic_config()
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, revision)


def upgrade(url: str, revision: str = "head", *, schema: str | None = None) -> None:
    """Upgrade the database at ``url`` (SQLite or PostgreSQL) to ``revision``."""
    engine = make_engine(url, schema=schema)
    try:
        upgrade_engine(engine, revision)
    finally:
        engine.dispose()


def current(engine: Engine) -> str | None:
    """The revision the database is at (None when never migrated)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()
