"""Dietary restrictions → rules over the catalog, and the plain words that echo them back.

Pure functions. A restriction excludes tags (spicy, peanut, seafood, …), canonical ingredients and
words (matched inside ingredient and dish names, so 芒果 also rules out 芒果干). An allergen word
excludes every ingredient derived from it: 花生 → 花生米, 花生油, 花生酱 (all tagged ``peanut``).
"有人吃素" does not make the table vegetarian: it asks for enough vegetarian dishes for that guest.
An excluded *optional* ingredient (a garnish such as 香菜 or 葱花) is dropped, not the dish.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from skills.cookbook.catalog import Catalog, Dish

__all__ = ["Exclusions", "NOTHING_WORDS", "allowed_ingredients", "derived_ingredients", "family_tags", "parse_exclusions"]

NOTHING_WORDS = frozenset({"没有", "无", "都行", "都可以", "随便", "不忌口", "没忌口", "没什么", "没", "不挑", "啥都吃",
                           "没啥", "没啥忌口", "没什么忌口", "没有忌口", "无忌口", "什么都吃", "都吃", "不挑食"})
_ANIMAL = frozenset({"meat", "fish", "seafood", "shellfish"})
# a word naming a food group or an allergen family → the tags it rules out, and how to say it
_FAMILIES: tuple[tuple[str, frozenset[str], str], ...] = (
    ("纯素", _ANIMAL | {"egg", "milk"}, "纯素（不用肉、鱼、蛋、奶）"),
    ("素", _ANIMAL, "吃素"),
    ("清真", frozenset({"pork"}), "清真（不用猪肉）"),
    ("回民", frozenset({"pork"}), "清真（不用猪肉）"),
    ("痛风", frozenset({"seafood", "shellfish", "fish"}), "痛风（不用海鲜鱼虾）"),
    ("控糖", frozenset({"sugary"}), "控糖（不用糖多的菜）"),
    ("孕妇", frozenset({"cold", "spicy"}), "孕妇（不用凉拌生冷和辣的）"),
    ("清淡", frozenset({"spicy", "chili"}), "清淡口味"),
    ("辣", frozenset({"spicy", "chili"}), "不吃辣"),
    ("海鲜", frozenset({"seafood", "shellfish", "fish"}), "不吃海鲜"),
    ("水产", frozenset({"seafood", "shellfish", "fish"}), "不吃水产"),
    ("花生", frozenset({"peanut"}), "花生"),
    ("坚果", frozenset({"nut", "peanut"}), "坚果"),
    ("芝麻", frozenset({"sesame"}), "芝麻"),
    ("猪", frozenset({"pork"}), "不吃猪肉"),
    ("牛肉", frozenset({"beef"}), "不吃牛肉"),
    ("羊", frozenset({"lamb"}), "不吃羊肉"),
    ("鸡肉", frozenset({"poultry"}), "不吃鸡肉"),
    ("禽", frozenset({"poultry"}), "不吃禽肉"),
    ("荤", _ANIMAL, "吃素"),
    ("肉", frozenset({"meat"}), "不吃肉"),
    ("鱼", frozenset({"fish"}), "不吃鱼"),
    ("虾", frozenset({"shellfish"}), "虾"),
    ("蟹", frozenset({"shellfish"}), "蟹"),
    ("贝", frozenset({"shellfish"}), "贝类"),
    ("蛋", frozenset({"egg"}), "蛋"),
    ("奶", frozenset({"milk"}), "奶"),
    ("乳", frozenset({"milk"}), "奶"),
    ("麸质", frozenset({"gluten"}), "麸质（小麦）"),
    ("小麦", frozenset({"gluten"}), "麸质（小麦）"),
    ("大豆", frozenset({"soy"}), "大豆"),
    ("黄豆", frozenset({"soy"}), "大豆"),
    ("豆制品", frozenset({"soy"}), "豆制品"),
    ("甜", frozenset({"sugary"}), "不吃甜"),
)
_SOME_VEG = re.compile(r"^(?:有人|(\d+)人)吃(纯)?素$")
_PREFIX = re.compile(r"^(?:我|我们|家里|孩子|老人)?(?:都)?(?:不吃|不要|不能吃|不爱吃|不喜欢|别放|不放|忌|忌口|对|少吃|戒)")
_SUFFIX = re.compile(r"(?:过敏|不吃|不要|忌口|的菜|的|类)$")


@dataclass(frozen=True, slots=True)
class Exclusions:
    """What a plan must avoid for everyone, plus vegetarians among the guests (``veg_guests``)."""

    tags: frozenset[str] = frozenset()
    ingredients: frozenset[str] = frozenset()
    words: frozenset[str] = frozenset()
    labels: tuple[str, ...] = ()
    veg_guests: int = 0
    vegan_guests: bool = False

    def __or__(self, other: Exclusions) -> Exclusions:
        labels = self.labels + tuple(x for x in other.labels if x not in self.labels)
        return Exclusions(self.tags | other.tags, self.ingredients | other.ingredients,
                          self.words | other.words, labels, max(self.veg_guests, other.veg_guests),
                          self.vegan_guests or other.vegan_guests)

    @property
    def empty(self) -> bool:
        return not (self.tags or self.ingredients or self.words or self.veg_guests)

    def excludes(self, name: str, tags: frozenset[str], catalog: Catalog) -> bool:
        """Whether the ingredient ``name`` (with ``tags``) is ruled out for everyone."""
        if name in self.ingredients or tags & self.tags:
            return True
        ing = catalog.ingredients.get(name)
        names = (name, *ing.aliases) if ing else (name,)
        return any(w in n for w in self.words for n in names)


def _clean(word: str) -> str:
    word = word.strip(" ，,。.、；;！!")
    word = _PREFIX.sub("", word)
    return _SUFFIX.sub("", word).strip()


def parse_exclusions(items: Iterable[str], catalog: Catalog) -> Exclusions:
    """Map restriction items (one each: 辣, 香菜, 花生, 素食, 有人吃素, 2人吃素, …) to rules."""
    tags: set[str] = set()
    ingredients: set[str] = set()
    words: set[str] = set()
    labels: list[str] = []
    veg_guests, vegan = 0, False
    for raw in items:
        word = _clean(str(raw))
        if not word or word in NOTHING_WORDS:
            continue
        some = _SOME_VEG.match(word)
        if some:
            veg_guests = max(veg_guests, int(some.group(1) or 1))
            vegan = vegan or bool(some.group(2))
            continue
        canonical = catalog.canonical(word)
        family = next((f for f in _FAMILIES if f[0] in word), None)
        if family is not None and (canonical is None or word == family[0] or word in ("鸡蛋", "牛奶", "花生", "猪肉")):
            tags |= family[1]
            label = family[2]
            if word not in label and label in ("蛋", "奶", "虾", "蟹"):
                label = word
        elif canonical is not None:
            ingredients.add(canonical)
            label = word
        else:
            found = catalog.find_ingredients(word)
            ingredients.update(found)
            words.add(word)
            label = word
        if label not in labels:
            labels.append(label)
    return Exclusions(frozenset(tags), frozenset(ingredients), frozenset(words), tuple(labels), veg_guests, vegan)


def family_tags(word: str) -> frozenset[str]:
    """The tags a restriction word rules out as a food family (花生 → peanut; 虾 → shellfish)."""
    return next((tags for key, tags, _ in _FAMILIES if key in word), frozenset())


def derived_ingredients(excl: Exclusions, catalog: Catalog) -> list[str]:
    """Every catalog ingredient the restrictions rule out (花生 → 花生米, 花生油, 花生酱)."""
    return [n for n, ing in catalog.ingredients.items() if excl.excludes(n, ing.tags, catalog)]


def allowed_ingredients(dish: Dish, excl: Exclusions, catalog: Catalog) -> dict[str, float] | None:
    """The dish's ingredients with excluded garnishes dropped, or None when the dish is excluded.

    With vegetarian guests at the table, a vegetarian dish also goes without its optional animal
    seasoning (a spoon of 蚝油), so what is served to them as vegetarian is.
    """
    if dish.tags & excl.tags or any(w in dish.name for w in excl.words):
        return None
    for_vegetarians = excl.veg_guests > 0 and "vegetarian" in dish.tags
    kept: dict[str, float] = {}
    for name, grams in dish.ingredients_g.items():
        tags = catalog.ingredients[name].tags
        if excl.excludes(name, tags, catalog) or (for_vegetarians and tags & _ANIMAL):
            if name in dish.optional:
                continue
            return None
        kept[name] = grams
    return kept
