"""A pytest plugin (``-p tests.deploy._forbid_pg``): any PostgreSQL connection attempt fails the run."""

from __future__ import annotations

from typing import Any

import psycopg

ATTEMPTS: list[str] = []


def _refuse(*args: Any, **kwargs: Any) -> Any:
    ATTEMPTS.append(repr((args, kwargs)))
    raise AssertionError(f"a test connected to PostgreSQL without TEST_DATABASE_URL: {args} {kwargs}")


def pytest_configure(config: Any) -> None:
    psycopg.connect = _refuse  # type: ignore[assignment]
    psycopg.Connection.connect = classmethod(lambda cls, *a, **k: _refuse(*a, **k))  # type: ignore[assignment,method-assign]


def pytest_unconfigure(config: Any) -> None:
    if ATTEMPTS:
        print(f"POSTGRES CONNECTION ATTEMPTS: {len(ATTEMPTS)}")
