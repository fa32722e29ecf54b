"""Shopping list arithmetic: aggregate ingredient grams, use pantry stock first, round to what a shop sells."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from skills.dinner.catalog import Catalog

__all__ = ["ShoppingItem", "ShoppingList", "build_shopping_list"]

_ROUND_G = 50.0  # loose produce and meat are bought in 50 g steps (一两)


@dataclass(frozen=True, slots=True)
class ShoppingItem:
    """One line of a shopping list: what to buy, how much, its typical price (yuan)."""

    name: str
    grams: float
    price: float
    pieces: int | None = None
    packs: int | None = None

    def quantity_text(self) -> str:
        """How a person would say the quantity: 3个 / 1袋 / 350克 / 1.5斤."""
        if self.pieces is not None:
            return f"{self.pieces}个"
        if self.packs is not None:
            return f"{self.packs}袋"
        if self.grams >= 500:
            jin = self.grams / 500
            return f"{jin:g}斤" if jin * 10 == int(jin * 10) else f"{round(self.grams)}克"
        return f"{round(self.grams)}克"


@dataclass(frozen=True, slots=True)
class ShoppingList:
    """What to buy, what comes from the pantry (grams), and what is assumed at home."""

    items: tuple[ShoppingItem, ...]
    from_pantry: tuple[tuple[str, float], ...]
    basics: tuple[str, ...]

    @property
    def total(self) -> float:
        """The typical cost of every item, rounded to fen."""
        return round(sum(i.price for i in self.items), 2)


def build_shopping_list(need_g: Mapping[str, float], pantry_g: Mapping[str, float],
                        catalog: Catalog) -> ShoppingList:
    """Turn the grams a menu needs into a shopping list; pantry stock is used first."""
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
        if ing.piece_g:
            pieces = math.ceil(missing / ing.piece_g - 1e-9)
            bought = pieces * ing.piece_g
            items.append(ShoppingItem(name, bought, round(ing.price_of(bought), 2), pieces=pieces))
        elif ing.pack_g:
            packs = math.ceil(missing / ing.pack_g - 1e-9)
            bought = packs * ing.pack_g
            items.append(ShoppingItem(name, bought, round(ing.price_of(bought), 2), packs=packs))
        else:
            bought = math.ceil(missing / _ROUND_G - 1e-9) * _ROUND_G
            items.append(ShoppingItem(name, bought, round(ing.price_of(bought), 2)))
    return ShoppingList(tuple(items), tuple(used), tuple(basics))
