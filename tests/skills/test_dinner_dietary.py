"""The dinner skill's first-message restriction extractor agrees with the answer parser, item for item."""

from __future__ import annotations

import pytest

from runtime.parsers.slots import parse_text_list
from skills.dinner import extract_dietary
from skills.dinner.skill import SPEC

# (what the restriction clause says, the items) — said as an answer or inside a first message
TABLE = [
    ("有个朋友芒果过敏", ["芒果"]), ("不吃辣", ["辣"]), ("有人吃素", ["有人吃素"]), ("两个人吃素", ["2人吃素"]),
    ("我们都吃素", ["素食"]), ("孩子对花生过敏", ["花生"]), ("不吃辣也不吃香菜", ["辣", "香菜"]),
    ("没啥忌口", []), ("没有忌口", []), ("啥都吃", []), ("一个朋友吃素", ["有人吃素"]), ("朋友吃全素", ["有人吃纯素"]),
    ("她不吃牛肉", ["牛肉"]), ("小孩不能吃辣", ["辣"]), ("我妹妹对螃蟹过敏", ["螃蟹"]), ("不吃香菜不吃葱", ["香菜", "葱"]),
]


@pytest.mark.parametrize(("clause", "items"), TABLE)
def test_answer_and_first_message_give_the_same_items(clause: str, items: list[str]) -> None:
    assert parse_text_list(clause, True) == items
    assert extract_dietary(clause) == items
    assert extract_dietary(f"今晚4个人吃饭，预算150，{clause}") == items


@pytest.mark.parametrize("text", ["3个人预算80帮我安排晚饭", "今晚吃什么", "4个人，百来块"])
def test_a_message_without_restrictions_leaves_the_slot_to_ask(text: str) -> None:
    assert extract_dietary(text) is None


def test_the_dietary_slot_uses_the_extractor() -> None:
    slot = SPEC.actions[0].slot("dietary")
    assert slot is not None and slot.extract is extract_dietary and slot.ask_once and not slot.required


@pytest.mark.parametrize("text", ["请三个回民朋友吃饭，4个人，预算250", "有两个穆斯林同事，预算200", "一位是回族"])
def test_who_the_guests_are_says_what_they_do_not_eat(text: str) -> None:
    assert extract_dietary(text) == ["清真"]


@pytest.mark.parametrize("text", ["有没有羊肉的菜", "我的资料你都记了些啥", "能不能做鱼"])
def test_a_question_is_no_restriction(text: str) -> None:
    assert parse_text_list(text, True) is None


@pytest.mark.parametrize("text", ["大人都行", "我们都可以", "啥都能吃"])
def test_everyone_fine_is_no_restriction(text: str) -> None:
    assert parse_text_list(text, True) == []
