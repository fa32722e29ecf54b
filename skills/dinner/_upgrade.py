"""Moving a menu's cost: cheaper swaps until it fits a budget, upgrades while an ample budget allows,
and what the upgrades bought, said in the words of the menu shown.

Every change keeps the menu's rules: no main ingredient twice, a vegetarian dish is only replaced by
another vegetarian dish, different protein sources while they can be had.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from skills.dinner._menu import Option, protein_group


class Builder(Protocol):
    """What moving a menu's cost needs of the planner's builder: the request, the catalog, the price."""

    req: Any
    catalog: Any

    def cost(self, chosen: Mapping[str, list[Option]], premium: frozenset[str] = ...) -> float: ...

__all__ = ["fit", "spend_notes", "upgrade"]

Chosen = dict[str, list[Option]]
MAX_EXTRA_DISHES = 2
_SWAPS_PER_DISH = 6



def _others_mains(chosen: Chosen, skip: Option | None) -> set[str]:
    return {m for opts in chosen.values() for o in opts if o is not skip for m in o.mains}


def _can_replace(current: Option, cand: Option, chosen: Chosen, category: str, keep_veg: bool) -> bool:
    if cand in chosen.get(category, []) or cand.mains & _others_mains(chosen, current):
        return False
    return cand.vegetarian or not current.vegetarian or not keep_veg


def _swapped(chosen: Chosen, category: str, i: int, cand: Option) -> Chosen:
    trial = {c: list(os_) for c, os_ in chosen.items()}
    trial[category][i] = cand
    return trial


def fit(builder: Builder, chosen: Chosen, options: Mapping[str, list[Option]], *, keep_veg: bool = False,
        budget: float | None = None, pinned: frozenset[str] = frozenset()) -> float:
    """Swap dishes for cheaper ones (biggest saving first) until the menu costs at most the budget; the
    ``pinned`` dishes (the ones the user asked for) stay."""
    limit = budget if budget is not None else builder.req.budget
    cost = builder.cost(chosen)
    while cost > limit:
        best: tuple[float, str, int, Option] | None = None
        for category, opts in chosen.items():
            for i, current in enumerate(opts):
                if current.dish.name in pinned:
                    continue
                for cand in options.get(category, []):
                    if cand.unit_cost >= current.unit_cost or not _can_replace(current, cand, chosen, category, keep_veg):
                        continue
                    trial_cost = builder.cost(_swapped(chosen, category, i, cand))
                    if trial_cost < cost - 1e-9 and (best is None or trial_cost < best[0]):
                        best = (trial_cost, category, i, cand)
        if best is None:
            break
        cost, category, i, cand = best
        chosen[category][i] = cand
    return cost


Step = tuple[float, str, Chosen, frozenset[str]]  # cost after the step, how to say it, the menu, premium grades


def _steps(builder: Builder, chosen: Chosen, options: Mapping[str, list[Option]],
           premium: frozenset[str], base_dishes: int, keep_veg: bool) -> list[Step]:
    steps: list[Step] = []
    groups = {protein_group(o.dish) for o in chosen.get("protein", [])}
    for i, current in enumerate(chosen.get("protein", [])):
        if any(builder.req.pantry_g.get(n, 0.0) > 0 for n in current.mains):
            continue  # it uses what is at home: keep it
        tried = 0
        for cand in options.get("protein", []):
            if tried >= _SWAPS_PER_DISH:
                break
            if cand.unit_cost <= current.unit_cost * 1.2 or not _can_replace(current, cand, chosen, "protein", keep_veg):
                continue
            if protein_group(cand.dish) in groups - {protein_group(current.dish)}:
                continue
            tried += 1
            trial = _swapped(chosen, "protein", i, cand)
            steps.append((builder.cost(trial, premium), f"{current.dish.name}换成{cand.dish.name}",
                          trial, premium))
    dishes = len(chosen.get("protein", [])) + len(chosen.get("vegetable", []))
    if dishes < base_dishes + (1 if base_dishes <= 2 else MAX_EXTRA_DISHES):
        for category in ("protein", "vegetable"):
            used = _others_mains(chosen, None)
            extra = next((o for o in options.get(category, []) if o not in chosen.get(category, [])
                          and not o.mains & used and protein_group(o.dish) not in groups), None)
            if extra is not None:
                trial = {c: list(os_) for c, os_ in chosen.items()}
                trial.setdefault(category, []).append(extra)
                steps.append((builder.cost(trial, premium), f"多加一道{extra.dish.name}",
                              trial, premium))
    if "soup" not in chosen:
        used = _others_mains(chosen, None)
        soup = next((o for o in options.get("soup", []) if not o.mains & used), None)
        if soup is not None:
            trial = {**{c: list(os_) for c, os_ in chosen.items()}, "soup": [soup]}
            steps.append((builder.cost(trial, premium), f"加一个{soup.dish.name}", trial, premium))
    ingredients = builder.catalog.ingredients
    names = sorted({n for opts in chosen.values() for o in opts for n in o.ingredients})
    for name in names:
        ing = ingredients.get(name)
        if ing is None or ing.premium is None or name in premium:
            continue
        better = premium | {name}
        steps.append((builder.cost(chosen, better), f"{name}换成{ing.premium[0]}", chosen, better))
    return steps


def upgrade(builder: Builder, chosen: Chosen, options: Mapping[str, list[Option]], aim: float,
            budget: float, *, keep_veg: bool = False) -> tuple[Chosen, frozenset[str], tuple[str, ...]]:
    """Spend towards ``aim`` (never over ``budget``): the step that lands closest below it, one at a time."""
    premium: frozenset[str] = frozenset()
    done: list[str] = []
    cost = builder.cost(chosen)
    base_dishes = len(chosen.get("protein", [])) + len(chosen.get("vegetable", []))
    while cost < aim - 1e-9:
        steps = [s for s in _steps(builder, chosen, options, premium, base_dishes, keep_veg)
                 if cost + 0.01 < s[0] <= budget + 1e-9]
        if not steps:
            break
        below = [s for s in steps if s[0] <= aim]
        step = max(below, key=lambda s: (s[0], s[1])) if below else min(steps, key=lambda s: (s[0], s[1]))
        cost, _, chosen, premium = step
        done.append(step[1])
        if not below:
            break
    return chosen, premium, tuple(d for d in done if d not in done[: done.index(d)])


def _names(chosen: Chosen, category: str) -> list[str]:
    return [o.dish.name for o in chosen.get(category, [])]


def spend_notes(base: Chosen, bought: Chosen, shown: Chosen, premium: frozenset[str], catalog: Any,
                asked: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """What an ample budget bought, as the net change from the menu before the upgrades (``base``) to
    the one they made (``bought``), naming only what the user is shown (``shown``, after their own swaps
    and any refit): dishes put in (换上白灼虾), dishes added (多加一道蒜蓉西兰花), a soup (加一个紫菜蛋花汤),
    better grades of what the shown dishes use (鸡蛋换成土鸡蛋). A dish the user asked for (``asked``) is
    theirs, not the budget's. The upgrades' own steps are not told: one may be undone by a later one
    ("A换成B", then "B换成C"), and the dish a step took out was never shown."""
    on_menu = {o.dish.name for opts in shown.values() for o in opts} - asked
    notes: list[str] = []
    for category in ("protein", "vegetable", "soup"):
        before = _names(base, category)
        new = [n for n in _names(bought, category) if n not in before]
        added = max(0, len(_names(bought, category)) - len(before))
        put_in, extra = new[:len(new) - added], new[len(new) - added:]
        notes += [f"换上{n}" for n in put_in if n in on_menu]
        say = "加一个" if category == "soup" else "多加一道"
        notes += [f"{say}{n}" for n in extra if n in on_menu]
    used = {name for opts in shown.values() for o in opts for name in o.ingredients}
    for name in sorted(premium & used):
        ing = catalog.ingredients.get(name)
        if ing is not None and ing.premium:
            notes.append(f"{name}换成{ing.premium[0]}")
    return tuple(dict.fromkeys(notes))
