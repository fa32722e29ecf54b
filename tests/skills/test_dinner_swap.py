"""Swapping a dish of a plan just shown for a dish the user names: how the words are read, what the planner
does with the swap (the dish asked for in the other's place, everything else kept), and the questions asked
when the words leave something open."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest

from runtime.skill import Entity
from runtime.views import ExecView
from skills.dinner import SWAP_FOR_NAMED, dishes_meant
from skills.dinner import skill as dinner
from skills.dinner.planner import PlanRequest, plan_dinner
from skills.services import Services

View = Callable[..., ExecView]
MENU = [["电饭煲蒸米饭", "staple"], ["白灼虾", "protein"], ["萝卜炖羊排", "protein"], ["炒青菜", "vegetable"],
        ["黄瓜皮蛋汤", "soup"]]
PLAN = {"people": 3, "budget": 120.0, "dietary": []}


def _read(text: str, picked: Entity | None = None, params: Mapping[str, Any] = PLAN) -> Mapping[str, Any] | None:
    m = SWAP_FOR_NAMED.regex.search(text)
    return SWAP_FOR_NAMED.apply(params, m, picked, {"menu": MENU}) if m else None


@pytest.mark.parametrize(("text", "swap"), [
    ("把汤换成紫菜蛋花汤", ["黄瓜皮蛋汤", "紫菜蛋花汤"]),
    ("青菜换成蚝油生菜吧", ["炒青菜", "蚝油生菜"]),
    ("不要白灼虾了，来个可乐鸡翅", ["白灼虾", "可乐鸡翅"]),
    ("羊排那个改成红烧鱼", ["萝卜炖羊排", "红烧鱼"]),
    ("那个虾不要了 换个油焖大虾", ["白灼虾", "油焖大虾"]),
    ("能不能把炒青菜换成地三鲜呀", ["炒青菜", "地三鲜"]),
    ("用鱼香茄子替换炒青菜", ["炒青菜", "鱼香茄子"]),
    ("米饭换成葱油拌面", ["电饭煲蒸米饭", "葱油拌面"]),
])
def test_a_dish_of_the_plan_swapped_for_a_named_one(text: str, swap: list[str]) -> None:
    read = _read(text)
    assert read is not None and read["swaps"] == [swap] and read["people"] == 3 and "swap_ask" not in read


def test_the_second_one_is_the_dish_shown_second() -> None:
    read = _read("第二个换成麻婆豆腐", Entity("dish", "萝卜炖羊排"))
    assert read is not None and read["swaps"] == [["萝卜炖羊排", "麻婆豆腐"]]


def test_earlier_swaps_are_kept() -> None:
    read = _read("把汤换成紫菜蛋花汤", params={**PLAN, "swaps": [["炒青菜", "地三鲜"]]})
    assert read is not None and read["swaps"] == [["炒青菜", "地三鲜"], ["黄瓜皮蛋汤", "紫菜蛋花汤"]]


@pytest.mark.parametrize("text", ["预算改成两百", "换成便宜点的", "不要香菜，再来个汤", "猪肉换成牛肉", "把人数改成五个",
                                  "不要辣的，换成清淡的"])
def test_other_changes_of_the_plan_are_not_swaps(text: str) -> None:
    assert _read(text) is None


def test_what_is_left_open_becomes_a_question() -> None:
    which = _read("肉菜换成可乐鸡翅")
    assert which is not None and which["swap_ask"] == {"why": "which", "in": "可乐鸡翅", "said": "肉菜",
                                                       "out": ["白灼虾", "萝卜炖羊排"]}
    unknown = _read("把汤换成佛跳墙")
    assert unknown is not None and unknown["swap_ask"]["why"] == "unknown" and unknown["swap_ask"]["out"] == ["黄瓜皮蛋汤"]
    already = _read("青菜换成白灼虾")
    assert already is not None and already["swap_ask"]["why"] == "already"


def test_the_dish_meant_by_a_word_a_kind_or_a_place() -> None:
    menu = [(n, c) for n, c in MENU]
    assert dishes_meant("鱼", [*menu, ("清蒸鲈鱼", "protein")], None) == ["清蒸鲈鱼"]
    assert dishes_meant("汤", menu, None) == ["黄瓜皮蛋汤"]
    assert dishes_meant("荤菜", menu, None) == ["白灼虾", "萝卜炖羊排"]
    assert dishes_meant("第一道", menu, Entity("dish", "白灼虾")) == ["白灼虾"]
    assert dishes_meant("烤鸭", menu, None) == []


def _names(params: Mapping[str, Any]) -> list[str]:
    req = PlanRequest(**params)
    return [m.name for m in plan_dinner(req).menu]


def test_the_planner_puts_the_dish_in_the_others_place_and_keeps_the_rest() -> None:
    before = _names({"people": 3, "budget": 120.0})
    after = plan_dinner(PlanRequest(people=3, budget=120.0, swaps=(("黄瓜皮蛋汤", "紫菜蛋花汤"),)))
    names = [m.name for m in after.menu]
    assert "黄瓜皮蛋汤" in before and names == [("紫菜蛋花汤" if n == "黄瓜皮蛋汤" else n) for n in before]
    assert after.swapped == (("黄瓜皮蛋汤", "紫菜蛋花汤"),) and after.within_budget
    assert any(i.name == "紫菜" for i in after.shopping.items)  # the shopping list follows


def test_a_dish_of_another_kind_and_a_tight_budget() -> None:
    soup_out = plan_dinner(PlanRequest(people=2, budget=60.0, swaps=(("黄瓜皮蛋汤", "可乐鸡翅"),)))
    kinds = [m.category for m in soup_out.menu]
    assert "可乐鸡翅" in [m.name for m in soup_out.menu] and "soup" not in kinds
    tight = plan_dinner(PlanRequest(people=2, budget=30.0, swaps=(("", "油焖大虾"),)))
    assert "油焖大虾" in [m.name for m in tight.menu]  # what was asked for stays when the rest gets cheaper


def test_a_dish_the_restrictions_rule_out_is_refused(services: Services, make_view: View) -> None:
    asked = {"people": 5, "budget": 200.0, "dietary": ["不吃辣"], "swaps": [["黄瓜皮蛋汤", "宫保鸡丁"]]}
    result = dinner.plan(make_view(asked), asked, services)
    assert not result.ok and "宫保鸡丁不合这顿的忌口（不吃辣）" in result.reply and "【菜单】" not in result.reply
    assert result.choices and all(c.params["swaps"][-1][0] == "黄瓜皮蛋汤" for c in result.choices)
    assert "宫保鸡丁" not in [c.label for c in result.choices]


def test_the_questions_carry_the_whole_plan(services: Services, make_view: View) -> None:
    base = {**PLAN, "extra": ["soup"], "swaps": [["炒青菜", "地三鲜"]]}
    which = {**base, "swap_ask": {"why": "which", "in": "可乐鸡翅", "out": ["白灼虾", "萝卜炖羊排"]}}
    result = dinner.plan(make_view(which), which, services)
    assert not result.ok and result.reply.startswith("想把哪道换成可乐鸡翅？")
    second = result.choices[1].params
    assert second["swaps"] == [["炒青菜", "地三鲜"], ["萝卜炖羊排", "可乐鸡翅"]] and second["extra"] == ["soup"]
    assert "swap_ask" not in second
    unknown = {**base, "swap_ask": {"why": "unknown", "in": "佛跳墙", "out": ["黄瓜皮蛋汤"], "kind": "soup",
                                    "menu": [n for n, _ in MENU]}}
    offered = dinner.plan(make_view(unknown), unknown, services)
    assert "“佛跳墙”我排不进菜单" in offered.reply and offered.choices
    assert all(c.params["swaps"][-1][0] == "黄瓜皮蛋汤" and c.label not in ("黄瓜皮蛋汤",) for c in offered.choices)


@pytest.mark.parametrize(("text", "swap"), [("把汤换紫菜蛋花汤", ["黄瓜皮蛋汤", "紫菜蛋花汤"]),
                                            ("来个可乐鸡翅代替白灼虾吧", ["白灼虾", "可乐鸡翅"])])
def test_more_ways_of_saying_it(text: str, swap: list[str]) -> None:
    read = _read(text)
    assert read is not None and read["swaps"] == [swap]


@pytest.mark.parametrize("text", ["汤换一下", "汤换掉", "把汤换了吧", "汤换成别的吧"])
def test_a_swap_without_a_named_dish_is_the_plain_swaps(text: str) -> None:
    assert _read(text) is None
