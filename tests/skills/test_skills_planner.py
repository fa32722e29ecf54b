"""The dinner planner: budget honesty, exclusions, scaling, pantry first — unit and property tests."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skills.dinner._format import format_plan, plan_dto
from skills.dinner.catalog import load_catalog
from skills.dinner.exclusions import allowed_ingredients, parse_exclusions
from skills.dinner.planner import DinnerPlan, PlanRequest, dish_counts, plan_dinner

EXCLUSION_WORDS = ["香菜", "辣", "素食", "海鲜", "花生", "鸡蛋", "葱", "猪肉", "牛肉", "豆腐", "西红柿", "茄子",
                   "鱼", "虾", "不吃肉", "清真"]


def _forbidden(plan: DinnerPlan, words: list[str]) -> list[str]:
    catalog = load_catalog()
    excl = parse_exclusions(words, catalog)
    bad = []
    for item in plan.menu:
        dish = catalog.dish(item.name)
        assert dish is not None
        for name in item.ingredients_g:
            ing = catalog.ingredients[name]
            if name in excl.ingredients or ing.tags & excl.tags:
                bad.append(f"{item.name}:{name}")
        if dish.tags & excl.tags:
            bad.append(item.name)
    return bad


@settings(max_examples=60, deadline=None)
@given(people=st.integers(1, 20), budget=st.floats(5, 600, allow_nan=False),
       words=st.lists(st.sampled_from(EXCLUSION_WORDS), max_size=3, unique=True),
       goal=st.sampled_from([None, "减脂", "增肌", "控糖"]))
def test_plan_properties(people: int, budget: float, words: list[str], goal: str | None) -> None:
    plan = plan_dinner(PlanRequest(people=people, budget=budget, exclusions=words, goal=goal))
    # never claims to fit when it does not
    if plan.within_budget:
        assert plan.total <= budget
    else:
        assert plan.total > budget or not plan.menu
    assert _forbidden(plan, words) == []
    assert plan.total == pytest.approx(sum(i.price for i in plan.shopping.items), abs=0.01)
    staple = [m for m in plan.menu if m.category == "staple"]
    assert len(staple) <= 1
    text = format_plan(plan)
    if plan.menu and not plan.within_budget:
        assert "不太够" in text


@settings(max_examples=30, deadline=None)
@given(people=st.integers(1, 19), words=st.lists(st.sampled_from(EXCLUSION_WORDS), max_size=2, unique=True))
def test_quantities_scale_with_people(people: int, words: list[str]) -> None:
    rich = 10_000.0
    small = plan_dinner(PlanRequest(people=people, budget=rich, exclusions=words))
    big = plan_dinner(PlanRequest(people=people + 1, budget=rich, exclusions=words))
    for plan, n in ((small, people), (big, people + 1)):
        servings: dict[str, float] = {}
        for item in plan.menu:
            servings[item.category] = servings.get(item.category, 0) + item.servings
        for category, total in servings.items():
            assert total == pytest.approx(n, abs=0.02 * n), category
    grams = [sum(g for m in p.menu for g in m.ingredients_g.values()) for p in (small, big)]
    assert grams[1] > grams[0]


def test_dish_count_grows_with_people() -> None:
    counts = [sum(dish_counts(n)) for n in range(1, 21)]
    assert counts == sorted(counts) and counts[0] == 2 and counts[-1] >= 8


def test_menu_is_balanced_and_fits_a_normal_budget() -> None:
    plan = plan_dinner(PlanRequest(people=3, budget=80, exclusions=["不吃辣", "香菜"]))
    categories = [m.category for m in plan.menu]
    assert categories.count("staple") == 1 and "protein" in categories and "vegetable" in categories
    assert plan.within_budget and plan.total <= 80
    assert "辣" in plan.exclusions.labels and "香菜" in plan.exclusions.labels
    text = format_plan(plan)
    assert "【菜单】" in text and "【购物清单】" in text and "¥" in text and "每人约" in text


def test_impossible_budget_is_flagged_with_cheapest_plan() -> None:
    plan = plan_dinner(PlanRequest(people=10, budget=5))
    assert not plan.within_budget and plan.total > 5 and plan.menu
    richer = plan_dinner(PlanRequest(people=10, budget=500))
    assert plan.total < richer.total
    assert "超出" in format_plan(plan)


def test_pantry_is_used_first_and_subtracted() -> None:
    without = plan_dinner(PlanRequest(people=2, budget=60))
    pantry = {"鸡蛋": 600.0, "番茄": 900.0}
    with_pantry = plan_dinner(PlanRequest(people=2, budget=60, pantry_g=pantry))
    used = dict(with_pantry.shopping.from_pantry)
    assert used and set(used) <= set(pantry)
    assert all(i.name not in used or i.grams > 0 for i in with_pantry.shopping.items)
    assert "番茄炒蛋" in [m.name for m in with_pantry.menu]
    assert with_pantry.total <= without.total + 10


def test_goal_changes_portions() -> None:
    lean = plan_dinner(PlanRequest(people=2, budget=200, goal="减脂"))
    bulk = plan_dinner(PlanRequest(people=2, budget=200, goal="增肌"))
    assert lean.nutrition_per_person.kcal < bulk.nutrition_per_person.kcal
    assert bulk.nutrition_per_person.protein > lean.nutrition_per_person.protein
    sugar = plan_dinner(PlanRequest(people=2, budget=200, goal="控糖"))
    assert all("sugary" not in (load_catalog().dish(m.name) or lean).tags  # type: ignore[union-attr]
               for m in sugar.menu)


def test_optional_garnish_is_dropped_not_the_dish() -> None:
    catalog = load_catalog()
    dish = catalog.dish("拍黄瓜")
    assert dish is not None
    kept = allowed_ingredients(dish, parse_exclusions(["不吃香菜"], catalog), catalog)
    assert kept is not None and "香菜" not in kept and "黄瓜" in kept
    assert allowed_ingredients(catalog.dish("宫保鸡丁"), parse_exclusions(["花生过敏"], catalog),  # type: ignore[arg-type]
                               catalog) is None


def test_plan_is_deterministic_and_dto_is_trimmed() -> None:
    req = PlanRequest(people=4, budget=120, exclusions=["海鲜"])
    assert plan_dto(plan_dinner(req)) == plan_dto(plan_dinner(req))
    dto = plan_dto(plan_dinner(req))
    assert set(dto) >= {"menu", "shopping_list", "total", "within_budget", "nutrition_per_person"}
    assert not [k for k in dto if k == "id" or k.endswith("_id") or k.endswith("_at")]


def test_people_out_of_range_raises() -> None:
    with pytest.raises(ValueError):
        plan_dinner(PlanRequest(people=0, budget=50))
