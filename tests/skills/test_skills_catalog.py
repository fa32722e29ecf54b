"""The recipe catalog as data: size, categories, consistency of nutrition and tags, sources."""

from __future__ import annotations

from pathlib import Path

import pytest

from skills.cookbook.catalog import CATEGORIES, Dish, load_catalog


def test_catalog_has_enough_dishes_of_every_category() -> None:
    catalog = load_catalog()
    assert len(catalog.dishes) >= 40
    for category in CATEGORIES:  # desserts come only when asked for: a couple to choose from is enough
        assert sum(d.category == category for d in catalog.dishes) >= (2 if category == "dessert" else 5), category
    assert len({d.name for d in catalog.dishes}) == len(catalog.dishes)


@pytest.mark.parametrize("dish", load_catalog().dishes, ids=lambda d: d.name)
def test_dish_nutrition_matches_its_ingredients(dish: Dish) -> None:
    catalog = load_catalog()
    d = catalog.dish(dish.name)
    assert d is dish and d.ingredients_g
    for name, grams in d.amounts_g.items():  # a serving is the recipe's amounts shared by the people they feed
        assert d.ingredients_g[name] == pytest.approx(grams / d.feeds, abs=0.06), name  # to 0.1 g
    kcal = sum(catalog.ingredients[n].per_100g.kcal * g / 100 for n, g in d.ingredients_g.items())
    assert d.nutrition.kcal == pytest.approx(kcal, abs=1)
    assert d.nutrition.kcal > 0


def test_allergen_tags_follow_required_ingredients() -> None:
    catalog = load_catalog()
    for dish in catalog.dishes:
        for name in set(dish.ingredients_g) - dish.optional:
            for tag in catalog.ingredients[name].tags & {"egg", "peanut", "seafood", "fish", "milk", "meat"}:
                assert tag in dish.tags, (dish.name, name, tag)
        assert ("vegetarian" in dish.tags) == (not dish.tags & {"meat", "fish", "seafood"}), dish.name


def test_prices_and_sources_are_present() -> None:
    catalog = load_catalog()
    assert all(i.price_per_500g > 0 for i in catalog.ingredients.values())
    sources = (Path(__file__).parents[2] / "skills" / "cookbook" / "SOURCES.md").read_text(encoding="utf-8")
    assert "中国食物成分表" in sources and "estimate" in sources


def test_lookup_by_alias() -> None:
    catalog = load_catalog()
    assert catalog.canonical("西红柿") == "番茄"
    found = catalog.find_dish("番茄炒蛋怎么做")
    assert found is not None and found.name == "西红柿炒鸡蛋"
