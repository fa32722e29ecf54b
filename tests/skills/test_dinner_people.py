"""Head counts and changes to them, said the everyday ways (runtime.parsers.people, the dinner's people slot)."""

from __future__ import annotations

import pytest

from runtime.parsers.people import parse_people, people_delta
from runtime.skill.parsers import parse_value

COUNTS = [
    ("3个大人1个小孩", 4), ("两个大人一个娃，一百块", 3), ("5个大人3个小孩，预算500", 8), ("一家五口", 5),
    ("我们两口子吃", 2), ("我们仨", 3), ("就我自己，二三十块", 1), ("我一个人", 1),
    ("请三个回民朋友吃饭，加我一共4个人", 4), ("四个同学来家里，算上我一共5个人", 5), ("三个朋友，加上我", 4),
    ("4个人吃饭，有个朋友不吃辣", 4), ("今晚5个同事来家里吃", 5), ("我们家仨加上客人俩", 5), ("6位", 6),
]


@pytest.mark.parametrize(("text", "count"), COUNTS)
def test_counts_said_in_everyday_ways(text: str, count: int) -> None:
    assert parse_people(text) == count
    assert parse_value("count", text) == count


@pytest.mark.parametrize("text", ["有个朋友不吃辣", "预算一百五", "便宜点"])
def test_no_count_is_made_up(text: str) -> None:
    assert parse_people(text) is None


def test_a_bare_number_counts_only_as_an_answer() -> None:
    assert parse_people("3", answer=True) == 3
    assert parse_people("就我自己", answer=True) == 1


DELTAS = [
    ("再加俩人", 2), ("哦忘了我爸妈也要过来，再加俩人", 2), ("我爸妈也要过来", 2), ("我弟一家三口也要过来", 3),
    ("朋友也要来", 1), ("少一个人", -1), ("多两个人", 2), ("再加3个人", 3), ("两个大人两个小孩也来", 4),
]


@pytest.mark.parametrize(("text", "delta"), DELTAS)
def test_changes_to_the_count(text: str, delta: int) -> None:
    assert people_delta(text) == delta


@pytest.mark.parametrize("text", ["便宜点", "再来个汤", "第二道怎么做"])
def test_no_change_is_made_up(text: str) -> None:
    assert people_delta(text) is None
