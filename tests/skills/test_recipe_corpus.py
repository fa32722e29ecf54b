"""The HowToCook converter (on sample Markdown and on the corpus when present) and the shipped data."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from skills.cookbook.book import BOOK_PATH, load_book
from skills.cookbook.convert import convert_markdown, convert_tree, parse_quantity

CORPUS = Path(os.environ.get("HOWTOCOOK_DIR", Path(__file__).parents[3] / "shared" / "data" / "recipes" / "howtocook"))

SAMPLE = """# 番茄炒蛋的做法

![图](./a.jpg)

一道家常菜，大约只需 15 分钟。

预估烹饪难度：★★

预估卡路里：252 大卡

## 必备原料和工具

* 西红柿
* 鸡蛋
* 糖（可选）

## 计算

每次制作前需要确定计划做几份。一份正好够 1 个人食用

* 西红柿 = 1 个（约 180g） * 份数
* 鸡蛋 = 1.5 个 * 份数，向上取整
* 盐 = 1.5-2g * 份数

## 操作

1. 西红柿洗净
2. 将鸡蛋打入碗中，加入 `1g * 份数` 的盐

  - 可以加 1ml 醋

3. 关火，盛盘

## 附加内容

* 喜欢甜的多放糖。

如果您遵循本指南的制作流程而发现有问题或可以改进的流程，请提出 Issue 或 Pull request 。
"""


def test_converter_reads_every_part_of_a_recipe() -> None:
    r = convert_markdown(SAMPLE, "dishes/vegetable_dish/番茄炒蛋.md")
    assert r is not None
    assert (r["name"], r["category"], r["difficulty"], r["kcal"], r["minutes"]) == ("番茄炒蛋", "素菜", 2, 252, 15)
    assert r["ingredients"] == ["西红柿", "鸡蛋", "糖"]
    assert r["servings"] == 1 and r["per_serving"] is True
    assert r["steps"] == ["西红柿洗净", "将鸡蛋打入碗中，加入 1g * 份数 的盐（可以加 1ml 醋）", "关火，盛盘"]
    assert r["tips"] == ["喜欢甜的多放糖。"]
    egg = r["quantities"][1]
    assert (egg["name"], egg["amount"], egg["unit"], egg["per_serving"]) == ("鸡蛋", 1.5, "个", True)


@pytest.mark.parametrize(("line", "name", "amount", "high", "unit"), [
    ("米饭 200 g", "米饭", 200.0, None, "g"), ("鸡翅 10 ～ 12 只", "鸡翅", 10.0, 12.0, "只"),
    ("米：100ml-200ml/人", "米", 100.0, 200.0, "ml"), ("盐 = 1.5-2g * 份数", "盐", 1.5, 2.0, "g"),
    ("小葱挽成结", "小葱挽成结", None, None, None), ("冷饭（份数*500ml）", "冷饭", 500.0, None, "ml"),
])
def test_quantity_lines(line: str, name: str, amount: float | None, high: float | None, unit: str | None) -> None:
    q = parse_quantity(line)
    assert (q["name"], q["amount"], q["amount_max"], q["unit"]) == (name, amount, high, unit)


def test_a_file_without_steps_is_skipped() -> None:
    assert convert_markdown("# 空的做法\n\n## 操作\n\n", "dishes/soup/空.md") is None


def test_shipped_data_has_300_recipes_each_answerable_by_name_with_steps() -> None:
    book = load_book()
    assert len(book.recipes) >= 300
    for recipe in book.recipes:
        assert recipe.steps and book.get(recipe.name) is recipe, recipe.name
        assert recipe.source.startswith("dishes/") and recipe.source.endswith(".md")
    assert {r.category for r in book.recipes} >= {"荤菜", "素菜", "主食", "水产", "汤", "早餐"}


def test_shipped_data_is_in_the_package_and_credited() -> None:
    raw = json.loads(BOOK_PATH.read_text(encoding="utf-8"))
    assert "HowToCook" in raw["source"] and "Unlicense" in raw["source"]
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    assert "HowToCook" in readme


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the HowToCook corpus is not next to the repository")
def test_shipped_data_is_what_the_converter_makes_of_the_corpus() -> None:
    converted = convert_tree(CORPUS)
    shipped = json.loads(BOOK_PATH.read_text(encoding="utf-8"))["recipes"]
    assert converted == shipped
