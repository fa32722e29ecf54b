"""The shipped recipe corpus (``recipes.json``, converted from HowToCook): typed records and lookups.

Loaded once per process, on first use, its text cleaned of the words the conversion wrote twice. Lookups by name or alias (西红柿炒鸡蛋 = 番茄炒蛋), by a
near miss (宫爆鸡丁 → 宫保鸡丁, 螃蟹 → the crab dishes), by ingredients, by category and by
constraints (difficulty, minutes). Pure functions over the loaded data.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

__all__ = ["ALIASES", "Book", "Quantity", "Recipe", "load_book", "undouble", "variants"]

BOOK_PATH = Path(__file__).with_name("recipes.json")

# words people use for the same food; a name's variants swap them both ways
SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("西红柿", "番茄"), ("土豆", "马铃薯", "洋芋"), ("鸡蛋", "蛋"), ("卷心菜", "包菜", "圆白菜", "洋白菜"),
    ("西兰花", "西蓝花"), ("花菜", "菜花", "花椰菜"), ("四季豆", "豆角"), ("青椒", "尖椒"), ("红薯", "地瓜"),
    ("猪肉末", "肉末", "肉馅"), ("鸡翅", "鸡翅中", "翅中"), ("虾", "大虾", "鲜虾"), ("蟹", "螃蟹"),
    ("米饭", "白米饭"), ("马铃薯", "土豆"), ("黄瓜", "青瓜"), ("娃娃菜", "小白菜"), ("鸡胸肉", "鸡胸"),
    ("排骨", "猪排骨"), ("空心菜", "通菜"), ("香菜", "芫荽"), ("生姜", "姜"), ("大蒜", "蒜"),
)


# everyday names of corpus dishes that synonym swapping cannot produce
ALIASES = {
    "蒸蛋": "鸡蛋羹", "蒸鸡蛋": "鸡蛋羹", "水蒸蛋": "蒸水蛋", "鸡蛋羹": "鸡蛋羹", "水煮蛋": "完美水煮蛋", "煮鸡蛋": "完美水煮蛋",
    "煮蛋": "完美水煮蛋", "荷包蛋": "太阳蛋", "煎蛋": "太阳蛋", "炒青菜": "炒青菜", "米饭": "电饭煲蒸米饭",
    "蒸米饭": "电饭煲蒸米饭", "白米饭": "电饭煲蒸米饭", "拍黄瓜": "凉拌黄瓜", "土豆丝": "酸辣土豆丝", "炒土豆丝": "酸辣土豆丝",
    "番茄蛋汤": "西红柿鸡蛋汤", "西红柿蛋汤": "西红柿鸡蛋汤", "紫菜汤": "紫菜蛋花汤", "红烧肉": "简易红烧肉",
    "清蒸鱼": "清蒸鲈鱼", "蒸鱼": "清蒸鲈鱼", "水煮虾": "白灼虾", "手撕圆白菜": "手撕包菜", "炒包菜": "手撕包菜",
    "清炒小白菜": "炒青菜", "清炒青菜": "炒青菜", "清炒西兰花": "蒜蓉西兰花", "炒西兰花": "蒜蓉西兰花", "炒花菜": "清炒花菜",
    "紫菜鸡蛋汤": "紫菜蛋花汤",
}


@dataclass(frozen=True, slots=True)
class Quantity:
    """One line of a recipe's amounts: 鸡蛋 1.5 个 per serving; free text when no number was found."""

    name: str
    text: str
    amount: float | None
    amount_max: float | None
    unit: str | None
    per_serving: bool


@dataclass(frozen=True, slots=True)
class Recipe:
    """A recipe of the corpus; ``servings`` is how many people its quantities feed (None: not stated)."""

    name: str
    category: str
    difficulty: int | None
    kcal: int | None
    minutes: int | None
    intro: str
    ingredients: tuple[str, ...]
    quantities: tuple[Quantity, ...]
    servings: int | None
    per_serving: bool
    steps: tuple[str, ...]
    tips: tuple[str, ...]
    source: str

    def uses(self, food: str) -> bool:
        """Whether ``food`` (or a variant of it) is among the ingredients or amounts."""
        words = [w for w in variants(food) if len(w) >= 2 or w == food]
        return any(w in n for w in words for n in self.ingredients) or \
            any(w in q.name for w in words for q in self.quantities)


@lru_cache(maxsize=8192)
def variants(word: str) -> frozenset[str]:
    """``word`` and the words made by swapping synonyms inside it (西红柿炒鸡蛋 → 番茄炒蛋, …)."""
    out = {word}
    for group in SYNONYMS:
        for current in list(out):
            for a in group:
                if a in current:
                    out.update(current.replace(a, b) for b in group if b != a)
    return frozenset(w for w in out if w)


# a two-character word written twice by the Markdown conversion: "大葱大葱白色的部分", "酱油酱油", "也可也可"
_DOUBLED = re.compile(r"([\u4e00-\u9fa5]{2})\1")
# doublings Chinese means: 一个一个, 一点一点, 一直一直 (one by one, bit by bit, on and on), 啊啊, and a name
_MEANT_TWICE = frozenset({"哔哩"})


def undouble(text: str) -> str:
    """``text`` with each word the conversion wrote twice written once (the reduplications Chinese uses
    on purpose kept)."""
    def once(m: re.Match[str]) -> str:
        word = m.group(1)
        meant = word.startswith("一") or word[0] == word[1] or word in _MEANT_TWICE
        return m.group(0) if meant else word

    return _DOUBLED.sub(once, text)


def _recipe(raw: dict[str, Any]) -> Recipe:
    quantities = tuple(Quantity(q["name"], undouble(q["text"]), q["amount"], q["amount_max"], q["unit"],
                                q["per_serving"]) for q in raw["quantities"])
    return Recipe(raw["name"], raw["category"], raw["difficulty"], raw["kcal"], raw["minutes"], undouble(raw["intro"]),
                  tuple(raw["ingredients"]), quantities, raw["servings"], raw["per_serving"],
                  tuple(undouble(s) for s in raw["steps"]), tuple(undouble(t) for t in raw["tips"]), raw["source"])


class Book:
    """All recipes, with an index of names and aliases."""

    def __init__(self, recipes: Iterable[Recipe], aliases: dict[str, str] | None = None) -> None:
        self.recipes = tuple(recipes)
        self._by_name: dict[str, Recipe] = {r.name: r for r in self.recipes}
        for recipe in self.recipes:
            for alias in variants(recipe.name):
                self._by_name.setdefault(alias, recipe)
        for alias, name in (aliases or {}).items():
            if name in self._by_name:
                self._by_name.setdefault(alias, self._by_name[name])
        self._names = sorted(self._by_name, key=len, reverse=True)

    def get(self, name: str) -> Recipe | None:
        """The recipe called exactly ``name`` (or an alias of it)."""
        return self._by_name.get(name.strip())

    def names(self) -> tuple[str, ...]:
        """Every name and alias of a recipe, longest first."""
        return tuple(self._names)

    def named_in(self, text: str) -> Recipe | None:
        """The recipe whose name or alias occurs in ``text`` (the longest mention wins)."""
        for name in self._names:
            if len(name) >= 2 and name in text:
                return self._by_name[name]
        return None

    def near(self, word: str, limit: int = 5) -> list[Recipe]:
        """Recipes whose name contains ``word`` (or a synonym), else names that look alike."""
        hits: list[Recipe] = []
        for w in sorted(variants(word), key=len, reverse=True):
            for recipe in self.recipes:
                if len(w) >= 1 and w in recipe.name and recipe not in hits:
                    hits.append(recipe)
        if hits:
            return sorted(hits, key=lambda r: (len(r.name), r.name))[:limit]
        close = difflib.get_close_matches(word, list(self._by_name), n=limit * 2, cutoff=0.5)
        out: list[Recipe] = []
        for name in close:
            if self._by_name[name] not in out:
                out.append(self._by_name[name])
        return out[:limit]

    def with_ingredients(self, foods: Iterable[str]) -> list[Recipe]:
        """Recipes using every food in ``foods`` (most specific first), else those using the most of them."""
        wanted = list(foods)
        scored = [(sum(r.uses(f) for f in wanted), r) for r in self.recipes]
        best = max((s for s, _ in scored), default=0)
        if best == 0:
            return []
        top = [r for s, r in scored if s == best]
        return sorted(top, key=lambda r: (-sum(w in r.name for f in wanted for w in variants(f) if len(w) >= 2),
                                          r.difficulty or 3, len(r.ingredients), r.name))


@lru_cache(maxsize=1)
def load_book() -> Book:
    """The shipped corpus (parsed once per process), with :data:`ALIASES`."""
    raw = json.loads(BOOK_PATH.read_text(encoding="utf-8"))
    return Book((_recipe(r) for r in raw["recipes"]), aliases=ALIASES)
