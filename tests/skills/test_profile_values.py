"""A number said without its unit is the new value of the field named or plausibly meant; a condition is kept
by name and shown; a measure said right after it was found missing updates it."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from runtime.views import ExecView
from skills.profile import skill as profile
from skills.profile._parse import extract_bare_value
from skills.profile._view import VIEW_FOLLOW_UPS
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
    rule = VIEW_FOLLOW_UPS.modifiers[0]
    m = re.search(rule.pattern, "一米六五")
    assert m is not None and rule.apply({}, m, None, seen.shown) == {"field": "height_cm"}
    assert re.search(rule.pattern, "一米六五的人适合什么运动") is None
