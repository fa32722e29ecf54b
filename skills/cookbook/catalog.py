"""The dinner catalog shipped as data (``catalog.json``; sources in ``SOURCES.md``).

Every dish is a recipe of the recipe book (``skills.cookbook``), called by that recipe's name, so
"<dish>怎么做" opens the very recipe a plan put on the menu. A dish stores the recipe's own amounts
(in grams) and how many people they feed; its grams per serving, price and nutrition all follow
from those amounts and the ingredient table (typical price and nutrition per 100 g).

Loaded once into frozen dataclasses. Names and aliases of ingredients resolve to one canonical
name (西红柿 → 番茄), and a dish name can be found inside a free-text message.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from skills.cookbook.book import Book, load_book

__all__ = ["CATEGORIES", "Catalog", "Dish", "Ingredient", "Nutrition", "load_catalog"]

CATALOG_PATH = Path(__file__).with_name("catalog.json")
CATEGORIES = ("staple", "vegetable", "protein", "soup", "dessert")
_SEASONING = frozenset({"basic", "allium", "herb", "chili", "spice"})


@dataclass(frozen=True, slots=True)
class Nutrition:
    """Energy (kcal) and macronutrients (g)."""

    kcal: float = 0.0
    protein: float = 0.0
    fat: float = 0.0
    carbohydrate: float = 0.0

    def __add__(self, other: Nutrition) -> Nutrition:
        return Nutrition(self.kcal + other.kcal, self.protein + other.protein,
                         self.fat + other.fat, self.carbohydrate + other.carbohydrate)

    def scaled(self, factor: float) -> Nutrition:
        """This amount times ``factor``."""
        return Nutrition(self.kcal * factor, self.protein * factor, self.fat * factor,
                         self.carbohydrate * factor)

    def rounded(self) -> dict[str, float]:
        """A JSON-friendly form: kcal whole, grams to one decimal."""
        return {"kcal": round(self.kcal), "protein": round(self.protein, 1),
                "fat": round(self.fat, 1), "carbohydrate": round(self.carbohydrate, 1)}


@dataclass(frozen=True, slots=True)
class Ingredient:
    """A purchasable ingredient with its typical price and nutrition per 100 g edible portion."""

    name: str
    aliases: tuple[str, ...]
    price_per_500g: float
    per_100g: Nutrition
    tags: frozenset[str]
    piece_g: float | None = None
    pack_g: float | None = None
    premium: tuple[str, float] | None = None  # a better grade an ample budget buys: (name, yuan per 斤)

    @property
    def basic(self) -> bool:
        """Household basics (oil, soy sauce, …) are assumed at home and never bought."""
        return "basic" in self.tags

    def price_of(self, grams: float) -> float:
        """The typical price of ``grams`` of this ingredient."""
        return self.price_per_500g * grams / 500.0


@dataclass(frozen=True, slots=True)
class Dish:
    """A dish: the recipe-book recipe it is (``name``), its category and one serving's raw ingredients (g).

    ``amounts_g`` are the recipe's amounts for ``feeds`` people; ``ingredients_g`` are one serving
    of them. ``optional`` ingredients (garnishes, a spoon of 蚝油) are left out rather than the
    dish when a restriction rules them out; ``basis`` says how the amounts were read off the recipe.
    """

    name: str
    category: str
    aliases: tuple[str, ...]
    ingredients_g: Mapping[str, float]
    optional: frozenset[str]
    tags: frozenset[str]
    nutrition: Nutrition
    feeds: float
    amounts_g: Mapping[str, float]
    basis: str
    leaves_out: tuple[str, ...]

    @property
    def recipe(self) -> str:
        """The name of this dish's recipe in the recipe book (the dish is called by it)."""
        return self.name

    @property
    def main_ingredient(self) -> str:
        """The heaviest ingredient."""
        return max(self.ingredients_g.items(), key=lambda kv: (kv[1], kv[0]))[0]

    def mains(self, catalog: Catalog) -> frozenset[str]:
        """The ingredients that make the dish (≥ 20 g a serving, not a seasoning): no two dishes share one."""
        return frozenset(n for n, g in self.ingredients_g.items()
                         if g >= 20 and not catalog.ingredients[n].tags & _SEASONING) | {self.main_ingredient}


class Catalog:
    """All ingredients and dishes; lookups by name, alias, or a name inside a message."""

    def __init__(self, ingredients: Mapping[str, Ingredient], dishes: tuple[Dish, ...]) -> None:
        self.ingredients = MappingProxyType(dict(ingredients))
        self.dishes = dishes
        self._dish_by_name = {d.name: d for d in dishes}
        for d in dishes:
            for alias in d.aliases:
                self._dish_by_name.setdefault(alias, d)
        self._alias: dict[str, str] = {}
        for ing in ingredients.values():
            for alias in (ing.name, *ing.aliases):
                self._alias.setdefault(alias, ing.name)
        self._longest_first = sorted(self._alias, key=len, reverse=True)

    def dish(self, name: str) -> Dish | None:
        """The dish called exactly ``name``."""
        return self._dish_by_name.get(name)

    def find_dish(self, text: str) -> Dish | None:
        """The catalog dish whose name or alias occurs in ``text`` (the longest mention wins)."""
        hits = [name for name in self._dish_by_name if name in text]
        return self._dish_by_name[max(hits, key=len)] if hits else None

    def ingredient_words(self) -> tuple[str, ...]:
        """Every name and alias of an ingredient."""
        return tuple(self._alias)

    def canonical(self, word: str) -> str | None:
        """The canonical ingredient name for ``word`` (a name or an alias), or None."""
        return self._alias.get(word.strip())

    def find_ingredients(self, text: str) -> list[str]:
        """Canonical names of the ingredients mentioned in ``text``, longest mentions first."""
        return [name for name, _ in self.mentions(text)]

    def mentions(self, text: str) -> list[tuple[str, str]]:
        """(canonical name, the word the text uses for it) of each ingredient mentioned in ``text``,
        longest mentions first ("西红柿" → ("番茄", "西红柿")): the name for matching and planning, the
        word for saying it back."""
        found: dict[str, str] = {}
        rest = text
        for alias in self._longest_first:
            if len(alias) > 1 and alias in rest:
                rest = rest.replace(alias, "\0")
                found.setdefault(self._alias[alias], alias)
        return list(found.items())


def _nutrition(raw: Mapping[str, Any]) -> Nutrition:
    return Nutrition(float(raw["kcal"]), float(raw["protein"]), float(raw["fat"]), float(raw["carbohydrate"]))


def _per_serving(amounts: Mapping[str, float], feeds: float) -> Mapping[str, float]:
    return MappingProxyType({name: round(grams / feeds, 1) for name, grams in amounts.items()})


def _dish_nutrition(grams: Mapping[str, float], ingredients: Mapping[str, Ingredient]) -> Nutrition:
    total = Nutrition()
    for name, g in grams.items():
        total = total + ingredients[name].per_100g.scaled(g / 100)
    return total


def _untied(dishes: tuple[Dish, ...], book: Book) -> list[str]:
    """The dishes that are not a recipe of ``book`` under exactly their own name."""
    out = []
    for dish in dishes:
        recipe = book.get(dish.name)
        if recipe is None or recipe.name != dish.name:
            out.append(dish.name)
    return out


def parse_catalog(raw: Mapping[str, Any], book: Book | None = None) -> Catalog:
    """Build a :class:`Catalog` from the JSON document's structure; raises ValueError when inconsistent.

    With ``book``, every dish must be one of its recipes (by that recipe's own name), so the planner
    can never choose a dish the recipe book cannot explain.
    """
    ingredients = {
        name: Ingredient(
            name=name, aliases=tuple(item.get("aliases", ())), price_per_500g=float(item["price_per_500g"]),
            per_100g=_nutrition(item["nutrition_per_100g"]), tags=frozenset(item.get("tags", ())),
            piece_g=item.get("piece_g"), pack_g=item.get("pack_g"),
            premium=(item["premium"]["name"], float(item["premium"]["price_per_500g"])) if "premium" in item else None,
        )
        for name, item in raw["ingredients"].items()
    }
    dishes = []
    for item in raw["dishes"]:
        name, amounts, feeds = item["recipe"], item["amounts_g"], float(item["feeds"])
        unknown = set(amounts) - set(ingredients)
        if unknown or item["category"] not in CATEGORIES or feeds <= 0 or not set(item.get("optional", ())) <= set(amounts):
            raise ValueError(f"bad dish {name}: {sorted(unknown)} {item['category']} feeds={feeds}")
        grams = _per_serving(amounts, feeds)
        dishes.append(Dish(
            name=name, category=item["category"], aliases=tuple(item.get("aliases", ())), ingredients_g=grams,
            optional=frozenset(item.get("optional", ())), tags=frozenset(item.get("tags", ())),
            nutrition=_dish_nutrition(grams, ingredients), feeds=feeds,
            amounts_g=MappingProxyType({k: float(v) for k, v in amounts.items()}), basis=item.get("basis", ""),
            leaves_out=tuple(item.get("leaves_out", ())),
        ))
    missing = _untied(tuple(dishes), book) if book is not None else []
    if missing:
        raise ValueError(f"dishes that are not recipes of the recipe book: {missing}")
    return Catalog(ingredients, tuple(dishes))


@lru_cache(maxsize=1)
def load_catalog() -> Catalog:
    """The shipped catalog (parsed once per process), every dish checked against the recipe book."""
    return parse_catalog(json.loads(CATALOG_PATH.read_text(encoding="utf-8")), load_book())
