"""The profile in everyday words: exactly the field said is updated, restrictions and health conditions are
echoed by name, and a question about one field is answered for it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from runtime.views import ExecView
from skills.profile import (
    extract_aspect,
    extract_conditions,
    extract_dislikes,
    extract_field,
    extract_height,
    extract_weight,
)
from skills.profile import skill as profile
from skills.services import Services

View = Callable[..., ExecView]
UPDATE = profile.SPEC.actions[1]


def _said(text: str) -> dict[str, object]:
    return {s.name: v for s in UPDATE.slots if s.extract is not None and (v := s.extract(text)) is not None}


@pytest.mark.parametrize(("text", "expected"), [
    ("把体重更新为70", {"weight_kg": 70.0}), ("体重改成68.5", {"weight_kg": 68.5}), ("我现在一百三十斤", {"weight_kg": 65.0}),
    ("体重降到一百三十来斤了", {"weight_kg": 65.0}), ("我瘦了，现在六十二公斤", {"weight_kg": 62.0}),
    ("身高一米七二", {"height_cm": 172.0}), ("身高更新为172", {"height_cm": 172.0}), ("目标改成增肌", {"goal": "增肌"}),
    ("我想减到一百二十斤", {"goal": "减脂", "target_weight_kg": 60.0}), ("我不吃辣的东西", {"dislikes": ["辣"]}),
    ("我有痛风", {"conditions": ["痛风"]}), ("更新一下我的身高", {"field": "height_cm"}),
    ("我吃素", {"dislikes": ["素食"]}), ("以后别给我安排辣的", {"dislikes": ["辣"]}), ("我不能吃海鲜", {"dislikes": ["海鲜"]}),
    ("帮我把目标改成保持", {"goal": "保持"}), ("我海鲜过敏", {"allergies": ["海鲜"]}),
    ("我的目标是减脂，身高165，体重60", {"goal": "减脂", "height_cm": 165.0, "weight_kg": 60.0}),
])
def test_exactly_what_was_said_is_read(text: str, expected: dict[str, object]) -> None:
    assert _said(text) == expected


@pytest.mark.parametrize("text", ["目标体重60公斤", "我想减到一百二十斤", "理想体重是55公斤"])
def test_a_weight_wished_for_is_not_the_weight(text: str) -> None:
    assert extract_weight(text) is None


def test_readers_leave_other_things_alone() -> None:
    assert extract_height("体重65公斤") is None and extract_conditions("痛风能吃什么") is None
    assert extract_dislikes("我不吃香菜和葱") == ["香菜", "葱"] and extract_field("身高175") is None


def test_a_condition_is_echoed_by_what_it_rules_out(services: Services, make_view: View) -> None:
    assert UPDATE.confirm_text is not None
    question = UPDATE.confirm_text({"conditions": ["痛风"], "dislikes": ["辣"]})
    assert question == "确认把资料更新为：痛风：不吃海鲜、动物内脏、啤酒，不吃辣吗？"
    done = profile.update(make_view(msg_id="c1"), {"conditions": ["痛风"]}, services)
    assert "痛风" in done.reply and "海鲜" in done.reply
    assert "海鲜" in profile.view_profile(make_view(), {}, services).reply
    assert UPDATE.confirm_text({"dislikes": ["素食"]}) == "确认把资料更新为：吃素吗？"


def test_the_field_named_is_asked_and_its_bare_answer_read() -> None:
    goal = UPDATE.slot("goal")
    assert goal is not None and goal.lookup is not None
    asked = goal.lookup(None, {"field": "height_cm"}, None)  # type: ignore[arg-type]
    assert asked is not None and asked.reply.startswith("身高多少")
    assert profile.normalise_update({"field": "height_cm", "goal": "175"}) == {"height_cm": 175.0}
    assert profile.normalise_update({"field": "weight_kg", "goal": "一百二十八"}) == {"weight_kg": 64.0}
    assert profile.normalise_update({"field": "weight_kg", "goal": "65"}) == {"weight_kg": 65.0}
    again = goal.lookup(None, {"field": "height_cm", "goal": "随便"}, None)  # type: ignore[arg-type]
    assert again is not None and "没听出来" in again.reply
    assert goal.lookup(None, {"weight_kg": 70.0}, None) is None  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "aspect"), [("我多重来着", "weight_kg"), ("我的BMI多少", "bmi"), ("我身高多少来着", "height_cm"),
                                              ("我的目标是啥", "goal"), ("看下我的资料", None), ("我住哪来着", "city"),
                                              ("我胖吗", "bmi"), ("我身高体重多少", None),
                                              ("我身体上有哪些毛病你记得吗", "conditions")])
def test_the_aspect_asked(text: str, aspect: str | None) -> None:
    assert extract_aspect(text) == aspect


def test_one_field_is_answered(services: Services, make_view: View) -> None:
    assert "还没告诉我体重" in profile.view_profile(make_view(), {"aspect": "weight_kg"}, services).reply
    profile.update(make_view(msg_id="w1"), {"weight_kg": 65.0, "height_cm": 172.0}, services)
    weight = profile.view_profile(make_view(), {"aspect": "weight_kg"}, services).reply
    assert weight.startswith("你的体重是65公斤（130斤）") and "BMI 22.0" in weight
    assert profile.view_profile(make_view(), {"aspect": "bmi"}, services).reply.startswith("你的BMI 22.0（正常）")


def test_a_bmi_lacking_one_value_asks_for_it_and_a_judged_one_says_the_range(services: Services,
                                                                            make_view: View) -> None:
    profile.update(make_view(msg_id="w1"), {"weight_kg": 80.0}, services)
    asked = profile.view_profile(make_view(), {"aspect": "bmi"}, services)
    assert "身高" in asked.reply and "？" in asked.reply and asked.shown == {"missing": "height_cm"}
    profile.update(make_view(msg_id="h1"), {"height_cm": 180.0}, services)
    judged = profile.view_profile(make_view(), {"aspect": "bmi", "judged": True}, services).reply
    assert "BMI 24.7（超重）" in judged and "18.5" in judged


def _route(text: str) -> str | None:
    from runtime.skill import SkillRegistry
    from runtime.understand.rules import RuleRouter, rules_from
    from skills import all_skills

    found = RuleRouter(rules_from(SkillRegistry(all_skills()).triggers())).classify(text)
    return found[0] if found else None


@pytest.mark.parametrize(("text", "intent"), [
    ("哦对了，我有糖尿病", "profile.update"), ("顺便说一下 我血压偏高 记一下", "profile.update"),
    ("我的体质指数目前如何", "profile.view"), ("体重这样算标准不", "profile.view"),
    ("我身体有什么毛病你知道吗", "profile.view"), ("对了 我痛风能吃海鲜吗", None),
])
def test_health_words_route(text: str, intent: str | None) -> None:
    assert _route(text) == intent
