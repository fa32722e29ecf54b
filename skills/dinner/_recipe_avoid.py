"""Recipes of a list that a restriction said after it rules out ("不要辣的" after the dishes with 土豆).

A recipe of the book is ruled out when one of its ingredients is (the dinner's own reading of restrictions:
辣 → chili and spicy things, 海鲜 → fish and shellfish, 香菜 → that herb) or when its name carries the word
(酸辣土豆丝 for 辣).
"""

from __future__ import annotations

from collections.abc import Iterable

from skills.cookbook.book import Recipe
from skills.cookbook.catalog import load_catalog
from skills.dinner.exclusions import parse_exclusions

__all__ = ["without"]


def without(recipes: Iterable[Recipe], avoid: Iterable[str]) -> tuple[Recipe, ...]:
    """``recipes`` less those the restrictions ``avoid`` rule out, in order."""
    catalog = load_catalog()
    words = [w for w in avoid if w]
    excl = parse_exclusions(words, catalog)

    def ruled_out(recipe: Recipe) -> bool:
        if any(w in recipe.name for w in (*words, *excl.words)):
            return True
        said = " ".join((*recipe.ingredients, *(q.name for q in recipe.quantities)))
        return any(excl.excludes(name, catalog.ingredients[name].tags, catalog)
                   for name, _ in catalog.mentions(said) if name in catalog.ingredients)

    return tuple(r for r in recipes if not ruled_out(r))
