"""The dinner planner: properties over random requests, and the cases people complained about."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skills.cookbook.catalog import load_catalog
from skills.dinner import Shape, format_plan, options_for, plan_dto, recipe_name
from skills.dinner.exclusions import allowed_ingredients, parse_exclusions
from skills.dinner.planner import (
    GENEROUS_PER_PERSON,
    Builder,
    DinnerPlan,
    PlanRequest,
    dish_counts,
    plan_dinner,
)

RESTRICTIONS = ["香菜", "辣", "素食", "海鲜", "花生", "鸡蛋", "葱", "猪肉", "牛肉", "豆腐", "西红柿", "茄子", "鱼", "虾",
                "肉", "清真", "芒果", "有人吃素", "2人吃素", "纯素", "大豆", "清淡"]
requests = st.builds(
    PlanRequest, people=st.integers(1, 12), budget=st.floats(10, 1000, allow_nan=False),
    exclusions=st.lists(st.sampled_from(RESTRICTIONS), max_size=3, unique=True))


def _dishes(plan: DinnerPlan) -> int:
    return sum(m.category in ("protein", "vegetable") for m in plan.menu)


def _cheapest_meal(req: PlanRequest) -> float:
    """The cheapest staple + one dish the restrictions allow (computed here, not by the planner's search)."""
    catalog = load_catalog()
    excl = parse_exclusions(req.exclusions, catalog)
    options = options_for(catalog, excl, None, {})
    builder = Builder(req, catalog)
    costs = [builder.cost({"staple": [s], c: [d]}) for s in options["staple"]
             for c in ("protein", "vegetable") for d in options[c]]
    return min(costs, default=float("inf"))


def _violations(plan: DinnerPlan, words: list[str]) -> list[str]:
    catalog = load_catalog()
    excl = parse_exclusions(words, catalog)
    bad = []
    for item in plan.menu:
        dish = catalog.dish(item.name)
        assert dish is not None
        if dish.tags & excl.tags:
            bad.append(item.name)
        bad.extend(f"{item.name}:{n}" for n in item.ingredients_g
                   if excl.excludes(n, catalog.ingredients[n].tags, catalog))
    return bad


def _mains(plan: DinnerPlan) -> list[frozenset[str]]:
    catalog = load_catalog()
    out = []
    for item in plan.menu:
        dish = catalog.dish(item.name)
        assert dish is not None
        out.append(frozenset(n for n in dish.mains(catalog) if n in item.ingredients_g))
    return out


@settings(max_examples=100, deadline=None)
@given(req=requests)
def test_plan_properties(req: PlanRequest) -> None:
    plan = plan_dinner(req)
    # never over a budget that can be met; never claims to fit when it does not
    if _cheapest_meal(req) <= req.budget:
        assert plan.within_budget and plan.total <= req.budget + 1e-9
    if plan.within_budget:
        assert plan.total <= req.budget + 1e-9
    # never a restricted ingredient, nor one derived from it (花生 → 花生油, 花生酱)
    assert _violations(plan, list(req.exclusions)) == []
    # no main ingredient twice
    mains = _mains(plan)
    for i, a in enumerate(mains):
        for b in mains[i + 1:]:
            assert not a & b, (a, b)
    # an ample budget is used: at least half of it, up to a generous amount a head or, when the
    # restrictions leave only cheap dishes, up to the richest menu they allow
    if plan.menu and req.budget >= plan.full_menu_cost:
        richest = plan_dinner(PlanRequest(req.people, 1_000_000.0, req.exclusions)).total
        ceiling = min(req.budget, GENEROUS_PER_PERSON * req.people, richest)
        assert plan.total >= 0.5 * ceiling - 1e-6, (plan.total, ceiling, plan.upgrades)
    # one staple; totals add up; units consistent: 个 only for eggs, one weight unit per list
    assert sum(m.category == "staple" for m in plan.menu) <= 1
    assert plan.total == pytest.approx(sum(i.price for i in plan.shopping.items), abs=0.01)
    text = format_plan(plan)
    units = set(re.findall(r"\d(克|斤)", "\n".join(x for x in text.splitlines() if x.startswith("· ") and "¥" in x)))
    assert len(units) <= 1
    for item in plan.shopping.items:
        assert (item.pieces is not None) == ("蛋" in item.name)


@settings(max_examples=40, deadline=None)
@given(people=st.integers(1, 11), words=st.lists(st.sampled_from(RESTRICTIONS), max_size=2, unique=True))
def test_dish_count_grows_with_people(people: int, words: list[str]) -> None:
    small = plan_dinner(PlanRequest(people=people, budget=40.0 * people, exclusions=words))
    big = plan_dinner(PlanRequest(people=people + 1, budget=40.0 * (people + 1), exclusions=words))
    assert _dishes(big) >= _dishes(small)


def test_dish_counts_follow_the_head_count() -> None:
    counts = [sum(dish_counts(n)[:2]) for n in range(1, 13)]
    assert counts == sorted(counts) and counts[0] == 2 and counts[3] == 4 and counts[11] == 12
    assert dish_counts(1)[2] == 0 and all(dish_counts(n)[2] == 1 for n in range(2, 13))


@pytest.mark.parametrize(("people", "budget"), [(4, 200), (6, 300), (10, 500)])
def test_an_ample_budget_is_used_and_the_reply_says_why(people: int, budget: float) -> None:
    plan = plan_dinner(PlanRequest(people=people, budget=budget))
    assert budget / 2 <= plan.total <= budget
    assert _dishes(plan) >= people and any(m.category == "soup" for m in plan.menu)
    text = format_plan(plan)
    assert "预算比较充足" in text and "合计约¥" in text


def test_a_huge_budget_is_not_spent_for_its_own_sake() -> None:
    plan = plan_dinner(PlanRequest(people=1, budget=1000))
    assert plan.within_budget and plan.total <= GENEROUS_PER_PERSON
    assert "不必把预算花满" in format_plan(plan)


def test_one_vegetarian_guest_gets_vegetarian_dishes_not_a_meat_free_table() -> None:
    plan = plan_dinner(PlanRequest(people=4, budget=150, exclusions=["有人吃素"]))
    catalog = load_catalog()
    tags = [catalog.dish(m.name).tags for m in plan.menu]  # type: ignore[union-attr]
    assert any("meat" in t or "fish" in t or "seafood" in t for t in tags)
    veg = [m for m in plan.menu if m.vegetarian and m.category in ("protein", "vegetable")]
    assert len(veg) >= 2 and any(m.category == "protein" for m in veg)
    for item in veg:  # served to them as vegetarian: no spoon of 蚝油 either
        assert not [n for n in item.ingredients_g if catalog.ingredients[n].tags & {"meat", "fish", "seafood", "shellfish"}]
    text = format_plan(plan)
    assert "给吃素的朋友准备了" in text and "已避开" not in text and "素食" not in text


def test_no_spice_and_nothing_restricted_are_said_plainly() -> None:
    plan = plan_dinner(PlanRequest(people=3, budget=80, exclusions=["辣", "香菜"]))
    catalog = load_catalog()
    assert all("spicy" not in catalog.dish(m.name).tags for m in plan.menu)  # type: ignore[union-attr]
    text = format_plan(plan)
    assert "按不吃辣安排" in text and "不用香菜" in text
    none = plan_dinner(PlanRequest(people=3, budget=80, exclusions=["没啥忌口"]))
    assert none.exclusions.empty and "没啥" not in format_plan(none) and "已避开" not in format_plan(none)


@pytest.mark.parametrize("words", [["猪肉"], ["不吃猪肉"], ["清真"]])
def test_no_pork_rules_out_every_pork_dish(words: list[str]) -> None:
    catalog = load_catalog()
    excl = parse_exclusions(words, catalog)
    pork = [d.name for d in catalog.dishes if "pork" in d.tags]
    assert pork and all(allowed_ingredients(catalog.dish(n), excl, catalog) is None for n in pork)  # type: ignore[arg-type]
    plan = plan_dinner(PlanRequest(people=12, budget=300, exclusions=words))
    assert plan.menu and not [m.name for m in plan.menu if m.name in pork]
    assert "猪肉" in format_plan(plan)


def test_an_allergy_excludes_derived_ingredients_and_says_so() -> None:
    catalog = load_catalog()
    excl = parse_exclusions(["花生"], catalog)
    for name in ("花生米", "花生油", "花生酱"):
        assert excl.excludes(name, catalog.ingredients[name].tags, catalog), name
    plan = plan_dinner(PlanRequest(people=2, budget=60, exclusions=["花生"]))
    assert not {"花生米", "花生油", "花生酱"} & plan.used_ingredients()
    text = format_plan(plan)
    assert "不用花生" in text and "花生油" in text
    mango = parse_exclusions(["芒果"], catalog)
    assert "芒果" in mango.words and "不用芒果" in format_plan(plan_dinner(PlanRequest(2, 60, ["芒果"])))


def test_no_ingredient_leads_two_dishes_and_eggs_are_counted() -> None:
    for people in range(1, 13):
        plan = plan_dinner(PlanRequest(people=people, budget=30.0 * people))
        egg_dishes = [m.name for m in plan.menu if m.ingredients_g.get("鸡蛋", 0) >= 20]
        assert len(egg_dishes) <= 1, egg_dishes
        tomato = [m.name for m in plan.menu if m.ingredients_g.get("番茄", 0) >= 20]
        assert len(tomato) <= 1, tomato


def test_impossible_budget_is_flagged_with_cheapest_plan() -> None:
    plan = plan_dinner(PlanRequest(people=10, budget=5))
    assert not plan.within_budget and plan.total > 5 and plan.menu
    assert "超出" in format_plan(plan)


def test_tight_budget_drops_the_soup_then_dishes_but_fits() -> None:
    roomy = plan_dinner(PlanRequest(people=6, budget=300))
    tight = plan_dinner(PlanRequest(people=6, budget=25))
    assert tight.within_budget and tight.total <= 25
    assert _dishes(tight) <= _dishes(roomy)


def test_quantities_scale_with_people() -> None:
    grams = []
    for people in (2, 5, 9):
        plan = plan_dinner(PlanRequest(people=people, budget=10.0 * people))  # no extra dishes
        servings: dict[str, float] = {}
        for item in plan.menu:
            servings[item.category] = servings.get(item.category, 0) + item.servings
        for total in servings.values():
            assert total == pytest.approx(people, abs=0.02 * people)
        rich = plan_dinner(PlanRequest(people=people, budget=10_000))  # extra dishes add food, never less
        for category in ("staple", "protein", "vegetable"):
            assert sum(m.servings for m in rich.menu if m.category == category) >= people - 0.02 * people
        grams.append(sum(g for m in plan.menu for g in m.ingredients_g.values()))
    assert grams == sorted(grams)


def test_pantry_is_used_first() -> None:
    pantry = {"鸡蛋": 600.0, "番茄": 900.0}
    plan = plan_dinner(PlanRequest(people=2, budget=60, pantry_g=pantry))
    used = dict(plan.shopping.from_pantry)
    assert used and set(used) <= set(pantry) and "西红柿炒鸡蛋" in [m.name for m in plan.menu]


def test_goal_changes_portions() -> None:
    lean = plan_dinner(PlanRequest(people=2, budget=60, goal="减脂"))
    bulk = plan_dinner(PlanRequest(people=2, budget=60, goal="增肌"))
    assert bulk.nutrition_per_person.protein > lean.nutrition_per_person.protein


def test_optional_garnish_is_dropped_not_the_dish() -> None:
    catalog = load_catalog()
    dish = catalog.dish("皮蛋豆腐")
    assert dish is not None and "香菜" in dish.ingredients_g and "香菜" in dish.optional
    kept = allowed_ingredients(dish, parse_exclusions(["不吃香菜"], catalog), catalog)
    assert kept is not None and "香菜" not in kept and "豆腐" in kept


def test_plan_is_deterministic_and_dto_is_trimmed() -> None:
    req = PlanRequest(people=4, budget=120, exclusions=["海鲜"])
    assert plan_dto(plan_dinner(req)) == plan_dto(plan_dinner(req))
    dto = plan_dto(plan_dinner(req))
    assert set(dto) >= {"menu", "shopping_list", "total", "within_budget", "nutrition_per_person"}
    assert not [k for k in dto if k == "id" or k.endswith("_id") or k.endswith("_at")]


def test_people_out_of_range_raises() -> None:
    with pytest.raises(ValueError):
        plan_dinner(PlanRequest(people=0, budget=50))


def test_shape_type_is_exported() -> None:
    assert Shape(1, 1, 0).dishes == 2


def test_planner_dishes_link_to_corpus_recipes() -> None:
    catalog = load_catalog()
    assert all(recipe_name(d.name) == d.name for d in catalog.dishes)  # a dish is called by its recipe's name
    assert recipe_name("番茄炒蛋") == "西红柿炒鸡蛋" and recipe_name("拍黄瓜") == "凉拌黄瓜"  # and known by others
    dto = plan_dto(plan_dinner(PlanRequest(people=2, budget=40)))
    assert all(m["recipe"] == m["dish"] for m in dto["menu"])
