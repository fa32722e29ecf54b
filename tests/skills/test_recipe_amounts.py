"""A recipe scaled to the people eating says the same amounts in its steps as in its list, and the
corpus reads as written once: no word the conversion doubled, in any of its dishes."""

from __future__ import annotations

import re

import pytest

from skills.cookbook.amounts import (
    amounts_in,
    counts_in,
    food_beside,
    food_name,
    format_number,
    scale_step,
    scale_text,
)
from skills.cookbook.book import Recipe, load_book, undouble, variants
from skills.dinner import recipe_reply, scaled_amount

BOOK = load_book()
SCALED = [r for r in BOOK.recipes if r.per_serving and r.servings]
_UNIT_CLASS = {"g": "g", "克": "g", "ml": "ml", "毫升": "ml", "mL": "ml", "ML": "ml", "Ml": "ml"}
MEASURE_IN_TEXT = re.compile(r"(?<![\d./])(\d+(?:\.\d+)?)\s*(g|克|ml|毫升|mL|ML)(?![A-Za-z])")


def _factor(recipe: Recipe) -> float:
    return (recipe.servings + 2) / recipe.servings  # type: ignore[operator]


def test_most_of_the_corpus_scales() -> None:
    assert len(BOOK.recipes) == 367 and len(SCALED) >= 200


@pytest.mark.parametrize("recipe", SCALED, ids=[r.name for r in SCALED])
def test_every_amount_in_the_steps_is_scaled_and_agrees_with_the_list(recipe: Recipe) -> None:
    factor = _factor(recipe)
    counts = counts_in(recipe)
    listed = {name: q for q in recipe.quantities if q.amount is not None and q.unit
              for name in variants(food_name(q))}
    for step in recipe.steps:
        scaled = scale_step(recipe, step, factor)
        before, after = amounts_in(step, counts=counts), amounts_in(scaled, counts=counts)
        assert [a.unit for a in after] == [a.unit for a in before], (step, scaled)
        for was, now in zip(before, after, strict=True):
            assert now.low == float(format_number(was.low * factor, counted=was.counted)), (step, scaled)
            # the list says the same number for the same food, in the same kind of unit
            food = food_beside(was, step, listed)
            q = listed.get(food or "")
            if q is not None and q.amount == was.low and _UNIT_CLASS.get(q.unit or "", q.unit) == \
                    _UNIT_CLASS.get(was.unit, was.unit):
                number = format_number(now.low, counted=now.counted)
                assert re.search(rf"(?<![\d.]){re.escape(number)}\D", scaled_amount(q, factor) + " "), \
                    (food, scaled_amount(q, factor), scaled)
        # no weight or volume is left as written: each is an amount found (or a rate: 每 500g)
        found = [range(a.start, a.end) for a in before]
        for m in MEASURE_IN_TEXT.finditer(step):
            assert any(m.start() in span for span in found) or re.search(r"(每|平均)\s*$", step[:m.start()]), \
                (step, m.group(0))


def test_the_reported_recipe_says_the_same_amount_twice() -> None:
    reply = recipe_reply(BOOK.get("简易红烧肉"), 3)  # type: ignore[arg-type]
    assert "冰糖 22.5克" in reply and "加入 22.5g 冰糖" in reply and "加入 15g" not in reply
    assert "放入3片生姜" in reply and "（生姜 3 片）（香叶 5 片）（八角 3 个）" in reply


@pytest.mark.parametrize(("text", "scaled"), [
    ("加入 15g 冰糖", "加入 30g 冰糖"), ("（生抽 10ml）", "（生抽 20ml）"), ("加入 2-3g 盐", "加入 4-6g 盐"),
    ("开水 600ml-900ml", "开水 1200ml-1800ml"), ("盐（1/2 茶匙）", "盐（1 茶匙）"), ("生粉（2½ 茶匙）", "生粉（5 茶匙）"),
    ("加入 1g * 份数 的盐", "加入 2g 的盐"), ("煮 15 分钟", "煮 15 分钟"), ("切成 4cm 的块", "切成 4cm 的块"),
    ("每 500g 肉放 5g 盐", "每 500g 肉放 10g 盐"), ("1 汤匙 = 15ml", "1 汤匙 = 15ml"), ("油温 180 度", "油温 180 度"),
])
def test_what_is_an_amount(text: str, scaled: str) -> None:
    assert scale_text(text, 2) == scaled


def test_counts_are_amounts_only_beside_a_food_the_list_counts() -> None:
    recipe = BOOK.get("简易红烧肉")
    assert recipe is not None
    assert scale_step(recipe, "放入（生姜 2 片）（八角 2 个）", 2) == "放入（生姜 4 片）（八角 4 个）"
    assert scale_step(recipe, "锅中放入两片生姜提味", 2) == "锅中放入4片生姜提味"
    for same in ("切成 4 块", "炖 1~2 个小时", "一个一个放入", "豆皮切 2cm 的宽度", "平均一个八角掰开"):
        assert scale_step(recipe, same, 2) == same


DOUBLED = re.compile(r"([\u4e00-\u9fa5]{2})\1")
MEANT = re.compile(r"^(一.|(.)\2|哔哩)$")  # 一个一个, 一点一点 …, 啊啊, a name


@pytest.mark.parametrize("recipe", BOOK.recipes, ids=[r.name for r in BOOK.recipes])
def test_no_dish_reads_a_word_twice(recipe: Recipe) -> None:
    foods = {food_name(q) for q in recipe.quantities} | {n for n in recipe.ingredients if len(n) <= 6}
    for text in (recipe.intro, *recipe.steps, *recipe.tips, *(q.text for q in recipe.quantities)):
        for m in DOUBLED.finditer(text):
            assert MEANT.match(m.group(1)), (m.group(0), text)
        for food in foods:
            if len(food) >= 2:
                assert food * 2 not in text, (food, text)


def test_the_reported_step_reads_once() -> None:
    assert "大葱白色的部分葱白" in BOOK.get("简易红烧肉").steps  # type: ignore[union-attr]
    assert any(s.startswith("小葱白色的部分") for s in BOOK.get("南派红烧肉").steps)  # type: ignore[union-attr]
    assert undouble("想切丝切丝，一片一片，哔哩哔哩，啊啊啊啊") == "想切丝，一片一片，哔哩哔哩，啊啊啊啊"
