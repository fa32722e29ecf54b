"""The pantry keeps the word the user called an item by (西红柿) beside its canonical name (番茄): the
migration that adds it, on SQLite and PostgreSQL, and every place the item is said back."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine

from runtime.views import ExecView
from skills.cookbook.catalog import load_catalog
from skills.db import import_models, make_sql_engine
from skills.dinner import skill as dinner
from skills.migrate import status, upgrade_engine
from skills.pantry import parse_pantry
from skills.pantry import skill as pantry
from skills.services import Services

View = Callable[..., ExecView]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def bare_engine(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[Engine]:
    """An empty database (nothing migrated yet): an SQLite file, or a fresh PostgreSQL schema."""
    import_models()
    if request.param == "sqlite":
        engine = make_sql_engine(f"sqlite:///{tmp_path / 'old.db'}")
        yield engine
        engine.dispose()
        return
    url = request.getfixturevalue("pg_url")
    schema = f"said_{uuid.uuid4().hex[:8]}"
    admin = make_sql_engine(url)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    engine = make_sql_engine(url, schema=schema)
    yield engine
    engine.dispose()
    with admin.begin() as conn:
        conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


def test_the_migration_adds_the_word_and_keeps_the_rows_written_before(bare_engine: Engine, make_view: View) -> None:
    upgrade_engine(bare_engine, "0002")
    with bare_engine.begin() as conn:  # a row of the schema before: no word kept
        conn.execute(text("INSERT INTO users (openid, tz, subscribed, created_at) VALUES ('u1', 'Asia/Shanghai', true, :t)"),
                     {"t": datetime(2026, 11, 1, tzinfo=UTC)})
        conn.execute(text("INSERT INTO pantry_items (user_id, name, quantity, unit, source_msg_id, updated_at) "
                          "VALUES ('u1', '番茄', 4, '个', 'm-old', :t)"), {"t": datetime(2026, 11, 1, tzinfo=UTC)})
    assert "said" not in {c["name"] for c in inspect(bare_engine).get_columns("pantry_items")}

    upgrade_engine(bare_engine, "0003")
    assert status(bare_engine).current == "0003"
    said = next(c for c in inspect(bare_engine).get_columns("pantry_items") if c["name"] == "said")
    assert said["nullable"]
    services = Services(db=bare_engine)
    assert "番茄 4个" in pantry.view_pantry(make_view(), {}, services).reply  # the old row: its own name

    pantry.update(make_view(msg_id="m-1"), {"items": "西红柿用了一个"}, services)
    shown = pantry.view_pantry(make_view(msg_id="m-2"), {}, services)
    assert "西红柿 3个" in shown.reply and "番茄" not in shown.reply
    assert pantry.pantry_grams(bare_engine, "u1") == {"番茄": 3 * load_catalog().ingredients["番茄"].piece_g}


def test_a_change_carries_the_word_said_only_when_it_is_another_word() -> None:
    assert parse_pantry("冰箱里有西红柿4个、鸡蛋6个") == [
        {"name": "番茄", "op": "set", "quantity": 4.0, "unit": "个", "said": "西红柿"},
        {"name": "鸡蛋", "op": "set", "quantity": 6.0, "unit": "个"}]
    assert parse_pantry("马铃薯用完了") == [{"name": "土豆", "op": "set", "quantity": 0.0, "unit": "个", "said": "马铃薯"}]
    assert load_catalog().mentions("买了两斤洋芋和一棵包菜") == [("土豆", "洋芋"), ("卷心菜", "包菜")]


def test_every_reply_says_the_item_as_the_user_called_it(services: Services, make_view: View) -> None:
    told = pantry.update(make_view(msg_id="m-1"), {"items": "冰箱里有洋芋两斤、包菜1个"}, services)
    assert "洋芋 2斤" in told.reply and "包菜 1个" in told.reply and "土豆" not in told.reply
    assert told.shown["ingredients"] == ["洋芋", "包菜"]
    listed = pantry.view_pantry(make_view(), {}, services)
    assert [(e.name, e.attrs.get("aka")) for e in listed.entities] == [("包菜", "卷心菜"), ("洋芋", "土豆")]
    one = pantry.view_pantry(make_view(), {"item": "洋芋"}, services)
    assert one.reply == "洋芋还有2斤。"
    by_its_name = pantry.view_pantry(make_view(), {"item": "土豆"}, services)  # asked by the canonical name
    assert by_its_name.reply == "土豆还有2斤。"


def test_the_newest_word_is_the_one_said_back(services: Services, make_view: View) -> None:
    pantry.update(make_view(msg_id="m-1"), {"items": "冰箱里有西红柿4个"}, services)
    pantry.update(make_view(msg_id="m-2"), {"items": "番茄用了1个"}, services)
    assert "番茄 3个" in pantry.view_pantry(make_view(), {}, services).reply
    pantry.update(make_view(msg_id="m-3"), {"items": "西红柿用了1个"}, services)
    assert "西红柿 2个" in pantry.view_pantry(make_view(), {}, services).reply


def test_the_plan_nets_by_the_canonical_name_and_says_the_users_word(services: Services, make_view: View) -> None:
    pantry.update(make_view(msg_id="m-1"), {"items": "冰箱里有洋芋两斤"}, services)
    result = dinner.plan(make_view(msg_id="m-2"), {"people": 3, "budget": 100}, services)
    used = dict((row["item"], row["grams"]) for row in result.data["from_pantry"])
    assert used.get("土豆", 0) > 0  # netted against the stock by the canonical name
    assert "家里现有先用上：洋芋" in result.reply
    assert not any(line.startswith("· 土豆") for line in result.reply.splitlines())  # not bought again
