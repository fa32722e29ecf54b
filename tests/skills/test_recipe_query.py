"""recipe.query: search by name, alias, near miss, ingredient, category and constraint; scaling to servings."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from runtime.views import ExecView
from skills.cookbook.book import load_book
from skills.cookbook.search import clean_query, find
from skills.dinner import recipe_part, recipe_reply, recipes
from skills.services import Services

View = Callable[..., ExecView]


@pytest.mark.parametrize(("question", "name"), [
    ("可乐鸡翅怎么做", "可乐鸡翅"), ("西红柿炒鸡蛋的做法", "西红柿炒鸡蛋"), ("番茄炒蛋怎么做", "西红柿炒鸡蛋"),
    ("西红柿炒蛋怎么做", "西红柿炒鸡蛋"), ("教我做糖醋排骨", "糖醋排骨"), ("蒸蛋怎么做", "鸡蛋羹"),
    ("红烧肉怎么做才好吃", "简易红烧肉"), ("宫爆鸡丁怎么做", "宫保鸡丁"), ("鱼香肉丝", "鱼香肉丝"),
    ("拍黄瓜怎么做", "凉拌黄瓜"), ("土豆丝的做法", "酸辣土豆丝"),
])
def test_by_name_alias_and_near_miss(question: str, name: str) -> None:
    found = find(question)
    assert found.recipe is not None and found.recipe.name == name


def test_a_near_miss_says_the_corpus_name() -> None:
    found = find("宫爆鸡丁怎么做")
    assert found.notes and "宫保鸡丁" in found.notes[0]


def test_a_food_with_several_dishes_lists_them() -> None:
    found = find("你如何做螃蟹")
    assert found.recipe is None and len(found.options) >= 2
    assert all("蟹" in r.name for r in found.options)


@pytest.mark.parametrize(("question", "foods"), [
    ("鸡胸肉能做什么", ["鸡胸"]), ("冰箱里有土豆和鸡蛋能做啥", ["土豆", "鸡蛋"]), ("用豆腐可以做什么菜", ["豆腐"]),
])
def test_by_ingredient_every_option_uses_every_food(question: str, foods: list[str]) -> None:
    found = find(question)
    assert found.options and found.matched
    for recipe in found.options:
        assert all(recipe.uses(food) for food in foods), (recipe.name, foods)


def test_by_category_and_constraint() -> None:
    soups = find("来个简单的汤")
    assert soups.options and all(r.category == "汤" and (r.difficulty or 5) <= 2 for r in soups.options)
    quick = find("十分钟能做好的早餐")
    assert quick.options and all(r.category == "早餐" and (r.minutes or 99) <= 10 for r in quick.options)
    veg = find("推荐个素菜")
    assert veg.options and all(r.category == "素菜" for r in veg.options)


def test_unknown_dish_is_said_with_the_closest_few() -> None:
    found = find("怎样给宝宝做胡萝卜泥")
    assert found.recipe is None and not found.matched and "还没有" in found.heading
    assert found.options and any("胡萝卜" in r.name or r.uses("胡萝卜") for r in found.options)
    assert not find("佛跳墙怎么做").matched


@pytest.mark.parametrize("text", ["菜谱", "怎么做", "做饭"])
def test_no_dish_named_means_ask(text: str) -> None:
    assert recipes.extract_dish(text) is None and clean_query(text) in ("", "做饭")


def test_every_recipe_is_found_by_its_own_name() -> None:
    book = load_book()
    for recipe in book.recipes:
        found = find(f"{recipe.name}怎么做", book)
        assert found.recipe is recipe, recipe.name


def test_amounts_scale_to_the_people_eating() -> None:
    recipe = load_book().get("西红柿炒鸡蛋")
    assert recipe is not None and recipe.per_serving and recipe.servings == 1
    one, four = recipe_reply(recipe), recipe_reply(recipe, 4)
    assert "1人份" in one and "4人份" in four
    assert "鸡蛋 2个" in one and "鸡蛋 6个" in four  # 1.5 per serving, whole eggs
    assert "西红柿 4个" in four and "加入 4g 的盐" in four  # "1g * 份数" in a step, worked out


def test_a_recipe_for_a_whole_plate_is_not_scaled_but_says_so() -> None:
    recipe = load_book().get("可乐鸡翅")
    assert recipe is not None and not recipe.per_serving
    assert "原菜谱的量" in recipe_reply(recipe, 4) and "鸡翅 10～12只" in recipe_reply(recipe, 4)


@pytest.mark.parametrize(("text", "people"), [
    ("番茄炒蛋怎么做，4个人的量", 4), ("两人份的可乐鸡翅", 2), ("三口人吃的红烧肉怎么做", 3),
    ("5个鸡蛋能做什么", None), ("三杯鸡怎么做", None), ("要是做3杯呢", 3), ("做四碗的话", 4),
])
def test_people_in_the_question(text: str, people: int | None) -> None:
    assert recipes.extract_people(text) == people


def test_query_action_with_people_and_with_a_list(services: Services, make_view: View) -> None:
    params = {"dish": "番茄炒蛋怎么做", "people": 3}
    result = recipes.query(make_view(params), params, services)
    assert result.ok and result.data["dish"] == "西红柿炒鸡蛋" and result.data["servings"] == 3
    assert "番茄炒蛋" in result.reply and "3人份" in result.reply and "鸡蛋 5个" in result.reply
    listing = recipes.query(make_view(), {"dish": "鸡胸肉能做什么"}, services)
    assert listing.choices and listing.choices[0].intent == "recipe.query"
    assert listing.choices[0].params["dish"] == listing.data["options"][0]
    unknown = recipes.query(make_view(), {"dish": "佛跳墙怎么做"}, services)
    assert not unknown.ok and "还没有" in unknown.reply


def test_spec_declares_an_optional_people_slot() -> None:
    action = recipes.SPEC.actions[0]
    people = action.slot("people")
    assert people is not None and not people.required and people.parser == "count"


def test_a_part_of_a_recipe_asked_after_it() -> None:
    recipe = load_book().get("西红柿炒鸡蛋")
    assert recipe is not None and recipe.per_serving and recipe.minutes
    assert f"大约要{recipe.minutes}分钟" in recipe_part(recipe, None, "time")
    listed = recipe_part(recipe, 4, "ingredients")
    assert "4人份" in listed and "· 西红柿 4个" in listed and "做法" not in listed
    one = recipe_part(recipe, 4, "amount", "鸡蛋")
    assert one.startswith("【西红柿炒鸡蛋】（4人份）：鸡蛋 ") and "西红柿 " not in one
    assert "· 西红柿" in recipe_part(recipe, 4, "amount", "牛肉")  # not in it: every amount
