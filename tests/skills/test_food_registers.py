"""Food requests in the registers people type, understood at first contact: the head count as it now stands
after a change, "nothing" said the everyday ways, who at the table may eat which dish, another recipe or a new
table, easy dishes for a beginner, a dish asked for with what goes in it, the pantry read and used up in
everyday and Cantonese words. Each class is held to several phrasings of its own."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from runtime.parsers.dietary import parse_restrictions
from runtime.parsers.people import PEOPLE_TOTAL, parse_people, people_delta, people_total
from runtime.skill.parsers import ANOTHER
from runtime.understand.lexicon import operations, yes_no
from runtime.understand.normalise import Normaliser
from runtime.views import ExecView
from skills.cookbook.book import load_book
from skills.cookbook.catalog import load_catalog
from skills.cookbook.search import find, like
from skills.dinner import SWAP_FOR_NAMED
from skills.dinner import recipes as recipe_skill
from skills.dinner import skill as dinner
from skills.pantry import extract_item, parse_pantry
from skills.pantry import skill as pantry
from skills.services import Services

View = Callable[..., ExecView]
FOLLOW_UPS = dinner.SPEC.actions[0].follow
FIT_FOR = next(q.pattern for q in FOLLOW_UPS.questions if q.name == "which dishes someone may eat")
RECIPE_FOLLOW_UPS = recipe_skill.SPEC.actions[0].follow
_NORMALISE = Normaliser([])


def mandarin(text: str) -> str:
    """The message as the normaliser reads it: 繁體 as 简体, written Cantonese as Mandarin."""
    return _NORMALISE(text).text


def _modifier(name: str) -> re.Pattern[str]:
    return next(m.regex for m in FOLLOW_UPS.modifiers if m.name == name)


# -- the head count as it stands after a change -------------------------------------------------------------
@pytest.mark.parametrize(("text", "total"), [
    ("又来了仨，现在是九个人了", 9), ("临时有两个不来咯 剩四个", 4), ("那就改成五位吧", 5), ("总共十个了", 10),
    ("变成七口人啦", 7), (mandarin("有兩個走咗 而家得返三個"), 3), ("算上我一共六个", 6),
])
def test_the_count_said_as_it_now_stands_wins(text: str, total: int) -> None:
    assert people_total(text) == total
    assert parse_people(text) == total
    assert re.search(PEOPLE_TOTAL, text) is not None


@pytest.mark.parametrize(("text", "delta"), [
    (mandarin("有個同事嚟唔到"), -1), ("他俩先撤了", -2), ("又来了两个楼下的", 2), ("隔壁那个不来了", -1),
    ("表妹她们三个来不了", -3), ("有个邻居不来咯", -1),
])
def test_arrivals_and_departures_in_everyday_words(text: str, delta: int) -> None:
    assert people_delta(text) == delta


@pytest.mark.parametrize("text", ["三个大人两个小孩", "预算改成两百", "剩下的钱买水果", "第二道菜换掉"])
def test_no_new_total_is_made_up(text: str) -> None:
    assert people_total(text) is None


def test_money_said_in_cantonese_dollars() -> None:
    assert mandarin("兩百蚊") == "两百块"
    assert mandarin("一百八十蚊 唔食辣") == "一百八十块 不吃辣"
    assert mandarin("蚊子好多") == "蚊子好多"  # a mosquito is no money


# -- "nothing" said the everyday ways ------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["啥都能吃哈", "木有忌口", "百无禁忌的", "大家都不挑嘴", "随便弄就行", "你看着安排吧",
                                  "家常菜就行", "没有没有", "冇忌口", "没得啥忌口", "都OK的"])
def test_no_restriction_said_many_ways(text: str) -> None:
    assert parse_restrictions(mandarin(text)) == []


@pytest.mark.parametrize(("text", "items"), [("不吃辣", ["辣"]), ("有个朋友吃素", ["有人吃素"]), ("没有香菜就行", None)])
def test_a_restriction_is_still_a_restriction(text: str, items: list[str] | None) -> None:
    found = parse_restrictions(text)
    assert found == items or (items is None and found != [])


# -- who at the table may eat which dish ---------------------------------------------------------------------
@pytest.mark.parametrize("text", ["小姨能吃的有哪几道", "哪几个菜我妈能吃", "哪些菜适合孩子", "老人家可以吃哪些",
                                  "那哪几道外婆也能吃"])
def test_which_dishes_someone_may_eat_is_a_question_about_the_menu(text: str) -> None:
    assert re.search(FIT_FOR, text) is not None


@pytest.mark.parametrize("text", ["哪几道是素的", "我们能吃饱吗", "谁来吃饭"])
def test_other_questions_are_not_about_someone(text: str) -> None:
    m = re.search(FIT_FOR, text)
    assert m is None or dinner.SPEC.actions[0].follow.questions[-1].apply(
        {"people": 4, "budget": 100}, m, None, {"menu": [["炒青菜", "vegetable"]]}) is None


def test_which_dishes_a_vegetarian_guest_may_eat(services: Services, make_view: View) -> None:
    asked = dinner.plan(make_view(), {"people": 4, "budget": 150, "dietary": ["有人吃素"], "show": "which",
                                      "which": "小姨能吃"}, services)
    planned = dinner.plan(make_view(), {"people": 4, "budget": 150, "dietary": ["有人吃素"]}, services)
    veg = [line[2:] for line in asked.reply.splitlines() if line.startswith("· ")]
    assert asked.reply.startswith("小姨吃素的话") and veg
    assert all(name in planned.reply for name in veg)
    assert "萝卜炖羊排" not in veg and "白灼虾" not in veg


def test_every_dish_when_the_restrictions_hold_for_the_whole_table(services: Services, make_view: View) -> None:
    asked = dinner.plan(make_view(), {"people": 3, "budget": 120, "dietary": ["花生"], "show": "which",
                                      "which": "孩子能吃"}, services)
    assert "孩子都能吃" in asked.reply and "花生" in asked.reply


# -- another recipe, a new table, a dish for a quality -------------------------------------------------------
@pytest.mark.parametrize("text", ["换一个吧", "再给我个别的", "还有别的吗", "换一批", "来点不一样的", "有没有其他的",
                                  "这个不喜欢", "那换个试试"])
def test_another_one_in_everyday_words(text: str) -> None:
    assert re.search(ANOTHER, text) is not None


@pytest.mark.parametrize("text", ["换成鱼", "再来个汤", "第二道怎么做", "换个时间"])
def test_not_another_one(text: str) -> None:
    m = re.search(ANOTHER, text)
    assert m is None or m.group(0) != text


def test_another_recipe_leaves_out_what_was_shown(services: Services, make_view: View) -> None:
    listed = recipe_skill.query(make_view(), {"dish": "茄子能做啥"}, services)
    shown = [e.name for e in listed.entities]
    picked = recipe_skill.query(make_view(), {"dish": shown[0], "query": "茄子能做啥", "seen": shown}, services)
    nxt = recipe_skill.query(make_view(), {"dish": "茄子能做啥", "seen": [*shown], "one": True}, services)
    assert picked.reply.startswith(f"【{shown[0]}】")
    assert nxt.entities and nxt.entities[0].name not in shown and "茄子" in nxt.reply
    assert nxt.reply.startswith("【")


def test_another_like_a_recipe_asked_by_name() -> None:
    question = like("糖醋排骨")
    found = find(question, skip=["糖醋排骨"])
    assert "排骨" in question and found.options
    assert all(r.name != "糖醋排骨" and r.uses("排骨") for r in found.options)


@pytest.mark.parametrize("text", ["再换一桌吧", "换一套菜单", "整桌都换了", "来个不一样的菜单", "还有别的搭配吗"])
def test_a_whole_new_table(text: str) -> None:
    assert _modifier("a new table").search(text) is not None


@pytest.mark.parametrize("text", ["那大后天的呢", "明天的话呢", "周六的怎么安排", "下周一再来一桌", "那周五呢"])
def test_the_same_table_for_another_day(text: str) -> None:
    assert _modifier("another day").search(text) is not None


@pytest.mark.parametrize("text", ["有羊肉的都换了", "第一道换掉", "换个菜"])
def test_a_change_of_one_dish_is_no_new_table(text: str) -> None:
    assert _modifier("a new table").search(text) is None


def test_a_new_table_has_none_of_the_dishes_shown(services: Services, make_view: View) -> None:
    first = dinner.plan(make_view(), {"people": 4, "budget": 200}, services)
    rule = next(m for m in FOLLOW_UPS.modifiers if m.name == "another day")
    m = rule.regex.search("那大后天呢")
    assert m is not None
    params = rule.apply({"people": 4, "budget": 200}, m, None, first.shown)
    assert params is not None and params["day"] == "大后天"
    again = dinner.plan(make_view(), params, services)
    dishes = {e.name for e in first.entities if not e.attrs.get("minor")}
    assert again.reply.startswith("大后天（12月5日）") and not dishes & {e.name for e in again.entities}


@pytest.mark.parametrize(("said", "test"), [("素的", lambda d: "vegetarian" in d.tags), ("荤菜", lambda d: "vegetarian" not in d.tags),
                                            ("带豆腐的", lambda d: "豆腐" in d.ingredients_g)])
def test_a_dish_swapped_for_one_of_a_quality(services: Services, make_view: View, said: str,
                                             test: Callable[..., bool]) -> None:
    first = dinner.plan(make_view(), {"people": 4, "budget": 200}, services)
    dishes = [e for e in first.entities if not e.attrs.get("minor")]
    text = f"把第二个换成{said}"
    m = SWAP_FOR_NAMED.regex.search(text)
    assert m is not None
    params = SWAP_FOR_NAMED.apply({"people": 4, "budget": 200}, m, dishes[1], first.shown)
    assert params is not None
    (out, into), = params["swaps"]
    assert out == dishes[1].name and into not in {e.name for e in first.entities}
    assert test(next(d for d in load_catalog().dishes if d.name == into))


# -- easy dishes for a beginner, a dish asked for with what goes in it ---------------------------------------
@pytest.mark.parametrize("text", ["厨房小白求几个好做的菜", "刚学做饭 有啥不难的菜", "手残党能做的菜有吗", "第一次做菜 教我个简单点的",
                                  "不会做饭 来个不复杂的菜谱"])
def test_easy_dishes_for_a_beginner(text: str) -> None:
    found = find(text)
    assert found.options and all((r.difficulty or 5) <= 2 for r in found.options)
    assert all(r.category in ("荤菜", "素菜", "水产", "汤") for r in found.options)
    routed = [t for t in sorted(dinner.SPEC.triggers + recipe_skill.SPEC.triggers, key=lambda t: t.order)
              if re.search(t.pattern, text) and not (t.unless and re.search(t.unless, text))]
    assert routed and routed[0].intent == "recipe.query"


@pytest.mark.parametrize(("text", "foods", "kind"), [
    ("想喝牛肉汤 最好加点土豆的", ["牛肉", "土豆"], "汤"), ("来个带鸡蛋的汤", ["鸡蛋"], "汤"),
    ("做个有豆腐的素菜", ["豆腐"], "素菜"), ("有没有加了土豆的牛肉菜", ["土豆", "牛肉"], None),
    ("想喝汤，加山药的那种", ["山药"], "汤"),
])
def test_a_dish_asked_for_with_what_goes_in_it(text: str, foods: list[str], kind: str | None) -> None:
    found = find(text)
    recipes = [found.recipe] if found.recipe is not None else list(found.options)
    assert recipes
    assert all(all(r.uses(f) for f in foods) and (kind is None or r.category == kind) for r in recipes)


def test_a_food_said_without_is_left_out() -> None:
    found = find("不放葱花的鸡蛋汤，不要番茄的")
    assert found.options and not any(r.uses("番茄") for r in found.options)


def test_what_to_cook_with_one_food_easy_ones_first() -> None:
    found = find("冰箱就剩几个茄子 能整点啥 要容易做的")
    easy = [r for r in load_book().recipes if r.uses("茄子") and (r.difficulty or 5) <= 2]
    assert found.options and "茄子了" not in found.heading
    assert [r.name for r in found.options][:len(easy)] == [r.name for r in easy][:len(found.options)]


# -- the pantry, read and used up ----------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "item"), [("西红柿还剩几个来着", "西红柿"), ("牛奶还有几盒来着呢", "牛奶"),
                                            ("豆腐剩几块了来着", "豆腐"), ("还有几根黄瓜来着", "黄瓜"), ("粉丝还有几把了", "粉丝")])
def test_an_item_asked_after_with_a_particle_at_the_end(text: str, item: str) -> None:
    assert extract_item(text) == item


@pytest.mark.parametrize(("text", "name"), [("牛奶喝光了", "牛奶"), ("酸奶一盒都没有了", "酸奶"), ("挂面吃完了", "挂面"),
                                            ("啤酒都喝完了", "啤酒"), ("果汁全喝光了 一滴不剩", "果汁")])
def test_an_item_used_up_in_everyday_words(text: str, name: str) -> None:
    changes = parse_pantry(text)
    assert [(c["name"], c["quantity"]) for c in changes] == [(name, 0.0)]


@pytest.mark.parametrize("text", ["冰箱里的东西都吃完了", "家里的菜全吃光了", "我吃完了"])
def test_the_whole_store_or_nobody_is_no_item(text: str) -> None:
    assert parse_pantry(text) == []


@pytest.mark.parametrize(("text", "expected"), [
    ("雪柜入面有两打鸭蛋", [("鸭蛋", 24.0)]),
    ("我哋屋企有半打雞蛋，仲有三盒豆腐", [("鸡蛋", 6.0), ("豆腐", 3.0)]),
    ("啱啱买咗三斤五花肉", [("五花肉", 1500.0)]),
    ("做饭用了三个蛋", [("蛋", 3.0)]),
    ("家里还有一打鸭蛋和两盒牛奶", [("鸭蛋", 12.0), ("牛奶", 2.0)]),
])
def test_counting_words_and_cantonese(text: str, expected: list[tuple[str, float]]) -> None:
    assert [(c["name"], c["quantity"]) for c in parse_pantry(mandarin(text))] == expected


def test_a_short_word_changes_the_one_item_stocked(services: Services, make_view: View) -> None:
    pantry.update(make_view(msg_id="s1"), {"items": parse_pantry("冰箱里有10个鸡蛋")}, services)
    pantry.update(make_view(msg_id="s2"), {"items": parse_pantry("做饭用了俩蛋")}, services)
    assert pantry.view_pantry(make_view(), {"item": "蛋"}, services).reply == "鸡蛋还有8个。"
    assert [r.name for r in pantry.read_pantry(services.db, "u1")] == ["鸡蛋"]


@pytest.mark.parametrize("text", ["对哒", "是哒", "对头", "阔以", mandarin("啱啊"), "嗯呐"])
def test_yes_in_everyday_words(text: str) -> None:
    assert yes_no(text) is True


@pytest.mark.parametrize(("text", "op"), [("帮忙搭配两个菜", "create"), ("炒两道菜", "create"), ("库存全清掉吧", "delete"),
                                          ("重新记一下", "create"), ("鸡蛋还剩几个", "see")])
def test_operation_words(text: str, op: str) -> None:
    assert {o.value for o, _ in operations(text)} == {op}


@pytest.mark.parametrize(("text", "food", "held"), [
    ("不想吃辣 有没有别的鸡蛋菜", "鸡蛋", None), ("怕辣 有没有别的土豆菜", "土豆", "辣"), ("不要辣的话还有别的鸡肉菜吗", "鸡肉", "辣"),
    ("有啥别的牛肉做法", "牛肉", None), ("那还有其他的汤吗", "", None),
])
def test_another_recipe_of_a_kind(text: str, food: str, held: str | None) -> None:
    rule = next(m for m in RECIPE_FOLLOW_UPS.modifiers if m.name == "another of a kind")
    m = rule.regex.search(text)
    if m is None:  # said with a restriction the rule does not lead with: still another one
        assert re.search(ANOTHER, text) is not None
        return
    params = rule.apply({"dish": "麻婆豆腐"}, m, None, {"seen": ["麻婆豆腐"]})
    assert params is not None and "麻婆豆腐" in params["seen"]
    assert food in params["dish"] and (held is None or params.get("avoid") == [held])


def test_a_kind_of_dish_with_a_food_the_book_lacks_is_said_so() -> None:
    found = find("想吃点清淡的汤 放冬瓜的那种")
    assert found.heading.startswith("菜谱里没有加冬瓜的汤") and found.options
    assert all(r.category == "汤" for r in found.options)


@pytest.mark.parametrize(("text", "said"), [("雪柜仲有咩", "冰箱还有什么"), ("今晚食咩好", "今晚吃什么好")])
def test_more_written_cantonese(text: str, said: str) -> None:
    assert mandarin(text) == said
