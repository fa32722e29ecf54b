"""What can be cooked with what is at home ("用这些能做什么菜" after the pantry was shown or changed).

The recipes of the book ranked by how many of the stocked items they use (the items just named first),
then by how little else they need; each listed with the items it uses, in the user's own words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from skills.cookbook.book import Book, Recipe, load_book, variants

__all__ = ["Cookable", "cookable"]

LIMIT = 5
_NOT_DISHES = frozenset({"饮品", "酱料", "半成品"})


@dataclass(frozen=True, slots=True)
class Cookable:
    """A recipe and the stocked items (as the user calls them) it uses."""

    recipe: Recipe
    uses: tuple[str, ...]


def cookable(stock: Sequence[tuple[str, str]], first: Sequence[str] = (), *, book: Book | None = None,
             limit: int = LIMIT) -> list[Cookable]:
    """The best few recipes for ``stock`` ((canonical name, the user's word) per item); items whose word is in
    ``first`` weigh more (the ones just talked about)."""
    book = book or load_book()
    wanted = set(first)
    found: list[tuple[tuple[int, int, int, int, int, int, str], Cookable]] = []
    for recipe in book.recipes:
        if recipe.category in _NOT_DISHES:
            continue
        used = [(name, said) for name, said in stock if recipe.uses(said) or recipe.uses(name)]
        if not used:
            continue
        uses = tuple(said for _, said in used)
        named = sum(u in wanted for u in uses)
        titled = sum(any(w in recipe.name for w in (*variants(said), *variants(name)) if len(w) >= 2)
                     for name, said in used)  # 西红柿炒鸡蛋 is made of them, 罗宋汤 only has them in it
        key = (-len(uses), -named, -titled, recipe.difficulty or 3, len(recipe.ingredients) - len(uses),
               recipe.minutes or 99, recipe.name)
        found.append((key, Cookable(recipe, uses)))
    found.sort(key=lambda kv: kv[0])
    return [c for _, c in found[:limit]]
