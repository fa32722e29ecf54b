"""Fixtures for the business-skill tests: a migrated SQLite file, a throwaway PostgreSQL schema
(in the run's own database, ``pg_url`` of ``tests/conftest.py``)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine

from runtime.views import ExecView, make_exec_view
from skills.db import make_sql_engine
from skills.migrate import init_db
from skills.services import Services

TZ = "Asia/Shanghai"
NOW = datetime(2026, 12, 2, 18, 30, tzinfo=ZoneInfo(TZ))  # a Wednesday evening


@pytest.fixture
def sqlite_url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path / 'wxbot.db'}"


@pytest.fixture
def engine(sqlite_url: str) -> Iterator[Engine]:
    eng = make_sql_engine(sqlite_url)
    init_db(eng)
    yield eng
    eng.dispose()


@pytest.fixture
def services(engine: Engine) -> Services:
    return Services(db=engine)


@pytest.fixture(scope="session")
def pg_schema(pg_url: str) -> Iterator[str]:
    """A throwaway schema in the run's PostgreSQL database, dropped after the session."""
    name = f"t_skills_{uuid.uuid4().hex[:10]}"
    admin = make_sql_engine(pg_url)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{name}"'))
    yield name
    with admin.begin() as conn:
        conn.execute(text(f'DROP SCHEMA "{name}" CASCADE'))
    admin.dispose()


def _view(params: dict[str, Any] | None = None, *, user: str = "u1", msg_id: str = "m1",
          now: datetime = NOW) -> ExecView:
    return make_exec_view(user=user, msg_id=msg_id, now=now, tz=TZ, params=params or {})


@pytest.fixture
def make_view() -> Callable[..., ExecView]:
    """Builds an exec view: ``make_view(params, user=..., msg_id=..., now=...)``."""
    return _view
