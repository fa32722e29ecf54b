"""The schema comes from the migrations only: upgrade on data, adoption of old databases, refusals."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, select

from bot.cli import main
from bot.commands.db import schema_gate
from bot.settings import Settings
from skills.db import import_models, make_sql_engine
from skills.migrate import SchemaError, head, init_db, status, upgrade_engine
from skills.models import ExerciseLog, HealthProfile, PantryItem, User
from skills.reminders.models import Reminder
from tests.harness.pg import throwaway_database, with_fresh_schema

FIRST = "0001"
T0 = datetime(2026, 11, 1, 8, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def pg_database() -> Iterator[str]:
    with throwaway_database("migrate") as url:
        yield url


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database: an SQLite file, or a fresh schema of the module's throwaway PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'wxbot.db'}"
        return
    database = request.getfixturevalue("pg_database")
    yield with_fresh_schema(database, f"s_{uuid.uuid4().hex[:8]}")


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    import_models()
    eng = make_sql_engine(db_url)
    yield eng
    eng.dispose()


def _fill_first_revision(engine: Engine) -> None:
    """Rows in every table of the first revision, written with plain SQL of that revision's columns."""
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO users (openid, tz, subscribed, created_at) VALUES "
                          "('u1', 'Asia/Shanghai', true, :t), ('u2', 'Asia/Shanghai', false, :t)"), {"t": T0})
        conn.execute(text("INSERT INTO exercise_logs (user_id, activity, minutes, distance_km, met, weight_kg, "
                          "weight_assumed, kcal, done_at, source_msg_id) VALUES "
                          "('u1', 'running', 30, 5.0, 9.8, 60, false, 294, :t, 'm-run')"), {"t": T0})
        conn.execute(text("INSERT INTO health_profiles (user_id, goal, height_cm, weight_kg, city, dislikes, "
                          "allergies, source_msg_id, updated_at) VALUES "
                          "('u1', 'lose', 170, 60, '上海', '[\"香菜\"]', '[]', 'm-prof', :t)"), {"t": T0})
        conn.execute(text("INSERT INTO pantry_items (user_id, name, quantity, unit, source_msg_id, updated_at) "
                          "VALUES ('u1', '鸡蛋', 6, '个', 'm-pantry', :t)"), {"t": T0})
        conn.execute(text("INSERT INTO applied_writes (source_msg_id, user_id, action, created_at) VALUES "
                          "('m-prof', 'u1', 'profile.update', :t)"), {"t": T0})
        conn.execute(text("INSERT INTO delivery_records (user_id, kind, channel, ref, text, status, error, "
                          "source_msg_id, created_at) VALUES "
                          "('u1', 'reply', 'custom', 'r1', '好的', 'sent', NULL, 'm-del', :t)"), {"t": T0})


def test_upgrade_from_the_first_migration_to_head_keeps_the_data(engine: Engine) -> None:
    upgrade_engine(engine, FIRST)
    assert status(engine).current == FIRST and status(engine).behind
    _fill_first_revision(engine)

    before = upgrade_engine(engine)
    assert before.current == FIRST
    assert status(engine).current == head() and not status(engine).behind
    with Session(engine) as session:
        assert [u.openid for u in session.exec(select(User).order_by(User.openid))] == ["u1", "u2"]
        run = session.exec(select(ExerciseLog)).one()
        assert (run.activity, run.minutes, run.kcal, run.source_msg_id) == ("running", 30, 294, "m-run")
        assert session.exec(select(HealthProfile)).one().dislikes == ["香菜"]
        assert session.exec(select(PantryItem)).one().quantity == 6
        # the tables of later revisions work beside the old rows
        session.add(Reminder(user_id="u1", content="带伞", first_due=T0, tz="Asia/Shanghai", source_msg_id="m-rem"))
        session.commit()
        assert session.exec(select(Reminder)).one().content == "带伞"


def test_the_models_and_the_migrations_describe_the_same_schema(engine: Engine) -> None:
    init_db(engine)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), SQLModel.metadata)
    assert diff == [], ("a model differs from the migrations: add a revision in skills/migrations/versions "
                        f"(alembic revision --autogenerate); differences: {diff}")


def test_a_database_of_an_old_release_is_adopted_and_upgraded(engine: Engine) -> None:
    upgrade_engine(engine, "0002")  # what old releases' table creation produced, without alembic_version
    _fill_first_revision(engine)
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE alembic_version"))
    found = status(engine)
    assert (found.current, found.legacy, found.behind) == (None, True, True)

    upgrade_engine(engine)
    assert status(engine).current == head()
    with Session(engine) as session:
        assert len(session.exec(select(User)).all()) == 2


def test_a_database_with_only_some_of_the_tables_is_refused(engine: Engine) -> None:
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE users (openid VARCHAR(64) PRIMARY KEY)"))
    with pytest.raises(SchemaError, match="some of wxbot's tables but no alembic_version"):
        upgrade_engine(engine)


def test_a_revision_from_a_newer_release_is_refused(engine: Engine) -> None:
    init_db(engine)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    with pytest.raises(SchemaError, match="9999, which this release does not know"):
        upgrade_engine(engine)


def _settings(db_url: str, tmp_path: Path, upgrade: bool) -> Settings:
    return Settings.from_env({"DATABASE_URL": db_url, "DATA_DIR": str(tmp_path),
                              "DB_UPGRADE_ON_START": "true" if upgrade else "false"})


def test_a_process_refuses_to_start_on_a_schema_that_is_behind(engine: Engine, db_url: str,
                                                                tmp_path: Path) -> None:
    upgrade_engine(engine, FIRST)
    refusal = schema_gate(_settings(db_url, tmp_path, upgrade=False), "worker")
    assert refusal is not None and "\n" not in refusal
    assert refusal.startswith("wxbot worker: the database schema is behind (0001, this release needs")
    assert "wxbot db upgrade" in refusal
    assert status(engine).current == FIRST  # refusing changes nothing

    assert schema_gate(_settings(db_url, tmp_path, upgrade=True), "worker") is None
    assert status(engine).current == head()
    assert schema_gate(_settings(db_url, tmp_path, upgrade=False), "worker") is None


def test_a_process_refuses_to_start_when_the_database_is_unreachable(tmp_path: Path) -> None:
    url = "postgresql+psycopg://wxbot:secret-pw@127.0.0.1:9/wxbot"  # port 9: nothing listens
    refusal = schema_gate(_settings(url, tmp_path, upgrade=True), "scheduler")
    assert refusal is not None and "\n" not in refusal
    assert refusal.startswith("wxbot scheduler: cannot use the database at postgresql+psycopg://wxbot:***@")
    assert "secret-pw" not in refusal


def test_wxbot_db_status_and_upgrade(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["db", "status", "--database-url", db_url]) == 1
    assert "revision none" in capsys.readouterr().out
    assert main(["db", "upgrade", "--revision", FIRST, "--database-url", db_url]) == 0
    assert f"upgraded empty → {FIRST}" in capsys.readouterr().out
    assert main(["db", "upgrade", "--database-url", db_url]) == 0
    assert f"upgraded {FIRST} → {head()}" in capsys.readouterr().out
    assert main(["db", "upgrade", "--database-url", db_url]) == 0
    assert f"already at {head()}" in capsys.readouterr().out
    assert main(["db", "status", "--database-url", db_url]) == 0
    assert "up to date" in capsys.readouterr().out
