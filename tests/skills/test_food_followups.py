"""Food follow-ups in everyday words: changes of the head count said as arrivals and departures, the
shopping list asked for many ways, which dishes of a menu have a quality, a recipe asked for by how easy it
is, a plan said with a bare total ("一共6个"), a what-to-cook question that needs the words before it, and
a pantry item asked after by its short name or with the item last."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from runtime.parsers.people import PEOPLE_DELTA, people_delta
from runtime.skill import Question
from runtime.views import ExecView
from skills.dinner import dishes_with
from skills.dinner import recipes as recipe_skill
from skills.dinner import skill as dinner
from skills.pantry import parse_pantry
from skills.pantry import skill as pantry
from skills.services import Services

View = Callable[..., ExecView]


@pytest.mark.parametrize(("text", "delta"), [
    ("临时又加了两位朋友", 2), ("又来了三个同事", 3), ("多出来一位", 1), ("人又多来了仨", 3), ("再来两个朋友", 2),
    ("一个同事来不成了", -1), ("少来了一个人", -1), ("他们走了俩", -2), ("三个人晚上有事不来了", -3),
    ("有俩亲戚去不了", -2),
])
def test_arrivals_and_departures_change_the_count(text: str, delta: int) -> None:
    assert people_delta(text) == delta
    assert re.search(PEOPLE_DELTA, text) is not None  # the words a follow-up accounts for


@pytest.mark.parametrize("text", ["多少人吃饭", "至少三个人", "再加两个", "人不多", "来两个菜", "好多人"])
def test_no_change_of_the_count_is_made_up(text: str) -> None:
    assert people_delta(text) is None


def _question(name: str) -> Question:
    found = next(q for q in dinner.SPEC.actions[0].follow.questions if q.name == name)
    assert isinstance(found, Question)
    return found


@pytest.mark.parametrize("text", ["采购单发我一下", "列个购物清单", "该买的东西都报给我", "需要采购的食材", "把清单给我看看",
                                  "要买的列一下"])
def test_the_shopping_list_asked_for_in_everyday_words(text: str) -> None:
    said = "".join(m.group(0) for m in _question("shopping list").regex.finditer(text))
    assert len(said) >= len(text) - 1


@pytest.mark.parametrize("text", ["哪几道是荤的", "汤是哪个", "有辣椒的是哪几道", "哪个菜里有鸡翅", "凉菜有哪些"])
def test_which_dishes_have_a_quality_is_a_question_about_the_menu(text: str) -> None:
    m = _question("which dishes have a quality").regex.search(text)
    assert m is not None and m.group(0) == text


def test_which_dishes_of_a_menu_have_a_quality() -> None:
    menu = ["电饭煲蒸米饭", "可乐鸡翅", "炒青菜", "黄瓜皮蛋汤"]
    assert dishes_with(menu, "素菜") == ["炒青菜", "黄瓜皮蛋汤"]
    assert dishes_with(menu, "荤的") == ["可乐鸡翅"]
    assert dishes_with(menu, "汤") == ["黄瓜皮蛋汤"]
    assert dishes_with(menu, "鸡翅") == ["可乐鸡翅"]
    assert dishes_with(menu, "辣的") == []
    assert dishes_with(menu, "明天") is None  # names no quality: not a question about the menu


def _routed(triggers: tuple, text: str) -> str | None:
    for trigger in sorted(triggers, key=lambda t: t.order):
        if re.search(trigger.pattern, text) and not (trigger.unless and re.search(trigger.unless, text)):
            return str(trigger.name)
    return None


@pytest.mark.parametrize("text", ["有没有容易点的", "推荐几个好做的菜", "来个省事的", "给我找点新手能做的菜谱"])
def test_a_recipe_asked_for_by_how_easy_it_is(text: str) -> None:
    assert _routed(dinner.SPEC.triggers, text) in ("recipe.browse", "recipe.query")


@pytest.mark.parametrize("text", ["下周六家里聚餐 总共6个 人均五十", "加上我一共5个 预算两百"])
def test_a_plan_said_with_a_bare_total(text: str) -> None:
    assert _routed(dinner.SPEC.triggers, text) in ("dinner.values", "dinner.plan")


def test_what_to_cook_naming_nothing_needs_the_words_before_it() -> None:
    assert recipe_skill.extract_dish("能做啥菜") is None
    assert recipe_skill.extract_dish("可以做点什么吃的") is None
    assert recipe_skill.extract_dish("土豆能做啥") == "土豆能做啥"


@pytest.mark.parametrize(("text", "routed"), [("还剩几个蛋", "pantry.view.item_last"), ("还有多少五花肉", "pantry.view.item_last"),
                                              ("还有几个小时下班", None), ("还有多少天过年", None), ("还有几个提醒", None),
                                              ("还有几个没做", None)])
def test_how_much_is_left_with_the_item_last(text: str, routed: str | None) -> None:
    found = _routed(pantry.SPEC.triggers, text)
    assert found == routed or (routed is None and found is not None and not found.startswith("pantry.view"))


def test_an_item_asked_after_by_its_short_name(services: Services, make_view: View) -> None:
    pantry.update(make_view(msg_id="s1"), {"items": parse_pantry("冰箱里有8个鸡蛋、3个鸭蛋、一斤五花肉")}, services)
    assert pantry.view_pantry(make_view(), {"item": "鸡蛋"}, services).reply == "鸡蛋还有8个。"
    both = pantry.view_pantry(make_view(), {"item": "蛋"}, services).reply
    assert "鸡蛋还有8个" in both and "鸭蛋还有3个" in both
    assert pantry.view_pantry(make_view(), {"item": "肉"}, services).reply == "五花肉还有1斤。"
    assert "没有牛奶" in pantry.view_pantry(make_view(), {"item": "牛奶"}, services).reply


def test_an_answer_naming_only_foods_finds_dishes_made_with_them(services: Services, make_view: View) -> None:
    found = recipe_skill.query(make_view(), {"dish": "土豆和牛肉"}, services)
    assert found.reply.startswith("用土豆和牛肉可以做") and found.entities


def test_a_restriction_said_after_a_list_of_dishes_takes_out_what_it_rules_out(services: Services,
                                                                                make_view: View) -> None:
    listed = recipe_skill.query(make_view(), {"dish": "土豆能做什么"}, services)
    kept = recipe_skill.query(make_view(), {"dish": "土豆能做什么", "avoid": ["辣"]}, services)
    assert "酸辣土豆丝" in listed.reply and "酸辣土豆丝" not in kept.reply
    assert kept.entities and all("辣" not in e.name for e in kept.entities) and "已去掉" in kept.reply
