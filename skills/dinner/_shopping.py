"""Shopping list arithmetic: aggregate ingredient grams, use pantry stock first, round to what a shop sells."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from skills.cookbook.catalog import Catalog, Ingredient

__all__ = ["ShoppingItem", "ShoppingList", "build_shopping_list", "shopping_cost"]

_ROUND_G = 50.0  # loose produce and meat are bought in 50 g steps (一两)


@dataclass(frozen=True, slots=True)
class ShoppingItem:
    """One line of a shopping list: what to buy, how much, its typical price (yuan).

    Eggs (鸡蛋, 皮蛋, 咸鸭蛋) are counted (``pieces``); everything else is weighed, packaged goods in
    whole ``packs``.
    """

    name: str
    grams: float
    price: float
    pieces: int | None = None
    packs: int | None = None

    def quantity_text(self, unit: str = "克") -> str:
        """The quantity in the plan's one weight unit (克 or 斤), or 个 for eggs: 6个 / 350克 / 1.5斤."""
        if self.pieces is not None:
            return f"{self.pieces}个"
        if unit == "斤":
            text = f"{round(self.grams / 500, 2):g}斤"
        else:
            text = f"{round(self.grams)}克"
        return f"{text}（{self.packs}袋）" if self.packs is not None else text


@dataclass(frozen=True, slots=True)
class ShoppingList:
    """What to buy, what comes from the pantry (grams), what is assumed at home, and the weight unit."""

    items: tuple[ShoppingItem, ...]
    from_pantry: tuple[tuple[str, float], ...]
    basics: tuple[str, ...]
    unit: str = "克"

    @property
    def total(self) -> float:
        """The typical cost of every item, rounded to fen."""
        return round(sum(i.price for i in self.items), 2)


def _bought(ing: Ingredient, missing: float) -> tuple[float, int | None, int | None]:
    """What a shop sells for ``missing`` grams: (grams, eggs counted, packs)."""
    if "egg" in ing.tags and ing.piece_g:
        pieces = math.ceil(missing / ing.piece_g - 1e-9)
        return pieces * ing.piece_g, pieces, None
    if ing.pack_g:
        packs = math.ceil(missing / ing.pack_g - 1e-9)
        return packs * ing.pack_g, None, packs
    return math.ceil(missing / _ROUND_G - 1e-9) * _ROUND_G, None, None


def shopping_cost(need_g: Mapping[str, float], pantry_g: Mapping[str, float], catalog: Catalog,
                  premium: frozenset[str] = frozenset()) -> float:
    """What :func:`build_shopping_list` would total, without building it (the planner prices many menus)."""
    total = 0.0
    for name, grams in need_g.items():
        ing = catalog.ingredients[name]
        if ing.basic:
            continue
        missing = grams - min(max(0.0, pantry_g.get(name, 0.0)), grams)
        if missing <= 1e-6:
            continue
        per_500g = ing.premium[1] if name in premium and ing.premium is not None else ing.price_per_500g
        total += round(per_500g * _bought(ing, missing)[0] / 500, 2)
    return round(total, 2)


def build_shopping_list(need_g: Mapping[str, float], pantry_g: Mapping[str, float],
                        catalog: Catalog, premium: frozenset[str] = frozenset()) -> ShoppingList:
    """Turn the grams a menu needs into a shopping list; pantry stock is used first.

    ``premium`` names ingredients bought in their better grade (土鸡蛋 for 鸡蛋, …). One weight unit
    for the whole list: 斤 when something weighs a kilo or more, else 克.
    """
    items: list[ShoppingItem] = []
    used: list[tuple[str, float]] = []
    basics: list[str] = []
    for name in sorted(need_g):
        grams = need_g[name]
        ing = catalog.ingredients[name]
        if ing.basic:
            basics.append(name)
            continue
        stock = max(0.0, pantry_g.get(name, 0.0))
        take = min(stock, grams)
        if take > 0:
            used.append((name, round(take, 1)))
        missing = grams - take
        if missing <= 1e-6:
            continue
        label, per_500g = ing.name, ing.price_per_500g
        if name in premium and ing.premium is not None:
            label, per_500g = ing.premium
        bought, pieces, packs = _bought(ing, missing)
        items.append(ShoppingItem(label, bought, round(per_500g * bought / 500, 2), pieces=pieces, packs=packs))
    heavy = any(i.grams >= 1000 and i.pieces is None for i in items)
    return ShoppingList(tuple(items), tuple(used), tuple(basics), "斤" if heavy else "克")
