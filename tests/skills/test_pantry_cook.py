"""What can be cooked with what is at home: the follow-ups of the pantry that ask for it, and the dishes found."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from runtime.views import ExecView
from skills.dinner import cookable, kind_asked, recipes
from skills.pantry import skill as pantry
from skills.services import Services

View = Callable[..., ExecView]
UPDATE_FOLLOW_UPS, VIEW_FOLLOW_UPS = (next(a.follow for a in pantry.SPEC.actions if a.name == name)
                                      for name in ("update", "view"))
STOCK = [("番茄", "西红柿"), ("鸡蛋", "鸡蛋"), ("土豆", "土豆"), ("排骨", "排骨")]


def test_dishes_made_of_the_stock_come_first_and_every_item_is_used() -> None:
    found = cookable(STOCK)
    assert found[0].recipe.name == "西红柿炒鸡蛋" and found[0].uses == ("西红柿", "鸡蛋")
    assert {u for c in found for u in c.uses} == {"西红柿", "鸡蛋", "土豆", "排骨"}
    assert len(found) == 5 and all(c.recipe.category not in ("饮品", "酱料", "半成品") for c in found)


def test_a_product_of_a_food_is_not_the_food() -> None:
    only_tomato = cookable([("番茄", "西红柿")], limit=50)
    assert "醉排骨" not in [c.recipe.name for c in only_tomato]  # it has 番茄酱, not 西红柿


def test_a_kind_or_an_easy_dish_narrows_the_list() -> None:
    assert kind_asked("这几样能做个什么汤") == ("汤", False) and kind_asked("有简单点的菜吗") == (None, True)
    soups = cookable(STOCK, kind="汤")
    assert soups and all(c.recipe.category == "汤" for c in soups)
    easy = cookable(STOCK, easy=True)
    assert all((c.recipe.difficulty or 3) <= 2 for c in easy)


def test_the_items_just_named_come_first() -> None:
    found = cookable([("番茄", "西红柿"), ("排骨", "排骨")], first=["排骨"], limit=1)
    assert "排骨" in found[0].uses


@pytest.mark.parametrize("text", ["用这些能做什么菜", "这几样能凑一顿吗", "它们能做个啥", "拿这些东西能弄点啥吃的",
                                  "有这些可以炒个什么菜", "用这几样东西做顿晚饭行不行", "这些能做个什么汤", "用这些做个菜吧"])
def test_what_the_pantry_follow_ups_read_as_cooking_with_it(text: str) -> None:
    for follow in (VIEW_FOLLOW_UPS, UPDATE_FOLLOW_UPS):
        rule = next(m for m in follow.modifiers if m.name == "cook with these")
        m = rule.regex.search(text)
        assert m is not None, text
        built = rule.apply({}, m, None, {"ingredients": ["西红柿"]})
        assert built is not None and built["ingredients"] == ["西红柿"]
        assert recipes._HOME_FOODS.search(built["dish"]) and recipes._CAN_MAKE.search(built["dish"])


@pytest.mark.parametrize("text", ["西红柿还剩几个", "炒菜用了俩西红柿", "鸡蛋用完了"])
def test_other_follow_ups_are_not_cooking(text: str) -> None:
    rule = next(m for m in VIEW_FOLLOW_UPS.modifiers if m.name == "cook with these")
    assert rule.regex.search(text) is None


def test_the_answer_lists_the_dishes_with_the_users_words(services: Services, make_view: View) -> None:
    pantry.update(make_view(msg_id="m1"), {"items": "冰箱里有西红柿3个、洋芋2个"}, services)
    params = {"dish": "用冰箱里的这些能做什么", "ingredients": ["洋芋"]}
    result = recipes.query(make_view(params, msg_id="m2"), params, services)
    assert result.reply.startswith("家里的洋芋、西红柿，能做这些菜：")
    assert "用洋芋" in result.reply and "土豆、" not in result.reply and "番茄" not in result.reply.split("\n")[0]
    assert result.choices and [e.name for e in result.entities] == [c.label for c in result.choices]
    empty = recipes.query(make_view(params, user="u2", msg_id="m3"), params, services)
    assert not empty.ok and "冰箱里还没记东西" in empty.reply
