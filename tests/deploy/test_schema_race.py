"""Processes that start together on an empty database: the schema lock makes one of them upgrade and
the others wait and find it done (issue: workers racing in table creation on SQLite and PostgreSQL)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from skills.db import make_sql_engine
from skills.migrate import head, status
from tests.harness.pg import throwaway_database

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = 3
HOLD_S = 1.5  # the first CREATE TABLE of each process waits this long: their schema work overlaps


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def empty_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'wxbot.db'}"
        return
    with throwaway_database("race") as url:
        yield url


def race(url: str, *extra: str) -> list[str]:
    """Start the children, wait until each is ready, release them together; their last lines."""
    children = [subprocess.Popen([sys.executable, "-m", "tests.deploy._race_child", url, str(HOLD_S), *extra],
                                 cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True) for _ in range(PROCESSES)]
    for child in children:
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    for child in children:
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.flush()
    return [child.communicate(timeout=120)[0].strip() for child in children]


def test_processes_starting_together_on_an_empty_database_all_start(empty_db: str) -> None:
    outputs = race(empty_db)
    assert outputs == ["ok"] * PROCESSES, outputs
    engine = make_sql_engine(empty_db)
    try:
        assert status(engine).current == head()
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1
    finally:
        engine.dispose()


def test_without_the_schema_lock_the_same_start_fails(empty_db: str) -> None:
    """The control case: the race above is real, so the passing test above is the lock's doing."""
    outputs = race(empty_db, "--no-lock")
    failures = [o for o in outputs if o != "ok"]
    assert failures, outputs
    assert all(("already exists" in o or "UniqueViolation" in o or "locked" in o) for o in failures), failures


def test_a_new_connection_waits_for_the_wal_switch_while_another_process_writes(tmp_path: Path) -> None:
    """The cause of the race above on SQLite: switching a file to WAL while another connection holds
    its write lock fails at once ("database is locked", no busy wait); a new connection must wait."""
    import sqlite3
    import threading
    import time

    path = tmp_path / "wxbot.db"
    writer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    writer.execute("BEGIN IMMEDIATE")  # the file is still in rollback-journal mode: no WAL yet
    writer.execute("CREATE TABLE t (i INTEGER)")
    with pytest.raises(sqlite3.OperationalError, match="locked"):  # SQLite's own answer: no waiting
        sqlite3.connect(path, timeout=5).execute("PRAGMA journal_mode=WAL")
    release = threading.Timer(0.5, writer.execute, args=("COMMIT",))
    release.start()
    engine = make_sql_engine(f"sqlite:///{path}")
    started = time.monotonic()
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("SELECT count(*) FROM t").scalar() == 0
        assert time.monotonic() - started >= 0.3
    finally:
        release.join()
        engine.dispose()
        writer.close()
