"""Alembic environment: targets every SQLModel table listed in ``skills.db.MODEL_MODULES``.

The connection comes from ``config.attributes["connection"]`` (see :mod:`skills.migrate`), or
from ``-x url=...`` / ``DATABASE_URL`` when run from the alembic command line.
"""

from __future__ import annotations

import os

from alembic import context
from sqlmodel import SQLModel

from skills.db import import_models, make_sql_engine

import_models()
target_metadata = SQLModel.metadata
config = context.config


def _run(connection: object) -> None:
    context.configure(
        connection=connection,  # type: ignore[arg-type]
        target_metadata=target_metadata,
        render_as_batch=True,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = context.get_x_argument(as_dictionary=True).get("url") or os.environ.get("DATABASE_URL")
    if not url:
        raise SystemExit("no database: pass -x url=... or set DATABASE_URL")
    engine = make_sql_engine(url)
    with engine.begin() as conn:
        _run(conn)
    engine.dispose()


if context.is_offline_mode():
    raise SystemExit("offline (SQL script) migrations are not supported")
run_migrations_online()
