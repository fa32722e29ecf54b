"""One dish catalog: every dish the dinner planner can put on a menu is a recipe the recipe book explains.

"<dish>怎么做" opens that very recipe (not a near miss, not a list), under the name the plan shows and
under every other name the dinner data knows the dish by; the dish's ingredients are the recipe's, and
a dish the planner calls vegetarian has no meat or fish in its recipe.
"""

from __future__ import annotations

import json
import re

import pytest

from skills.cookbook.book import load_book
from skills.cookbook.catalog import CATALOG_PATH, Dish, load_catalog, parse_catalog
from skills.cookbook.search import find
from skills.dinner import plan_dto
from skills.dinner.planner import PlanRequest, plan_dinner

CATALOG = load_catalog()
BOOK = load_book()
RESTRICTIONS = ["香菜", "辣", "素食", "海鲜", "花生", "鸡蛋", "葱", "猪肉", "牛肉", "豆腐", "西红柿", "茄子", "鱼", "虾",
                "肉", "清真", "有人吃素", "2人吃素", "纯素", "大豆", "清淡", "芝麻", "羊肉"]
# words naming meat, poultry, fish or seafood in a recipe's ingredient lines (eggs and bouillon are not)
_ANIMAL = re.compile(r"肉|鸡|鸭|鹅|鱼|虾|蟹|蚝|贝|排骨|火腿|腊肠|培根|猪|牛|羊")
_NOT_ANIMAL = re.compile(r"鸡蛋|鸭蛋|鹌鹑蛋|鸡精|鸡粉|牛奶|肉桂")


def _dish_id(dish: Dish) -> str:
    return dish.name


@pytest.mark.parametrize("dish", CATALOG.dishes, ids=_dish_id)
def test_asking_how_to_cook_a_dish_opens_its_recipe(dish: Dish) -> None:
    recipe = BOOK.get(dish.recipe)
    assert recipe is not None and recipe.name == dish.recipe == dish.name
    found = find(dish.name + "怎么做")
    assert found.recipe is recipe, (found.recipe and found.recipe.name, [r.name for r in found.options])
    for alias in dish.aliases:  # the other names the dinner data knows it by open the same recipe
        found = find(alias + "怎么做")
        assert found.recipe is recipe, (alias, found.recipe and found.recipe.name)


@pytest.mark.parametrize("dish", CATALOG.dishes, ids=_dish_id)
def test_a_dish_is_made_of_what_its_recipe_uses(dish: Dish) -> None:
    recipe = BOOK.get(dish.name)
    assert recipe is not None
    steps = "".join(recipe.steps)
    for name in dish.ingredients_g:
        words = (name, *CATALOG.ingredients[name].aliases)
        assert any(recipe.uses(w) or w in steps for w in words), f"{dish.name}: {name} is not in the recipe"


@pytest.mark.parametrize("dish", [d for d in CATALOG.dishes if "vegetarian" in d.tags], ids=_dish_id)
def test_a_vegetarian_dish_has_no_meat_or_fish_in_its_recipe(dish: Dish) -> None:
    recipe = BOOK.get(dish.name)
    assert recipe is not None
    optional = [w for n in dish.optional for w in (n, *CATALOG.ingredients[n].aliases) if len(w) >= 2]
    for line in (*recipe.ingredients, *(q.name for q in recipe.quantities)):
        if not _ANIMAL.search(_NOT_ANIMAL.sub("", line)):
            continue
        left_out = any(w in line for w in dish.leaves_out) or any(w in line for w in optional)
        assert left_out, f"{dish.name}: the recipe uses {line}"


def test_a_catalog_with_a_dish_the_book_does_not_have_is_refused() -> None:
    raw = json.loads(CATALOG_PATH.read_text(encoding="utf-8"))
    raw["dishes"].append({"recipe": "杂粮饭", "category": "staple", "feeds": 1, "amounts_g": {"大米": 55, "小米": 30}})
    with pytest.raises(ValueError, match="杂粮饭"):
        parse_catalog(raw, BOOK)
    raw["dishes"][-1]["recipe"] = "番茄炒蛋"  # an alias is not the recipe's name
    with pytest.raises(ValueError, match="番茄炒蛋"):
        parse_catalog(raw, BOOK)


@pytest.mark.parametrize("words", [[], *([w] for w in RESTRICTIONS)], ids=lambda w: "+".join(w) or "none")
def test_every_dish_a_plan_shows_is_the_recipe_the_book_opens(words: list[str]) -> None:
    for people, budget in ((1, 30), (4, 4000), (20, 400), (20, 20000)):
        plan = plan_dinner(PlanRequest(people=people, budget=budget, exclusions=words))
        dto = plan_dto(plan)
        for item, shown in zip(plan.menu, dto["menu"], strict=True):
            found = find(item.name + "怎么做")
            assert found.recipe is not None and found.recipe.name == item.name, item.name
            assert shown["dish"] == shown["recipe"] == item.name


@pytest.mark.parametrize("dish", CATALOG.dishes, ids=_dish_id)
def test_a_serving_is_a_plausible_share_of_the_recipe(dish: Dish) -> None:
    """Energy a serving within what one person eats of such a dish (a wrong head count falls outside)."""
    low, high = {"staple": (100, 600), "protein": (100, 1000), "vegetable": (20, 700), "soup": (30, 500),
                 "dessert": (80, 600)}[dish.category]
    assert dish.feeds > 0 and dish.basis
    assert low <= dish.nutrition.kcal <= high, round(dish.nutrition.kcal)
    assert set(dish.ingredients_g) == set(dish.amounts_g)
