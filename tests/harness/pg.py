"""A throwaway PostgreSQL database per use: created empty, dropped afterwards (never anyone's data).

The server is the one ``TEST_DATABASE_URL`` names, and only that one: only CREATE/DROP DATABASE are
run on the database it names. Unset, the caller is skipped with a one-line note (outside CI) or fails
(in CI, ``CI`` set: .ci/run sets the URL); no test ever falls back to a server it was not told about.
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

__all__ = ["HINT", "in_ci", "server_url", "throwaway_database", "with_fresh_schema"]

HINT = ("set TEST_DATABASE_URL to a PostgreSQL server where this user may create databases, e.g. "
        "TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres")


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def server_url() -> str:
    """``TEST_DATABASE_URL`` with the psycopg 3 driver; skips the calling test when it is unset
    (fails it in CI)."""
    url = os.environ.get("TEST_DATABASE_URL", "").strip()
    if not url:
        if in_ci():
            pytest.fail(f"CI needs PostgreSQL: {HINT}", pytrace=False)
        pytest.skip(f"PostgreSQL test skipped: TEST_DATABASE_URL is not set ({HINT})")
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


@contextmanager
def throwaway_database(label: str = "deploy") -> Iterator[str]:
    """Yield the URL of a new empty database ``wxbot_<label>_<random>``; drop it afterwards."""
    server = make_url(server_url())
    name = f"wxbot_{label}_{uuid.uuid4().hex[:10]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 5})
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    except OperationalError as exc:
        admin.dispose()
        pytest.fail(f"PostgreSQL at TEST_DATABASE_URL ({server.render_as_string(hide_password=True)}) is "
                    f"unreachable ({exc.orig})", pytrace=False)
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
