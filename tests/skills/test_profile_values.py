"""A number said without its unit is the new value of the field named or plausibly meant; a condition is kept
by name and shown; a measure said right after it was found missing updates it."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import inspect, text

from runtime.views import ExecView
from skills.db import import_models, make_sql_engine
from skills.migrate import head, status, upgrade_engine
from skills.profile import extract_bare_value
from skills.profile import skill as profile
from skills.services import Services

View = Callable[..., ExecView]
UPDATE = profile.SPEC.actions[1]


def _said(text: str) -> dict[str, object]:
    return {s.name: v for s in UPDATE.slots if s.extract is not None and (v := s.extract(text)) is not None}


@pytest.mark.parametrize(("text", "changes"), [
    ("帮我把体重改一下，68.5", {"weight_kg": 68.5}),
    ("秤不准，改成68", {"weight_kg": 68.0}),          # under 100: no height, so a weight
    ("身高更新一下，172", {"height_cm": 172.0}),
    ("体重更新为136", {"weight_kg": 68.0}),           # 120 and up after 体重: 斤
    ("改成172", {}),                                  # a height or a weight in 斤: not guessed
])
def test_a_bare_number_is_the_value_of_the_field(text: str, changes: dict[str, float]) -> None:
    assert profile.normalise_update(_said(text)) == changes


def test_a_value_with_its_unit_is_no_bare_number() -> None:
    assert extract_bare_value("体重70公斤") is None and extract_bare_value("想减到60") is None


def test_a_condition_is_kept_by_name_and_shown(services: Services, make_view: View) -> None:
    params = _said("我痛风好些年了，记一下")
    assert params.get("conditions") == ["痛风"]
    profile.update(make_view(params, msg_id="m1"), params, services)
    seen = profile.view_profile(make_view(msg_id="m2"), {"aspect": "conditions"}, services)
    assert "痛风" in seen.reply and "海鲜" in seen.reply
    assert "身体情况：痛风" in profile.view_profile(make_view(msg_id="m3"), {}, services).reply


def test_a_missing_measure_is_followed_by_its_value(services: Services, make_view: View) -> None:
    seen = profile.view_profile(make_view(msg_id="m1"), {"aspect": "height_cm"}, services)
    assert seen.shown == {"missing": "height_cm"}
    rule = profile.SPEC.actions[0].follow.modifiers[0]
    m = re.search(rule.pattern, "一米六五")
    assert m is not None and rule.apply({}, m, None, seen.shown) == {"field": "height_cm"}
    assert re.search(rule.pattern, "一米六五的人适合什么运动") is None


def test_the_migration_adds_conditions_and_keeps_the_profiles_written_before(tmp_path: Any, make_view: View) -> None:
    import_models()
    engine = make_sql_engine(f"sqlite:///{tmp_path / 'old.db'}")
    upgrade_engine(engine, "0003")
    with engine.begin() as conn:  # a profile of the schema before: its condition only as the foods it rules out
        conn.execute(text("INSERT INTO users (openid, tz, subscribed, created_at) VALUES ('u1', 'Asia/Shanghai', true, :t)"),
                     {"t": datetime(2026, 11, 1, tzinfo=UTC)})
        conn.execute(text("INSERT INTO health_profiles (user_id, weight_kg, dislikes, allergies, updated_at) "
                          "VALUES ('u1', 70, '[\"海鲜\"]', '[]', :t)"), {"t": datetime(2026, 11, 1, tzinfo=UTC)})
    upgrade_engine(engine)
    assert status(engine).current == head() == "0005"
    column = next(c for c in inspect(engine).get_columns("health_profiles") if c["name"] == "conditions")
    assert column["nullable"]
    services = Services(db=engine)
    assert "不吃海鲜" in profile.view_profile(make_view(), {}, services).reply
    profile.update(make_view(msg_id="m1"), {"conditions": ["痛风"]}, services)
    assert "身体情况：痛风" in profile.view_profile(make_view(msg_id="m2"), {}, services).reply
    engine.dispose()
