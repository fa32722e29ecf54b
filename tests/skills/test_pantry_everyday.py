"""The pantry in everyday words: amounts said by the dozen or roughly, what is at home asked in many ways,
one item asked after, and what a listing shows for follow-ups."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from runtime.views import ExecView
from skills.pantry import parse_pantry
from skills.pantry import skill as pantry
from skills.services import Services

View = Callable[..., ExecView]


@pytest.mark.parametrize(("text", "expected"), [
    ("冰箱里有俩西红柿、半斤五花肉、一打鸡蛋", [("番茄", "set", 2.0, "个"), ("五花肉", "set", 250.0, "克"), ("鸡蛋", "set", 12.0, "个")]),
    ("冰箱里有半打鸡蛋", [("鸡蛋", "set", 6.0, "个")]), ("刚买了两打鸡蛋", [("鸡蛋", "add", 24.0, "个")]),
    ("刚买了两斤排骨和仨土豆", [("排骨", "add", 1000.0, "克"), ("土豆", "add", 3.0, "个")]),
    ("土豆用了俩", [("土豆", "sub", 2.0, "个")]), ("冰箱里有十来个鸡蛋", [("鸡蛋", "set", 10.0, "个")]),
    ("鸡蛋还有3个", [("鸡蛋", "set", 3.0, "个")]), ("今天用掉了半斤五花肉", [("五花肉", "sub", 250.0, "克")]),
])
def test_amounts_said_every_day(text: str, expected: list[tuple[str, str, float, str]]) -> None:
    assert [(c["name"], c["op"], c["quantity"], c["unit"]) for c in parse_pantry(text)] == expected


def _routed(text: str) -> str | None:
    for trigger in sorted(pantry.SPEC.triggers, key=lambda t: t.order):
        if re.search(trigger.pattern, text) and not (trigger.unless and re.search(trigger.unless, text)):
            return trigger.intent
    return None


@pytest.mark.parametrize("text", ["冰箱里还剩啥", "家里有哪些菜", "看看我的库存", "我家冰箱都有啥", "食材还剩哪些", "查一下冰箱",
                                  "吃的还有啥", "鸡蛋还剩几个", "排骨还有多少"])
def test_asking_what_is_at_home(text: str) -> None:
    assert _routed(text) == "pantry.view"


@pytest.mark.parametrize("text", ["冰箱里有鸡蛋6个", "今天用掉了半斤五花肉", "土豆用了俩"])
def test_telling_what_is_at_home_is_an_update(text: str) -> None:
    assert _routed(text) == "pantry.update"


@pytest.mark.parametrize("text", ["冰箱里有土豆和鸡蛋能做啥", "家里有什么能做的菜", "今天跑了5公里"])
def test_other_questions_are_not_the_pantry(text: str) -> None:
    assert _routed(text) != "pantry.view"


def test_a_listing_shows_its_items_and_one_item_is_answered(services: Services, make_view: View) -> None:
    pantry.update(make_view(msg_id="p1"), {"items": parse_pantry("冰箱里有一打鸡蛋、两斤五花肉")}, services)
    listing = pantry.view_pantry(make_view(), {}, services)
    assert [(e.kind, e.name) for e in listing.entities] == [("ingredient", "五花肉"), ("ingredient", "鸡蛋")]
    assert "鸡蛋 12个" in listing.reply and "五花肉 2斤" in listing.reply
    assert pantry.view_pantry(make_view(), {"item": "鸡蛋"}, services).reply == "鸡蛋还有12个。"
    assert "没有排骨" in pantry.view_pantry(make_view(), {"item": "排骨"}, services).reply


def test_an_answer_naming_no_food_is_asked_again() -> None:
    slot = pantry.SPEC.actions[0].slot("items")
    assert slot is not None and slot.check is not None
    assert slot.check("看看我的库存") is not None and slot.check("鸡蛋6个") is None


def test_everything_used_up_at_once(services: Services, make_view: View) -> None:
    items = pantry.SPEC.actions[0].slot("items")
    assert items is not None and items.extract is not None
    cleared = items.extract("冰箱里的菜都吃完了")
    assert cleared == [{"name": pantry.EVERYTHING, "op": "set", "quantity": 0.0, "unit": ""}]
    assert items.extract("鸡蛋吃完了") == [{"name": "鸡蛋", "op": "set", "quantity": 0.0, "unit": "个"}]
    pantry.update(make_view(msg_id="c1"), {"items": parse_pantry("冰箱里有鸡蛋6个和两斤排骨")}, services)
    done = pantry.update(make_view(msg_id="c2"), {"items": cleared}, services)
    assert "冰箱清空" in done.reply and pantry.read_pantry(services.db, "u1") == []
    assert "都用完了" in pantry.view_pantry(make_view(), {}, services).reply
