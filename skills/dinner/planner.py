"""The deterministic dinner planner: people, budget, exclusions, goal, pantry → :class:`DinnerPlan`.

A pure function. The menu has one staple, protein and vegetable dishes (more of them as the group
grows) and, when the budget allows, a soup. Servings per category are fixed per person (and by
goal), so quantities scale with the group. When the preferred menu costs too much the planner
swaps in cheaper dishes, drops the soup, then uses fewer distinct dishes; if even the cheapest
sensible menu exceeds the budget it returns that menu flagged ``within_budget=False``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from skills.dinner._shopping import ShoppingItem, ShoppingList, build_shopping_list
from skills.dinner.catalog import Catalog, Dish, Nutrition, load_catalog
from skills.dinner.exclusions import Exclusions, allowed_ingredients, parse_exclusions

__all__ = ["DinnerPlan", "MenuItem", "PlanRequest", "ShoppingItem", "ShoppingList", "dish_counts", "plan_dinner"]

GOALS = ("减脂", "增肌", "控糖")
# servings per person: (staple, protein, vegetable); soup is one bowl each
_FACTORS: dict[str | None, tuple[float, float, float]] = {
    None: (1.0, 1.0, 1.0), "减脂": (0.7, 1.0, 1.5), "增肌": (1.3, 1.5, 1.0), "控糖": (0.8, 1.1, 1.3),
}


@dataclass(frozen=True, slots=True)
class PlanRequest:
    """Everything the planner needs. ``pantry_g`` maps canonical ingredient names to grams at home."""

    people: int
    budget: float
    exclusions: Sequence[str] = ()
    goal: str | None = None
    dislikes: Sequence[str] = ()
    allergies: Sequence[str] = ()
    pantry_g: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class MenuItem:
    """A dish on the menu, its servings for the whole group and the garnishes left out."""

    name: str
    category: str
    servings: float
    ingredients_g: Mapping[str, float]
    dropped: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class DinnerPlan:
    """The result: menu, shopping list, total, nutrition per person and the budget check."""

    people: int
    budget: float
    goal: str | None
    menu: tuple[MenuItem, ...]
    shopping: ShoppingList
    nutrition_per_person: Nutrition
    within_budget: bool
    exclusions: Exclusions
    notes: tuple[str, ...] = ()

    @property
    def total(self) -> float:
        """What the shopping list costs (typical prices, yuan)."""
        return self.shopping.total

    def used_ingredients(self) -> set[str]:
        """Every ingredient any dish of the menu uses."""
        return {name for item in self.menu for name in item.ingredients_g}


def dish_counts(people: int) -> tuple[int, int, int]:
    """How many (protein, vegetable, soup) dishes a group of ``people`` gets."""
    table = ((1, 1, 1, 0), (2, 1, 1, 1), (3, 2, 1, 1), (4, 2, 2, 1), (6, 3, 2, 1), (9, 3, 3, 1), (14, 4, 3, 1))
    for limit, protein, veg, soup in table:
        if people <= limit:
            return protein, veg, soup
    return 4, 4, 1


@dataclass(frozen=True, slots=True)
class _Option:
    dish: Dish
    ingredients: Mapping[str, float]
    score: float
    unit_cost: float


_GROUPS = ("seafood", "fish", "beef", "poultry", "pork", "egg", "soy")


def _variety_key(dish: Dish) -> str:
    """Two dishes of a menu should differ in this: the protein source, else the main ingredient."""
    if dish.category == "protein":
        return next((g for g in _GROUPS if g in dish.tags), dish.main_ingredient)
    return dish.main_ingredient


def _goal_score(dish: Dish, goal: str | None) -> float:
    n = dish.nutrition
    if goal is None:
        return -1.0 if dish.category == "protein" and "meat" in dish.tags else 0.0
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


def _options(catalog: Catalog, excl: Exclusions, goal: str | None,
             pantry_g: Mapping[str, float]) -> dict[str, list[_Option]]:
    by_cat: dict[str, list[_Option]] = {"staple": [], "protein": [], "vegetable": [], "soup": []}
    for index, dish in enumerate(catalog.dishes):
        kept = allowed_ingredients(dish, excl, catalog)
        if kept is None:
            continue
        cost = sum(catalog.ingredients[n].price_of(g) for n, g in kept.items() if not catalog.ingredients[n].basic)
        bought = {n: g for n, g in kept.items() if not catalog.ingredients[n].basic}
        at_home = sum(min(g, pantry_g.get(n, 0.0)) for n, g in bought.items()) / max(1.0, sum(bought.values()))
        # pantry stock first; catalog order breaks ties (familiar dishes come first)
        score = _goal_score(dish, goal) - 4.0 * at_home + index / 1000
        by_cat[dish.category].append(_Option(dish, kept, score, cost))
    for opts in by_cat.values():
        opts.sort(key=lambda o: (o.score, o.unit_cost))
    return by_cat


def _pick(options: list[_Option], n: int, taken: set[str]) -> list[_Option]:
    """The first ``n`` options of distinct variety (repeats only when there is no other way)."""
    chosen: list[_Option] = []
    for opt in options:
        if len(chosen) < n and _variety_key(opt.dish) not in taken:
            chosen.append(opt)
            taken.add(_variety_key(opt.dish))
    for opt in options:
        if len(chosen) < n and opt not in chosen and opt.dish.main_ingredient not in taken:
            chosen.append(opt)
            taken.add(opt.dish.main_ingredient)
    return chosen


class _Builder:
    """Prices candidate menus for one request (servings per category are fixed)."""

    def __init__(self, req: PlanRequest, catalog: Catalog) -> None:
        self.req, self.catalog = req, catalog
        staple, protein, veg = _FACTORS.get(req.goal, _FACTORS[None])
        self.totals = {"staple": staple * req.people, "protein": protein * req.people,
                       "vegetable": veg * req.people, "soup": float(req.people)}

    def menu(self, chosen: Mapping[str, list[_Option]]) -> tuple[MenuItem, ...]:
        items: list[MenuItem] = []
        for category in ("staple", "protein", "vegetable", "soup"):
            opts = chosen.get(category, [])
            for opt in opts:
                servings = round(self.totals[category] / len(opts), 3)
                grams = {n: round(g * servings, 1) for n, g in opt.ingredients.items()}
                dropped = tuple(sorted(set(opt.dish.ingredients_g) - set(opt.ingredients)))
                items.append(MenuItem(opt.dish.name, category, servings, grams, dropped))
        return tuple(items)

    def shopping(self, menu: tuple[MenuItem, ...]) -> ShoppingList:
        need: dict[str, float] = {}
        for item in menu:
            for name, grams in item.ingredients_g.items():
                need[name] = need.get(name, 0.0) + grams
        return build_shopping_list(need, self.req.pantry_g, self.catalog)

    def cost(self, chosen: Mapping[str, list[_Option]]) -> float:
        return self.shopping(self.menu(chosen)).total


def _fit(builder: _Builder, chosen: dict[str, list[_Option]], options: Mapping[str, list[_Option]]) -> float:
    """Swap dishes for cheaper ones (biggest saving first) until the menu fits; returns its cost."""
    cost = builder.cost(chosen)
    while cost > builder.req.budget:
        best: tuple[float, str, int, _Option] | None = None
        for category, opts in chosen.items():
            for i, current in enumerate(opts):
                others = {_variety_key(o.dish) for c, os_ in chosen.items() for o in os_ if o is not current}
                for cand in options[category]:
                    if cand in opts or _variety_key(cand.dish) in others:
                        continue
                    trial = {c: list(os_) for c, os_ in chosen.items()}
                    trial[category][i] = cand
                    trial_cost = builder.cost(trial)
                    if trial_cost < cost - 1e-9 and (best is None or trial_cost < best[0]):
                        best = (trial_cost, category, i, cand)
        if best is None:
            break
        cost, category, i, cand = best
        chosen[category][i] = cand
    return cost


def plan_dinner(req: PlanRequest, catalog: Catalog | None = None) -> DinnerPlan:
    """Plan one dinner for ``req``. Deterministic: the same request always gives the same plan."""
    if not 1 <= req.people <= 20:
        raise ValueError(f"people must be 1..20, got {req.people}")
    catalog = catalog or load_catalog()
    goal = req.goal if req.goal in GOALS else None
    excl = (parse_exclusions(req.exclusions, catalog) | parse_exclusions(req.dislikes, catalog)
            | parse_exclusions(req.allergies, catalog))
    options = _options(catalog, excl, goal, req.pantry_g)
    builder = _Builder(req, catalog)
    notes: list[str] = []
    n_protein, n_veg, n_soup = dish_counts(req.people)
    if not options["protein"]:
        notes.append("按你的忌口，菜谱里没有合适的荤菜/豆蛋类菜，多安排了蔬菜。")
        n_protein, n_veg = 0, n_veg + 1
    want = {"staple": 1, "protein": n_protein, "vegetable": n_veg, "soup": n_soup}

    def choose(counts: Mapping[str, int], cheapest: bool) -> dict[str, list[_Option]]:
        taken: set[str] = set()
        chosen: dict[str, list[_Option]] = {}
        for category in ("staple", "protein", "vegetable", "soup"):
            opts = options[category]
            if cheapest:
                opts = sorted(opts, key=lambda o: (o.unit_cost, o.score))
            picked = _pick(opts, counts[category], taken)
            if picked:
                chosen[category] = picked
        return chosen

    chosen = choose(want, cheapest=False)
    cost = _fit(builder, chosen, options)
    if cost > req.budget and "soup" in chosen:
        del chosen["soup"]
        cost = _fit(builder, chosen, options)
        notes.append("为了控制预算，没有安排汤。")
    if cost > req.budget:
        lean = {"staple": 1, "protein": min(1, want["protein"]), "vegetable": 1, "soup": 0}
        candidate = choose(lean, cheapest=True)
        if builder.cost(candidate) < cost:
            chosen, cost = candidate, builder.cost(candidate)
            notes.append("预算有限，菜的种类减少了，每样多做一些。")
    if not chosen:
        notes.append("按这些忌口，菜谱里找不到能做的菜。")
    menu = builder.menu(chosen)
    shopping = builder.shopping(menu)
    nutrition = Nutrition()
    for item in menu:
        for name, grams in item.ingredients_g.items():
            nutrition = nutrition + catalog.ingredients[name].per_100g.scaled(grams / 100)
    return DinnerPlan(
        people=req.people, budget=req.budget, goal=goal, menu=menu, shopping=shopping,
        nutrition_per_person=nutrition.scaled(1 / req.people),
        within_budget=bool(menu) and shopping.total <= req.budget + 1e-9,
        exclusions=excl, notes=tuple(dict.fromkeys(notes)),
    )
