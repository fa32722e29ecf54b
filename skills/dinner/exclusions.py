"""Dietary exclusions: turn words such as 不吃辣 / 香菜 / 素食 / 海鲜过敏 into rules over the catalog.

Pure functions. An exclusion is a set of tags (spicy, seafood, peanut, …), a set of canonical
ingredients, and leftover words matched against dish names. A dish is allowed when no required
ingredient is excluded; an excluded *optional* ingredient (a garnish such as 香菜 or 葱花) is
dropped instead of rejecting the dish.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from skills.dinner.catalog import Catalog, Dish

__all__ = ["Exclusions", "NOTHING_WORDS", "allowed_ingredients", "parse_exclusions"]

NOTHING_WORDS = frozenset({"没有", "无", "都行", "都可以", "随便", "不忌口", "没忌口", "没什么", "没", "不挑", "啥都吃"})

# keyword (found inside the word) → excluded tags; checked in this order
_KEYWORD_TAGS: tuple[tuple[str, frozenset[str]], ...] = (
    ("纯素", frozenset({"meat", "fish", "seafood", "shellfish", "egg", "milk"})),
    ("素", frozenset({"meat", "fish", "seafood", "shellfish"})),
    ("海鲜", frozenset({"seafood", "shellfish", "fish"})),
    ("水产", frozenset({"seafood", "shellfish", "fish"})),
    ("花生", frozenset({"peanut"})),
    ("坚果", frozenset({"nut", "peanut"})),
    ("辣", frozenset({"spicy", "chili"})),
    ("清真", frozenset({"pork"})),
    ("猪", frozenset({"pork"})),
    ("牛肉", frozenset({"beef"})),
    ("鸡肉", frozenset({"poultry"})),
    ("禽", frozenset({"poultry"})),
    ("荤", frozenset({"meat", "fish", "seafood", "shellfish"})),
    ("肉", frozenset({"meat"})),
    ("鱼", frozenset({"fish"})),
    ("虾", frozenset({"shellfish"})),
    ("蟹", frozenset({"shellfish"})),
    ("贝", frozenset({"shellfish"})),
    ("蛋", frozenset({"egg"})),
    ("奶", frozenset({"milk"})),
    ("乳", frozenset({"milk"})),
    ("豆制品", frozenset({"soy"})),
    ("大豆", frozenset({"soy"})),
    ("麸质", frozenset({"gluten"})),
    ("小麦", frozenset({"gluten"})),
    ("甜", frozenset({"sugary"})),
)
# whole words naming a food group rather than one ingredient (checked before ingredient names)
_GENERIC_TAGS: dict[str, frozenset[str]] = {
    "猪肉": frozenset({"pork"}), "牛肉": frozenset({"beef"}), "鸡肉": frozenset({"poultry"}),
    "鱼": frozenset({"fish"}), "鱼肉": frozenset({"fish"}), "虾": frozenset({"shellfish"}),
    "花生": frozenset({"peanut"}), "蛋": frozenset({"egg"}), "鸡蛋": frozenset({"egg"}),
    "牛奶": frozenset({"milk"}), "辣椒": frozenset({"spicy", "chili"}), "豆腐": frozenset({"soy"}),
}
_PREFIX = re.compile(r"^(?:我|我们|家里|孩子|老人)?(?:都)?(?:不吃|不要|不能吃|不爱吃|不喜欢|别放|不放|忌|忌口|对|少吃|戒)")
_SUFFIX = re.compile(r"(?:过敏|不吃|不要|忌口|的菜|的|类)$")


@dataclass(frozen=True, slots=True)
class Exclusions:
    """What a plan must avoid."""

    tags: frozenset[str] = frozenset()
    ingredients: frozenset[str] = frozenset()
    words: frozenset[str] = frozenset()
    labels: tuple[str, ...] = ()

    def __or__(self, other: Exclusions) -> Exclusions:
        labels = self.labels + tuple(x for x in other.labels if x not in self.labels)
        return Exclusions(self.tags | other.tags, self.ingredients | other.ingredients,
                          self.words | other.words, labels)

    @property
    def empty(self) -> bool:
        return not (self.tags or self.ingredients or self.words)


def _clean(word: str) -> str:
    word = word.strip(" ，,。.、；;！!")
    word = _PREFIX.sub("", word)
    return _SUFFIX.sub("", word).strip()


def parse_exclusions(items: Iterable[str], catalog: Catalog) -> Exclusions:
    """Map free words (one restriction each) to tags, ingredients and dish-name words."""
    tags: set[str] = set()
    ingredients: set[str] = set()
    words: set[str] = set()
    labels: list[str] = []
    for raw in items:
        word = _clean(str(raw))
        if not word or word in NOTHING_WORDS:
            continue
        labels.append(word)
        if word in _GENERIC_TAGS:
            tags |= _GENERIC_TAGS[word]
            continue
        canonical = catalog.canonical(word)
        if canonical is not None:
            ingredients.add(canonical)
            continue
        for keyword, keyword_tags in _KEYWORD_TAGS:
            if keyword in word:
                tags |= keyword_tags
                break
        else:
            mentioned = catalog.find_ingredients(word)
            if mentioned:
                ingredients.update(mentioned)
            else:
                words.add(word)
    return Exclusions(frozenset(tags), frozenset(ingredients), frozenset(words), tuple(labels))


def allowed_ingredients(dish: Dish, excl: Exclusions, catalog: Catalog) -> dict[str, float] | None:
    """The dish's ingredients with excluded garnishes dropped, or None when the dish is excluded."""
    if dish.tags & excl.tags or any(w in dish.name for w in excl.words):
        return None
    kept: dict[str, float] = {}
    for name, grams in dish.ingredients_g.items():
        ing = catalog.ingredients[name]
        hit = name in excl.ingredients or bool(ing.tags & excl.tags) or any(w in name for w in excl.words)
        if hit:
            if name in dish.optional:
                continue
            return None
        kept[name] = grams
    return kept
