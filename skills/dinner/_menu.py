"""Choosing dishes: the menu's shape for a head count, the allowed options, and a balanced pick.

Pure functions. Two dishes of a menu never share a main ingredient (番茄 or 鸡蛋 at most once);
protein dishes come from different sources (pork, poultry, beef, fish, …) while they can; guests
who eat vegetarian get enough vegetarian dishes, one of them a protein dish (tofu or eggs).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from skills.cookbook.catalog import Catalog, Dish
from skills.dinner.exclusions import Exclusions, allowed_ingredients

__all__ = ["ORDER", "Option", "Shape", "choose", "menu_shape", "options_for", "protein_group"]

ORDER = ("staple", "protein", "vegetable", "soup", "dessert")
MAX_DISHES = 12
_GROUPS = ("shellfish", "seafood", "fish", "beef", "lamb", "poultry", "pork", "egg", "soy")
# servings per person: (staple, protein, vegetable); soup is one bowl each
FACTORS: dict[str | None, tuple[float, float, float]] = {
    None: (1.0, 1.0, 1.0), "减脂": (0.7, 1.0, 1.5), "增肌": (1.3, 1.5, 1.0), "控糖": (0.8, 1.1, 1.3),
}


@dataclass(frozen=True, slots=True)
class Shape:
    """How many dishes of each kind, and how many of them must be vegetarian."""

    protein: int
    vegetable: int
    soup: int
    vegetarian: int = 0
    dessert: int = 0  # only when asked for ("再加一道甜品")

    @property
    def dishes(self) -> int:
        return self.protein + self.vegetable


@dataclass(frozen=True, slots=True, eq=False)
class Option:
    """A dish the restrictions allow, with its kept ingredients, preference score and cost per serving."""

    dish: Dish
    ingredients: Mapping[str, float]
    score: float
    unit_cost: float
    mains: frozenset[str]

    @property
    def vegetarian(self) -> bool:
        return "vegetarian" in self.dish.tags


def menu_shape(people: int, veg_guests: int = 0) -> Shape:
    """About one dish per person (at least 一荤一素), half of them protein dishes, and a soup for two or more.

    Vegetarian guests (some of the table) need ``max(2, their share)`` vegetarian dishes, one of them
    a protein dish; :func:`choose` adds them rather than taking meat away from the others.
    """
    dishes = max(2, min(people, MAX_DISHES))
    veg = max(2, math.ceil(dishes * veg_guests / people)) if 0 < veg_guests < people else 0
    protein = math.ceil(dishes / 2)
    return Shape(protein, dishes - protein, 1 if people >= 2 else 0, veg)


def protein_group(dish: Dish) -> str:
    """The protein source of a dish (two protein dishes of a menu should differ in it)."""
    group = next((g for g in _GROUPS if g in dish.tags), None)
    return group if group is not None else dish.main_ingredient


def _goal_score(dish: Dish, goal: str | None) -> float:
    n = dish.nutrition
    if goal == "减脂":
        return n.kcal / 100 + n.fat / 10 - (1.0 if "light" in dish.tags else 0.0)
    if goal == "增肌":
        return -n.protein / 5
    if goal == "控糖":
        penalty = 5.0 if "sugary" in dish.tags else 0.0
        if dish.category == "staple" and "low_gi" not in dish.tags:
            penalty += 3.0
        return n.carbohydrate / 10 + penalty
    return 0.0


def options_for(catalog: Catalog, excl: Exclusions, goal: str | None,
                pantry_g: Mapping[str, float]) -> dict[str, list[Option]]:
    """Allowed dishes per category, best first (pantry stock, goal, then catalog order: familiar first)."""
    by_cat: dict[str, list[Option]] = {c: [] for c in ORDER}
    for index, dish in enumerate(catalog.dishes):
        kept = allowed_ingredients(dish, excl, catalog)
        if kept is None:
            continue
        bought = {n: g for n, g in kept.items() if not catalog.ingredients[n].basic}
        cost = sum(catalog.ingredients[n].price_of(g) for n, g in bought.items())
        at_home = sum(min(g, pantry_g.get(n, 0.0)) for n, g in bought.items()) / max(1.0, sum(bought.values()))
        score = _goal_score(dish, goal) - 4.0 * at_home + index / 1000
        mains = frozenset(n for n in dish.mains(catalog) if n in kept) or frozenset(kept)
        by_cat[dish.category].append(Option(dish, kept, score, cost, mains))
    for opts in by_cat.values():
        opts.sort(key=lambda o: (o.score, o.unit_cost))
    return by_cat


def _fits(opt: Option, used: set[str]) -> bool:
    return not opt.mains & used


def choose(options: Mapping[str, list[Option]], shape: Shape, *, cheapest: bool = False) -> dict[str, list[Option]]:
    """Pick dishes for ``shape``: vegetarian ones first when guests need them, distinct mains, varied protein."""
    used: set[str] = set()
    groups: set[str] = set()
    chosen: dict[str, list[Option]] = {c: [] for c in ORDER}

    def ranked(category: str) -> list[Option]:
        opts = options.get(category, [])
        return sorted(opts, key=lambda o: (o.unit_cost, o.score)) if cheapest else list(opts)

    def take(category: str, pool: Iterable[Option], n: int, *, vary: bool) -> None:
        for opt in pool:
            if n <= 0:
                return
            group = protein_group(opt.dish)
            if opt in chosen[category] or not _fits(opt, used) or (vary and group in groups):
                continue
            chosen[category].append(opt)
            used.update(opt.mains)
            groups.add(group)
            n -= 1

    take("staple", ranked("staple"), 1, vary=False)
    for category, count in (("protein", shape.protein), ("vegetable", shape.vegetable)):
        pool = ranked(category)
        take(category, pool, count, vary=category == "protein")
        take(category, pool, count - len(chosen[category]), vary=False)
    if len(chosen["protein"]) + len(chosen["vegetable"]) < shape.dishes:  # not enough of one kind: use the other
        for category in ("vegetable", "protein"):
            take(category, ranked(category), shape.dishes - len(chosen["protein"]) - len(chosen["vegetable"]),
                 vary=False)
    if shape.vegetarian:  # add (never swap in) what the vegetarian guests need
        if not any(o.vegetarian for o in chosen["protein"]):
            take("protein", [o for o in ranked("protein") if o.vegetarian], 1, vary=False)
        have = sum(o.vegetarian for c in ("protein", "vegetable") for o in chosen[c])
        take("vegetable", [o for o in ranked("vegetable") if o.vegetarian], shape.vegetarian - have, vary=False)
    if shape.soup:
        soups = ranked("soup")
        if shape.vegetarian:
            soups = [o for o in soups if o.vegetarian] + [o for o in soups if not o.vegetarian]
        take("soup", soups, shape.soup, vary=False)
    if shape.dessert:
        take("dessert", ranked("dessert"), shape.dessert, vary=False)
    return {c: opts for c, opts in chosen.items() if opts}
