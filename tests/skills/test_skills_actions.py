"""Dinner, recipes, pantry and profile actions called directly: run(view, params, services) on SQLite."""

from __future__ import annotations

from collections.abc import Callable

from sqlmodel import Session, func, select

from runtime.views import ExecView
from skills.dinner import recipes
from skills.dinner.skill import SPEC as DINNER
from skills.dinner.skill import plan
from skills.models import AppliedWrite, HealthProfile, PantryItem
from skills.pantry import skill as pantry
from skills.profile import skill as profile
from skills.services import Services

View = Callable[..., ExecView]


def test_dinner_plan_reply_dto_and_facts(services: Services, make_view: View) -> None:
    result = plan(make_view({"people": 3, "budget": 80.0, "dietary": ["不吃辣", "香菜"]}),
                  {"people": 3, "budget": 80.0, "dietary": ["不吃辣", "香菜"]}, services)
    assert result.ok and "【菜单】" in result.reply and "¥" in result.reply
    assert result.dto["within_budget"] is True and result.dto["total"] <= 80
    assert result.facts == {"people": 3, "budget": 80.0, "dislikes": ["不吃辣", "香菜"]}
    assert "香菜" not in str(result.dto["shopping_list"])


def test_dinner_reads_profile_allergies_and_pantry(services: Services, make_view: View) -> None:
    profile.update(make_view(msg_id="p1"), {"allergies": ["鸡蛋"], "goal": "减脂"}, services)
    pantry.update(make_view(msg_id="p2"), {"items": "冰箱里有土豆4个、西红柿3个"}, services)
    result = plan(make_view(), {"people": 2, "budget": 60.0, "dietary": ["没有"]}, services)
    assert "鸡蛋" not in str(result.dto["shopping_list"])
    assert all("蛋" not in m["dish"] for m in result.dto["menu"])
    assert result.dto["goal"] == "减脂" and result.facts["goal"] == "减脂"
    assert result.dto["from_pantry"], result.dto


def test_dinner_spec_slots() -> None:
    action = DINNER.actions[0]
    assert action.intent == "dinner.plan" and not action.writes
    assert [s.name for s in action.slots][:3] == ["people", "budget", "dietary"]
    # the rest keep what follow-ups changed (swaps, dishes left out, dishes added, the day of a new table): never
    # asked, never read from words
    kept = action.slots[3:]
    assert [s.name for s in kept] == ["swaps", "avoid", "extra", "day"]
    assert all(not s.required and not s.ask_once and s.extract is not None and s.extract("把汤换成紫菜蛋花汤") is None
               for s in kept)
    people = action.slot("people")
    dietary = action.slot("dietary")
    assert people is not None and people.minimum == 1 and people.maximum == 20 and people.question == "几个人吃？"
    assert dietary is not None and dietary.ask_once and not dietary.required


def test_recipe_query_known_and_unknown(services: Services, make_view: View) -> None:
    assert recipes.extract_dish("番茄炒蛋怎么做") == "番茄炒蛋怎么做"  # the search reads the whole question
    known = recipes.query(make_view(), {"dish": "番茄炒蛋"}, services)
    assert known.ok and "鸡蛋" in known.reply and "1." in known.reply
    unknown = recipes.query(make_view(), {"dish": "佛跳墙"}, services)
    assert not unknown.ok and "没有" in unknown.reply and unknown.dto["known"] is False


def test_pantry_update_is_idempotent_and_viewable(services: Services, make_view: View) -> None:
    items = pantry.SPEC.actions[0].slots[0].extract
    assert items is not None
    parsed = items("冰箱里有鸡蛋6个、西红柿4个")
    assert parsed == [{"name": "鸡蛋", "op": "set", "quantity": 6.0, "unit": "个"},
                      {"name": "番茄", "op": "set", "quantity": 4.0, "unit": "个", "said": "西红柿"}]
    first = pantry.update(make_view(msg_id="m-1"), {"items": parsed}, services)
    again = pantry.update(make_view(msg_id="m-1"), {"items": parsed}, services)
    assert first.data["applied"] and not again.data["applied"]
    pantry.update(make_view(msg_id="m-2"), {"items": "又买了6个鸡蛋"}, services)
    pantry.update(make_view(msg_id="m-2"), {"items": "又买了6个鸡蛋"}, services)  # a retried message
    with Session(services.db) as session:
        eggs = session.exec(select(PantryItem).where(PantryItem.name == "鸡蛋")).one()
        assert eggs.quantity == 12
    pantry.update(make_view(msg_id="m-3"), {"items": "西红柿用完了"}, services)
    shown = pantry.view_pantry(make_view(), {}, services)
    assert "鸡蛋 12个" in shown.reply and "番茄" not in shown.reply
    assert pantry.pantry_grams(services.db, "u1") == {"鸡蛋": 600.0}


def test_pantry_update_without_items(services: Services, make_view: View) -> None:
    result = pantry.update(make_view(), {"items": "今天天气不错"}, services)
    assert not result.ok


def test_profile_update_extractors_and_view(services: Services, make_view: View) -> None:
    action = profile.SPEC.actions[1]
    text = "我的目标是增肌，身高180，体重140斤，我在杭州"
    params = {s.name: s.extract(text) for s in action.slots if s.extract and s.extract(text) is not None}
    assert params == {"goal": "增肌", "height_cm": 180.0, "weight_kg": 70.0, "city": "杭州"}
    assert action.confirm_text is not None and "增肌" in action.confirm_text(params)
    result = profile.update(make_view(msg_id="x1"), params, services)
    assert result.ok and "BMI 21.6" in result.reply and result.facts["goal"] == "增肌"
    profile.update(make_view(msg_id="x2"), {"dislikes": ["香菜"]}, services)
    profile.update(make_view(msg_id="x2"), {"dislikes": ["香菜"]}, services)
    shown = profile.view_profile(make_view(), {}, services)
    assert "增肌" in shown.reply and "香菜" in shown.reply
    assert shown.dto == {"goal": "增肌", "height_cm": 180.0, "weight_kg": 70.0, "target_weight_kg": None, "city": "杭州",
                         "dislikes": ["香菜"], "allergies": [], "conditions": []}
    with Session(services.db) as session:
        assert session.exec(select(func.count()).select_from(AppliedWrite)).one() == 2
        assert session.exec(select(HealthProfile)).one().dislikes == ["香菜"]


def test_profile_goal_answer_is_normalised(services: Services, make_view: View) -> None:
    assert profile.normalise_update({"goal": "想减肥"}) == {"goal": "减脂"}
    assert profile.normalise_update({"goal": "身高一米七五"}) == {"height_cm": 175.0}
    empty = profile.update(make_view(), {}, services)
    assert not empty.ok
    assert "还没有设置" in profile.view_profile(make_view(user="u9"), {}, services).reply
