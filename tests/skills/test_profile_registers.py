"""The weight wished for lives beside the weight now; each is read from the words that say it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from runtime.skill import SkillRegistry
from runtime.understand.normalise import Normaliser
from runtime.understand.rules import RuleRouter, rules_from
from runtime.views import ExecView
from skills import all_skills
from skills.profile import extract_aspect, extract_conditions, extract_target_weight, extract_weight
from skills.profile import skill as profile
from skills.services import Services

View = Callable[..., ExecView]


@pytest.mark.parametrize(("text", "target", "now"), [
    ("想瘦到一百零五斤，眼下一百一十八斤", 52.5, 59.0),
    ("目标体重五十八 现在是六十三点五", 58.0, 63.5),
    ("打算增重到75公斤 目前才68", 75.0, 68.0),
    ("理想体重是50kg", 50.0, None),
    ("我要减到六十公斤，现在一百四十斤", 60.0, 70.0),
])
def test_the_weight_wished_for_and_the_weight_now(text: str, target: float, now: float | None) -> None:
    assert extract_target_weight(text) == target
    assert extract_weight(text) == now


@pytest.mark.parametrize("text", ["体重70公斤", "我的目标是减脂", "想减肥", "跑了5公里"])
def test_no_weight_wished_for(text: str) -> None:
    assert extract_target_weight(text) is None


def test_the_profile_keeps_and_shows_the_weight_wished_for(services: Services, make_view: View) -> None:
    params = {"goal": "减脂", "target_weight_kg": 55.0, "weight_kg": 61.0}
    done = profile.update(make_view(params, msg_id="m1"), params, services)
    assert "目标体重55公斤" in done.reply and "还差6公斤" in done.reply
    shown = profile.view_profile(make_view(msg_id="m2"), {}, services)
    assert "目标体重55公斤" in shown.reply and "体重61公斤" in shown.reply
    asked = profile.view_profile(make_view(msg_id="m3"), {"aspect": "target_weight_kg"}, services)
    assert "55公斤" in asked.reply and "还差6公斤" in asked.reply


@pytest.mark.parametrize(("text", "aspect"), [
    ("我现在几公斤了", "weight_kg"), ("我有多少千克", "weight_kg"), ("目标体重是多少来着", "target_weight_kg"),
    ("我身上有啥老毛病", "conditions"), ("你那记了我哪些病", "conditions"), ("我的目标是啥", "goal"),
])
def test_the_one_thing_asked(text: str, aspect: str) -> None:
    assert extract_aspect(text) == aspect


def _route(text: str) -> str | None:
    found = RuleRouter(rules_from(SkillRegistry(all_skills()).triggers())).classify(text)
    return found[0] if found else None


@pytest.mark.parametrize(("text", "intent"), [
    ("我有几重啊", "profile.view"), ("我几高", "profile.view"), ("那我现在几斤了", "profile.view"),
    ("我到底有几公斤来着", "profile.view"), ("帮我算算BMI", "profile.view"), ("现在能算出我的体质指数了吧", "profile.view"),
    ("我有哪些老毛病", "profile.view"), ("你记了我什么病", "profile.view"), ("BMI是什么意思", None),
    ("体重帮我记成六十九点五", "profile.update"), ("打算瘦到一百一十斤", "profile.update"),
    ("理想体重55 现在58公斤", "profile.update"), ("体重七十点二", "profile.update"),
])
def test_profile_questions_and_updates_route(text: str, intent: str | None) -> None:
    assert _route(text) == intent


@pytest.mark.parametrize(("previous", "fragment", "changed"), [
    ({"weight_kg": 65.0}, "六十三点五", {"weight_kg": 63.5}),
    ({"height_cm": 175.0}, "一米七三", {"height_cm": 173.0}),
    ({"target_weight_kg": 60.0, "goal": "减脂"}, "五十八", {"target_weight_kg": 58.0, "goal": "减脂"}),
    ({"height_cm": 170.0, "weight_kg": 60.0}, "体重是62", {"height_cm": 170.0, "weight_kg": 62.0}),
])
def test_a_correction_of_the_update_just_made(previous: dict[str, object], fragment: str,
                                               changed: dict[str, object]) -> None:
    assert profile.corrected_update(previous, fragment) == changed


def test_a_bare_number_after_two_measures_is_not_guessed() -> None:
    assert profile.corrected_update({"height_cm": 170.0, "weight_kg": 60.0}, "62") is None


def test_a_bare_number_far_from_the_one_measure_is_not_taken_for_it() -> None:
    assert profile.corrected_update({"weight_kg": 65.0}, "171") is None


@pytest.mark.parametrize(("text", "condition"), [
    ("俺有糖尿病 记下", "糖尿病"), ("我心脏不好 搭过支架", "心脏病"), ("我有点贫血", "贫血"), ("本人有哮喘", "哮喘"),
    ("我冠心病好几年了", "心脏病"),
])
def test_a_condition_said_of_oneself_is_kept_by_name(text: str, condition: str) -> None:
    said = Normaliser([])(text).text
    assert extract_conditions(said) == [condition]
    assert _route(said) == "profile.update"


def test_a_condition_that_rules_no_food_out_is_said_by_name(services: Services, make_view: View) -> None:
    done = profile.update(make_view({"conditions": ["贫血"]}, msg_id="m1"), {"conditions": ["贫血"]}, services)
    assert "身体情况：贫血" in done.reply and "不吃" not in done.reply
