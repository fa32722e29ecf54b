"""A throwaway PostgreSQL database per use: created empty, dropped afterwards (never anyone's data).

The server comes from ``TEST_DATABASE_URL`` (any database on it; only CREATE/DROP DATABASE are run
there), else the local server's maintenance database ``postgres`` (trust auth).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

DEFAULT_SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


def server_url() -> str:
    url = os.environ.get("TEST_DATABASE_URL") or DEFAULT_SERVER
    return url.replace("postgresql://", "postgresql+psycopg://", 1) if url.startswith("postgresql://") else url


@contextmanager
def throwaway_database(label: str = "deploy") -> Iterator[str]:
    """Yield the URL of a new empty database ``wxbot_<label>_<random>``; drop it afterwards."""
    server = make_url(server_url())
    name = f"wxbot_{label}_{uuid.uuid4().hex[:10]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    except OperationalError as exc:
        admin.dispose()
        pytest.fail(f"PostgreSQL at {server.render_as_string(hide_password=True)} is unreachable "
                    f"({exc.orig}); set TEST_DATABASE_URL or start it (see .ci/run)", pytrace=False)
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def with_fresh_schema(database_url: str, schema: str) -> str:
    """Create ``schema`` in the (throwaway) database and return a URL whose connections use it."""
    engine = create_engine(database_url)
    with engine.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    engine.dispose()
    return str(make_url(database_url).update_query_dict({"options": f"-csearch_path={schema}"})
               .render_as_string(hide_password=False))
