"""Things the catalog does not know are kept under the name said when they are counted with a unit; the
question of how many of one thing are left is asked with any unit."""

from __future__ import annotations

import re

import pytest

from skills.pantry import parse_pantry
from skills.pantry import skill as pantry

_VIEW = next(a for a in pantry.SPEC.actions if a.name == "view")
_ITEM_SLOT = _VIEW.slot("item")


def test_an_unknown_thing_counted_with_a_unit_is_kept_as_said() -> None:
    found = parse_pantry("家里还有两包挂面和三瓶老干妈")
    assert [(c["name"], c["quantity"], c["unit"]) for c in found] == [("挂面", 2.0, "包"), ("老干妈", 3.0, "瓶")]


@pytest.mark.parametrize("text", ["冰箱里有5块钱", "用了俩小时"])
def test_money_or_time_is_no_thing(text: str) -> None:
    assert parse_pantry(text) == []


_ITEM = next(t for t in pantry.SPEC.triggers if t.name == "pantry.view.item")


def extract_item(text: str) -> str | None:
    assert _ITEM_SLOT is not None and _ITEM_SLOT.extract is not None
    found = _ITEM_SLOT.extract(text)
    return str(found) if found is not None else None


@pytest.mark.parametrize(("text", "item"), [("豆腐几块来着", "豆腐"), ("鸡蛋还剩几个", "鸡蛋"), ("挂面还有几包", "挂面")])
def test_how_many_are_left_with_any_unit(text: str, item: str) -> None:
    assert re.search(_ITEM.pattern, text) and not re.search(_ITEM.unless or "$^", text)
    assert extract_item(text) == item


@pytest.mark.parametrize("text", ["今天几个人吃饭", "要买几斤排骨"])
def test_other_questions_of_how_many_are_not_about_the_pantry(text: str) -> None:
    assert not re.search(_ITEM.pattern, text) or re.search(_ITEM.unless or "$^", text)
