"""What can be cooked with what is at home ("用这些能做什么菜" after the pantry was shown or changed).

The recipes of the book ranked by how many of the stocked items they use and are made of (西红柿炒鸡蛋 is
made of them, 醉排骨 only has a spoon of 番茄酱), the items just named first, then by how easy they are;
each listed with the items it uses, in the user's own words. A kind of dish asked for ("能做个什么汤") or
an easy one ("简单点的") narrows the list.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from skills.cookbook.book import Book, Recipe, load_book, variants

__all__ = ["Cookable", "cookable", "kind_asked"]

LIMIT = 5
_NOT_DISHES = frozenset({"饮品", "酱料", "半成品"})
# a product made of the food is not the food: 番茄酱, 番茄汁, 土豆粉, 鸡精
_PRODUCT = ("酱", "汁", "粉", "精", "干", "罐头")
_KINDS = (("汤", "汤"), ("羹", "汤"), ("凉菜", "素菜"), ("素菜", "素菜"), ("青菜", "素菜"), ("荤菜", "荤菜"), ("肉菜", "荤菜"),
          ("硬菜", "荤菜"), ("主食", "主食"), ("早餐", "早餐"), ("早饭", "早餐"), ("甜品", "甜品"), ("甜点", "甜品"))
_EASY = re.compile(r"简单|容易|快手|省事|好做|不费事|新手|懒人")


@dataclass(frozen=True, slots=True)
class Cookable:
    """A recipe and the stocked items (as the user calls them) it uses."""

    recipe: Recipe
    uses: tuple[str, ...]


def kind_asked(text: str) -> tuple[str | None, bool]:
    """The recipe-book category a question asks for ("能做个什么汤" → 汤), and whether it asks for an easy one."""
    kind = next((category for word, category in _KINDS if word in text), None)
    return kind, bool(_EASY.search(text))


def _uses(recipe: Recipe, name: str, said: str) -> bool:
    words = {w for w in (*variants(said), *variants(name)) if len(w) >= 2 or w in (said, name)}
    for item in (*recipe.ingredients, *(q.name for q in recipe.quantities)):
        for word in words:
            at = item.find(word)
            if at >= 0 and not item[at + len(word):].startswith(_PRODUCT):
                return True
    return False


def cookable(stock: Sequence[tuple[str, str]], first: Sequence[str] = (), *, kind: str | None = None,
             easy: bool = False, book: Book | None = None, limit: int = LIMIT) -> list[Cookable]:
    """The best few recipes for ``stock`` ((canonical name, the user's word) per item); items whose word is in
    ``first`` weigh more (the ones just talked about); ``kind`` keeps one category, ``easy`` the easy ones
    (when there are any)."""
    book = book or load_book()
    wanted = set(first)
    found: list[tuple[tuple[int, int, int, int, int, str], Cookable]] = []
    for recipe in book.recipes:
        if recipe.category in _NOT_DISHES or (kind is not None and recipe.category != kind):
            continue
        used = [(name, said) for name, said in stock if _uses(recipe, name, said)]
        if not used:
            continue
        uses = tuple(said for _, said in used)
        titled = sum(any(w in recipe.name for w in (*variants(said), *variants(name)) if len(w) >= 2)
                     for name, said in used)
        key = (-(len(uses) + titled), -sum(u in wanted for u in uses), recipe.difficulty or 3,
               len(recipe.ingredients) - len(uses), recipe.minutes or 99, recipe.name)
        found.append((key, Cookable(recipe, uses)))
    found.sort(key=lambda kv: kv[0])
    ranked = [c for _, c in found]
    if easy and any((c.recipe.difficulty or 3) <= 2 for c in ranked):
        ranked = [c for c in ranked if (c.recipe.difficulty or 3) <= 2]
    return _varied(ranked, limit)


def _varied(ranked: list[Cookable], limit: int, same: int = 2) -> list[Cookable]:
    """The best ``limit``, every stocked item used by at least one of them when it can be, and no more than
    ``same`` using the very same items while others are left (a stock of 西红柿, 鸡蛋 and 排骨 is not five
    dishes of 西红柿 and 鸡蛋); in the order ranked."""
    taken: list[Cookable] = []
    covered: set[str] = set()
    for c in ranked:
        if len(taken) < limit and set(c.uses) - covered:
            taken.append(c)
            covered |= set(c.uses)
    for c in ranked:
        if len(taken) < limit and c not in taken and sum(set(t.uses) == set(c.uses) for t in taken) < same:
            taken.append(c)
    taken += [c for c in ranked if c not in taken][:limit - len(taken)]
    return sorted(taken, key=ranked.index)
