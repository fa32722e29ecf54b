"""Table-driven tests of the slot value parsers (answer=True: the whole message answers a question)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runtime.parsers.numbers import approximate_numerals, normalize_numerals
from runtime.parsers.slots import (
    PARSERS,
    parse_choice,
    parse_count,
    parse_distance,
    parse_duration,
    parse_height,
    parse_money,
    parse_text_list,
    parse_weight,
    parse_yes_no,
)


def _table(parser: Any, rows: list[tuple[str, bool, Any]]) -> Any:
    return pytest.mark.parametrize(("text", "answer", "expected"), rows,
                                   ids=[f"{parser.__name__}:{t}:{'ans' if a else 'free'}" for t, a, _ in rows])


COUNTS = [
    ("三个", True, 3), ("3个人", True, 3), ("3个人", False, 3), ("两位", True, 2), ("两位", False, 2),
    ("俩", True, 2), ("仨", True, 3), ("一家四口", False, 4), ("就我自己", True, 1), ("一个人", True, 1),
    ("3", True, 3), ("3", False, None), ("我们三个人吃", False, 3), ("十个人", True, 10),
    ("二十个人", True, 20), ("十二个人", True, 12), ("五六个人", True, 6), ("两三个人", False, 3),
    ("3个大人2个小孩", False, 5), ("两个大人一个孩子", True, 3), ("４个人", True, 4), ("随便", True, None),
    # said roughly, or by the dozen
    ("十来个", True, 10), ("十来个人吃饭", False, 10), ("二十多个", False, 25), ("一打", True, 12), ("半打", False, 6),
    ("就我们仨", True, 3), ("我们俩", False, 2),
]


@_table(parse_count, COUNTS)
def test_count(text: str, answer: bool, expected: int | None) -> None:
    assert parse_count(text, answer) == expected


MONEY = [
    ("80元", False, 80.0), ("一百块", False, 100.0), ("预算一百左右", False, 100.0), ("100块钱以内", False, 100.0),
    ("¥80", False, 80.0), ("￥80", True, 80.0), ("两百块", False, 200.0), ("1,200元", False, 1200.0),
    ("一千二百块", True, 1200.0), ("八十块钱", False, 80.0), ("预算200", False, 200.0), ("80", True, 80.0),
    ("80", False, None), ("一百五", True, 150.0), ("大概一百吧", True, 100.0), ("不知道", True, None),
    # the phrases people use for a rough budget
    ("百来块", False, 100.0), ("百来块", True, 100.0), ("两百来块", False, 200.0), ("百八十块", False, 100.0),
    ("一百出头", True, 110.0), ("一百出头", False, 110.0), ("两百以内", False, 200.0), ("两百以内", True, 200.0),
    ("三五十块", False, 40.0), ("三五十", True, 40.0), ("两三百", True, 250.0), ("一两百块", False, 150.0),
    ("100左右", False, 100.0), ("100左右", True, 100.0), ("一百多块", False, 120.0), ("五十多块钱", False, 60.0),
    ("100-150元", False, 125.0), ("1.5k", True, 1500.0), ("2百", True, 200.0), ("千把块", False, 1000.0),
    ("今晚4个人吃饭，预算150，有个朋友芒果过敏", False, 150.0), ("4个人100左右", False, 100.0),
    # per person: the skill multiplies by the head count
    ("人均30", False, "人均30"), ("人均30", True, "人均30"), ("人均三十块", True, "人均30"),
    ("每人50", False, "人均50"), ("30块一个人", False, "人均30"), ("4个人，每人五十", False, "人均50"),
    # not money
    ("3个人", True, None), ("十来个人吃饭", False, None), ("今晚7点左右4个人吃饭", False, None),
    ("预算4个人", False, None), ("10点多", False, None), ("5公斤", True, None),
]


@_table(parse_money, MONEY)
def test_money(text: str, answer: bool, expected: float | str | None) -> None:
    assert parse_money(text, answer) == expected


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="一二两三四五六七八九十百千万来多出头以内左右人均每块元¥,.-0123456789个吃 ", max_size=16),
       st.booleans())
def test_money_never_raises_and_is_positive_or_per_person(text: str, answer: bool) -> None:
    value = parse_money(text, answer)
    assert value is None or (isinstance(value, float) and value >= 0) or str(value).startswith("人均")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_text_list_never_raises(text: str) -> None:
    value = parse_text_list(text, True)
    assert value is None or all(isinstance(x, str) and x for x in value)


YES_NO = [
    ("是", True), ("是的", True), ("好的", True), ("好啊", True), ("可以的", True), ("确认", True),
    ("对的！", True), ("嗯", True), ("嗯嗯", True), ("没问题", True), ("没错", True), ("OK", True), ("行", True),
    ("不", False), ("不是", False), ("不用了", False), ("否", False), ("不要", False), ("算了", False),
    ("算了吧", False), ("别", False), ("no", False), ("明天吧", None), ("三个人", None),
]


@pytest.mark.parametrize(("text", "expected"), YES_NO)
def test_yes_no(text: str, expected: bool | None) -> None:
    assert parse_yes_no(text, True) is expected


OPTIONS = ("清淡的", "辣的", "甜的")
CHOICES = [("1", 1), ("第二个", 2), ("选3", 3), ("2号", 2), ("二", 2), ("第三种", 3), ("后面那个", 3),
           ("最后一个", 3), ("前面那个", 1), ("辣的", 2), ("第1个。", 1), ("随便聊聊", None)]


@pytest.mark.parametrize(("text", "expected"), CHOICES)
def test_choice(text: str, expected: int | None) -> None:
    assert parse_choice(text, True, OPTIONS) == expected


def test_relative_choice_needs_options() -> None:
    assert parse_choice("后面那个", True, ()) is None


TEXT_LISTS = [
    ("不吃香菜", ["香菜"]), ("不要辣", ["辣"]), ("素食", ["素食"]), ("我吃素", ["素食"]), ("都行", []),
    ("没有", []), ("没有忌口", []), ("无", []), ("不吃香菜和葱", ["香菜", "葱"]), ("香菜、辣", ["香菜", "辣"]),
    ("不吃香菜，不要辣", ["香菜", "辣"]), ("对花生过敏", ["花生"]), ("我不吃辣", ["辣"]),
    ("我们不吃辣的", ["辣"]), ("不吃牛肉也不吃羊肉", ["牛肉", "羊肉"]), ("", None),
    # "nothing" in its many forms is an answer, not an item
    ("没啥忌口", []), ("没什么忌口", []), ("啥都吃", []), ("都可以", []), ("没有别的忌口", []),
    ("不吃辣，没有别的忌口", ["辣"]), ("能吃辣", []),
    # spicy
    ("怕辣", ["辣"]), ("不能吃辣的", ["辣"]), ("吃不了辣", ["辣"]), ("不太能吃辣", ["辣"]), ("不辣", ["辣"]),
    # allergies: the eater is dropped, every food kept
    ("有个朋友芒果过敏", ["芒果"]), ("孩子对鸡蛋过敏", ["鸡蛋"]), ("对花生和芒果过敏", ["花生", "芒果"]),
    ("海鲜过敏", ["海鲜"]),
    # vegetarians: everyone, or only some of the table
    ("我们都吃素", ["素食"]), ("全家吃素", ["素食"]), ("纯素", ["纯素"]), ("有人吃素", ["有人吃素"]),
    ("有个朋友吃素", ["有人吃素"]), ("一个朋友吃素", ["有人吃素"]), ("有一位客人吃素", ["有人吃素"]),
    ("两个人吃素", ["2人吃素"]), ("我和老婆吃素", ["2人吃素"]), ("朋友吃全素", ["有人吃纯素"]),
    ("不吃辣，有人吃素，花生过敏", ["辣", "有人吃素", "花生"]), ("嗯嗯", None),
]


@pytest.mark.parametrize(("text", "expected"), TEXT_LISTS)
def test_text_list(text: str, expected: list[str] | None) -> None:
    assert parse_text_list(text, True) == expected


DURATIONS = [
    ("30分钟", False, 30.0), ("半小时", False, 30.0), ("半个小时", False, 30.0), ("一刻钟", False, 15.0),
    ("三刻钟", False, 45.0), ("一个半小时", False, 90.0), ("1.5小时", False, 90.0), ("2小时20分", False, 140.0),
    ("两个小时", False, 120.0), ("一个钟头", False, 60.0), ("45min", False, 45.0), ("40", True, 40.0),
    ("40", False, None), ("很久", True, None),
    # said roughly: about, a little over, a range, "an hour or so"
    ("半个钟头左右", True, 30.0), ("半个钟头左右", False, 30.0), ("四十来分钟", True, 40.0), ("十来分钟", False, 10.0),
    ("二十多分钟", False, 25.0), ("个把小时", True, 60.0), ("一个多小时", False, 75.0), ("两个多钟头", True, 135.0),
    ("一个半钟头", False, 90.0), ("四五十分钟", True, 45.0), ("大概40分钟吧", True, 40.0), ("5公里", True, None),
    # about N hours counted with 个: 一个来小时, 三个来钟头
    ("一个来小时", False, 60.0), ("三个来钟头", True, 180.0), ("骑了两个来钟头的车", False, 120.0),
    # a decimal said in words; 个钟 (Cantonese and southern Mandarin) is an hour
    ("一点五个小时", False, 90.0), ("两点五小时", False, 150.0), ("踢了两个钟", False, 120.0), ("个半钟", True, 90.0),
]


@_table(parse_duration, DURATIONS)
def test_duration(text: str, answer: bool, expected: float | None) -> None:
    assert parse_duration(text, answer) == expected


DISTANCES = [("5公里", 5.0), ("五公里", 5.0), ("3千米", 3.0), ("10km", 10.0), ("跑了5k", 5.0), ("5.5公里", 5.5),
             ("800米", 0.8), ("10米", None), ("5kg", None), ("很远", None),
             ("五公里多一点", 5.0), ("十来公里", 10.0), ("三四公里", 3.5), ("一公里半", 1.5), ("两千米", 2.0),
             ("跑了个半马", 21.1), ("40分钟", None), ("走了三点五公里", 3.5), ("骑了十二点八公里", 12.8)]


@pytest.mark.parametrize(("text", "expected"), DISTANCES)
def test_distance(text: str, expected: float | None) -> None:
    assert parse_distance(text, False) == expected


@pytest.mark.parametrize(("text", "expected"), [("6", 6.0), ("大概8公里", 8.0), ("五六公里吧", 5.5), ("40分钟", None)])
def test_distance_as_an_answer(text: str, expected: float | None) -> None:
    assert parse_distance(text, True) == expected


HEIGHTS = [("身高180", False, 180.0), ("175cm", False, 175.0), ("1米8", False, 180.0), ("一米七五", False, 175.0),
           ("1.75米", False, 175.0), ("1米75", False, 175.0), ("165公分", False, 165.0), ("170", True, 170.0),
           ("170", False, None), ("身高999", False, None), ("一米七二", False, 172.0), ("一米七五左右", True, 175.0),
           ("一米八几", False, 185.0)]


@_table(parse_height, HEIGHTS)
def test_height(text: str, answer: bool, expected: float | None) -> None:
    assert parse_height(text, answer) == expected


WEIGHTS = [("70公斤", False, 70.0), ("70kg", False, 70.0), ("140斤", False, 70.0), ("一百四十斤", False, 70.0),
           ("体重65", False, 65.0), ("65.5公斤", False, 65.5), ("65", True, 65.0), ("65", False, None),
           ("5公斤", False, None), ("一百三十斤", False, 65.0), ("一百三十来斤", True, 65.0), ("130多斤", False, 67.5),
           ("体重更新为70", False, 70.0), ("体重130", False, 65.0), ("130", True, 130.0), ("六十五公斤左右", True, 65.0), ("身高170", True, None),
           # a decimal said in words, wherever a number is read
           ("体重改为六十八点五", False, 68.5), ("五十九点二公斤", False, 59.2), ("一百二十五点六斤", False, 62.8),
           ("大概是六十三点四吧", True, 63.4)]


@_table(parse_weight, WEIGHTS)
def test_weight(text: str, answer: bool, expected: float | None) -> None:
    assert parse_weight(text, answer) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("三个人", "3个人"), ("一百块", "100块"), ("五六个", "5-6个"), ("１２３", "123"), ("没有数字", "没有数字"),
    ("六十六点三", "66.3"), ("二十点零五块", "20.05块"), ("一点五个小时", "1.5个小时"),
    # clock times and counts are no decimals
    ("五点四十五", "5点45"), ("八点五分", "8点5分"), ("两点一刻", "2点1刻"), ("三点半", "3点半"), ("一点三个人", "1点3个人"),
])
def test_normalize_numerals(text: str, expected: str) -> None:
    assert normalize_numerals(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("四十来分钟", "40分钟"), ("二十多个", "25个"), ("130多斤", "135斤"), ("个把小时", "1小时"), ("一打鸡蛋", "12个鸡蛋"),
    ("半打鸡蛋", "6个鸡蛋"), ("四五十分钟", "40-50分钟"), ("一公里半", "1.5公里"), ("打了两小时球", "打了2小时球"),
    ("五点四十五", "5点45"), ("十来点", "10来点"), ("一个来小时", "1个小时"), ("两个来月", "2个月"),
    ("跑了三个来回", "跑了3个来回"),
])
def test_approximate_numerals(text: str, expected: str) -> None:
    assert approximate_numerals(text) == expected


def test_every_slot_type_has_a_parser() -> None:
    from runtime.skill import SlotType

    missing = {str(t) for t in SlotType} - set(PARSERS) - {"time", "choice"}
    assert not missing
