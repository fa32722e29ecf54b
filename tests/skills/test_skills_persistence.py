"""Schema migrations and idempotent writes, on SQLite and on the real PostgreSQL server."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, func, select

from skills.db import import_models, make_sql_engine
from skills.migrate import current, upgrade
from skills.models import DeliveryRecord, ExerciseLog, HealthProfile, PantryItem
from skills.store import apply_once, insert_once


def _log(msg_id: str, user: str = "u1") -> ExerciseLog:
    return ExerciseLog(user_id=user, activity="跑步", minutes=30, met=9.8, weight_kg=60, kcal=294,
                       source_msg_id=msg_id)


def _check_schema_matches(engine: Engine) -> None:
    import_models()
    names = set(inspect(engine).get_table_names()) - {"alembic_version"}
    assert names == set(SQLModel.metadata.tables)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": False}),
                                SQLModel.metadata)
    assert diff == []
    assert current(engine) is not None


def _check_idempotent_writes(engine: Engine) -> None:
    row, inserted = insert_once(engine, _log("msg-1"), msg_id="msg-1", user="u1")
    assert inserted and row.id is not None
    again, inserted_again = insert_once(engine, _log("msg-1"), msg_id="msg-1", user="u1")
    assert not inserted_again and again.id == row.id
    insert_once(engine, _log("msg-2"), msg_id="msg-2", user="u1")
    for _ in range(2):
        insert_once(engine, DeliveryRecord(user_id="u1", kind="push", channel="custom", text="该倒垃圾了",
                                           source_msg_id="push-7"), msg_id="push-7", user="u1")

    def write(session: Session) -> None:
        item = session.exec(select(PantryItem).where(PantryItem.user_id == "u1",
                                                     PantryItem.name == "鸡蛋")).first()
        item = item or PantryItem(user_id="u1", name="鸡蛋", unit="个")
        item.quantity += 6
        session.add(item)

    assert apply_once(engine, msg_id="msg-3", user="u1", action="pantry.update", tz="Asia/Shanghai", write=write)
    assert not apply_once(engine, msg_id="msg-3", user="u1", action="pantry.update", tz="Asia/Shanghai",
                          write=write)
    with Session(engine) as session:
        assert session.exec(select(func.count()).select_from(ExerciseLog)).one() == 2
        assert session.exec(select(func.count()).select_from(DeliveryRecord)).one() == 1
        eggs = session.exec(select(PantryItem)).one()
        assert eggs.quantity == 6
        session.add(HealthProfile(user_id="u1", dislikes=["香菜"], allergies=[]))
        session.commit()
        assert session.exec(select(HealthProfile)).one().dislikes == ["香菜"]


def test_sqlite_upgrade_head_yields_exactly_the_metadata(sqlite_url: str) -> None:
    upgrade(sqlite_url)
    upgrade(sqlite_url)  # a second run is a no-op
    engine = make_sql_engine(sqlite_url)
    try:
        _check_schema_matches(engine)
        _check_idempotent_writes(engine)
    finally:
        engine.dispose()


@pytest.fixture
def pg_engine(pg_schema: str, pg_url: str) -> Iterator[Engine]:
    schema = f"{pg_schema}_{uuid.uuid4().hex[:6]}"
    admin = make_sql_engine(pg_url)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    engine = make_sql_engine(pg_url, schema=schema)
    yield engine
    engine.dispose()
    with admin.begin() as conn:
        conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


@pytest.mark.postgres
def test_postgres_upgrade_head_yields_exactly_the_metadata(pg_engine: Engine) -> None:
    from skills.migrate import upgrade_engine

    upgrade_engine(pg_engine)
    upgrade_engine(pg_engine)
    _check_schema_matches(pg_engine)
    _check_idempotent_writes(pg_engine)
