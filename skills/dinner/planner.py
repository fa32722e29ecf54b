"""The deterministic dinner planner: people, budget, restrictions, goal, pantry → :class:`DinnerPlan`.

A pure function. About one dish per person (half of them protein dishes from different sources),
a staple sized to the group, a soup for two or more; no main ingredient twice. Servings per
category are fixed per person, so quantities scale with the group.

Budget: a menu that costs too much swaps in cheaper dishes, drops the soup, then has fewer dishes;
if even one dish and the staple exceed the budget, the cheapest menu is returned flagged
``within_budget=False``. An ample budget is used: better dishes (fish, shrimp, beef), an extra
dish, better grades (土鸡蛋, 黑猪肉), aiming at three quarters of the budget — never over it, and
never more than a generous ¥:data:`GENEROUS_PER_PERSON` a head, which a home dinner does not need
to exceed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from skills.cookbook.catalog import Catalog, Nutrition, load_catalog
from skills.dinner._menu import FACTORS, ORDER, Option, Shape, choose, menu_shape, options_for
from skills.dinner._shopping import ShoppingItem, ShoppingList, build_shopping_list, shopping_cost
from skills.dinner._upgrade import fit, spend_notes, upgrade
from skills.dinner.exclusions import Exclusions, allowed_ingredients, parse_exclusions

__all__ = ["GENEROUS_PER_PERSON", "DinnerPlan", "MenuItem", "PlanRequest", "ShoppingItem", "ShoppingList",
           "allowed_dishes", "dish_counts", "plan_dinner"]

GOALS = ("减脂", "增肌", "控糖")
GENEROUS_PER_PERSON = 60.0
AIM = 0.75


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
    avoid: Sequence[str] = ()  # dish names not to choose ("第一个菜换掉")
    extra: Sequence[str] = ()  # categories to add a dish of ("再来个汤": soup)
    dishes: int | None = None  # at most this many dishes ("一个菜就够")
    swaps: Sequence[tuple[str, str]] = ()  # (dish out, dish in) the user asked for ("把汤换成紫菜蛋花汤")


@dataclass(frozen=True, slots=True)
class MenuItem:
    """A dish on the menu, its servings for the whole group and the garnishes left out."""

    name: str
    category: str
    servings: float
    ingredients_g: Mapping[str, float]
    dropped: tuple[str, ...] = ()
    vegetarian: bool = False


@dataclass(frozen=True, slots=True)
class DinnerPlan:
    """The result: menu, shopping list, total, nutrition per person, the budget check and why."""

    people: int
    budget: float
    goal: str | None
    menu: tuple[MenuItem, ...]
    shopping: ShoppingList
    nutrition_per_person: Nutrition
    within_budget: bool
    exclusions: Exclusions
    notes: tuple[str, ...] = ()
    full_menu_cost: float = 0.0  # the cheapest full-size menu (a dish per person and a soup)
    upgrades: tuple[str, ...] = ()
    swapped: tuple[tuple[str, str], ...] = ()  # the swaps asked for that the menu honours
    refused: tuple[tuple[str, str], ...] = ()  # the swaps the restrictions (or the catalog) rule out

    @property
    def total(self) -> float:
        """What the shopping list costs (typical prices, yuan)."""
        return self.shopping.total

    def used_ingredients(self) -> set[str]:
        """Every ingredient any dish of the menu uses."""
        return {name for item in self.menu for name in item.ingredients_g}


def dish_counts(people: int) -> tuple[int, int, int]:
    """How many (protein, vegetable, soup) dishes a group of ``people`` gets."""
    shape = menu_shape(people)
    return shape.protein, shape.vegetable, shape.soup


class Builder:
    """Prices candidate menus for one request (servings per category are fixed per person)."""

    def __init__(self, req: PlanRequest, catalog: Catalog) -> None:
        self.req, self.catalog = req, catalog
        staple, protein, veg = FACTORS.get(req.goal, FACTORS[None])
        self.totals = {"staple": staple * req.people, "protein": protein * req.people,
                       "vegetable": veg * req.people, "soup": float(req.people),
                       "dessert": float(req.people)}
        self.base: dict[str, int] = {}  # dishes per category before extras: an extra dish is more food

    def servings(self, category: str, count: int) -> float:
        """Servings of each of ``count`` dishes of ``category`` (an extra dish adds, it does not split)."""
        return round(self.totals[category] / max(1, min(count, self.base.get(category, count) or count)), 3)

    def menu(self, chosen: Mapping[str, list[Option]]) -> tuple[MenuItem, ...]:
        items: list[MenuItem] = []
        for category in ORDER:
            opts = chosen.get(category, [])
            for opt in opts:
                servings = self.servings(category, len(opts))
                grams = {n: round(g * servings, 1) for n, g in opt.ingredients.items()}
                dropped = tuple(sorted(set(opt.dish.ingredients_g) - set(opt.ingredients)))
                items.append(MenuItem(opt.dish.name, category, servings, grams, dropped, opt.vegetarian))
        return tuple(items)

    def shopping(self, menu: tuple[MenuItem, ...], premium: frozenset[str] = frozenset()) -> ShoppingList:
        need: dict[str, float] = {}
        for item in menu:
            for name, grams in item.ingredients_g.items():
                need[name] = need.get(name, 0.0) + grams
        return build_shopping_list(need, self.req.pantry_g, self.catalog, premium)

    def cost(self, chosen: Mapping[str, list[Option]], premium: frozenset[str] = frozenset()) -> float:
        need: dict[str, float] = {}
        for category, opts in chosen.items():
            if not opts:
                continue
            servings = self.servings(category, len(opts))
            for opt in opts:
                for name, grams in opt.ingredients.items():
                    need[name] = need.get(name, 0.0) + round(grams * servings, 1)
        return shopping_cost(need, self.req.pantry_g, self.catalog, premium)


def _shrink(shape: Shape, *, keep_soup: bool = False) -> Shape | None:
    """The next smaller menu: no soup first (unless asked for), then one dish fewer (down to one dish)."""
    if shape.soup and not (keep_soup and shape.dishes > 1):
        return Shape(shape.protein, shape.vegetable, 0, shape.vegetarian, shape.dessert)
    if shape.dishes <= 1:
        return None
    if shape.vegetable >= shape.protein and shape.vegetable > 0:
        return Shape(shape.protein, shape.vegetable - 1, shape.soup, min(shape.vegetarian, shape.dishes - 1), shape.dessert)
    return Shape(shape.protein - 1, shape.vegetable, shape.soup, min(shape.vegetarian, shape.dishes - 1), shape.dessert)


def _asked(shape: Shape, req: PlanRequest) -> Shape:
    """The shape with the dishes asked for added ("再来个汤") and capped at the count asked for."""
    protein, vegetable, soup, dessert = shape.protein, shape.vegetable, shape.soup, shape.dessert
    for category in req.extra:
        if category == "soup":
            soup += 1
        elif category == "dessert":
            dessert += 1
        elif category == "protein" or (category == "dish" and protein <= vegetable):
            protein += 1
        else:
            vegetable += 1
    shaped: Shape | None = Shape(protein, vegetable, soup, shape.vegetarian, dessert)
    while req.dishes is not None and shaped is not None and shaped.dishes + shaped.soup > max(1, req.dishes):
        smaller = _shrink(shaped)
        if smaller is None:
            break
        shaped = smaller
    return shaped or shape


def _cheapest_meal(builder: Builder, options: Mapping[str, list[Option]]) -> tuple[dict[str, list[Option]], float]:
    """A staple and one dish, the pair whose shopping list costs least (exact, with shops' rounding)."""
    best: tuple[float, dict[str, list[Option]]] | None = None
    staples: list[list[Option]] = [[s] for s in options.get("staple", [])] or [[]]
    for staple in staples:
        for category in ("protein", "vegetable"):
            for dish in options.get(category, []):
                menu = {"staple": staple, category: [dish]} if staple else {category: [dish]}
                cost = builder.cost(menu)
                if best is None or cost < best[0]:
                    best = (cost, menu)
    return (best[1], best[0]) if best else ({}, 0.0)


def plan_dinner(req: PlanRequest, catalog: Catalog | None = None) -> DinnerPlan:
    """Plan one dinner for ``req``. Deterministic: the same request always gives the same plan."""
    if not 1 <= req.people <= 20:
        raise ValueError(f"people must be 1..20, got {req.people}")
    catalog = catalog or load_catalog()
    goal = req.goal if req.goal in GOALS else None
    excl = _exclusions(req, catalog)
    options = options_for(catalog, excl, goal, req.pantry_g)
    if req.avoid:
        options = {c: [o for o in opts if o.dish.name not in req.avoid] for c, opts in options.items()}
    builder = Builder(req, catalog)
    notes: list[str] = []
    planned = _asked(menu_shape(req.people, excl.veg_guests), req)
    keep_soup = "soup" in req.extra
    keep_veg = planned.vegetarian > 0  # vegetarian guests: their dishes are only swapped for vegetarian ones
    full = choose(options, planned, cheapest=True)
    shape: Shape | None = planned
    full_cost = builder.cost(full) if full else 0.0
    chosen: dict[str, list[Option]] = {}
    cost = float("inf")
    first = True
    while shape is not None:
        chosen = choose(options, shape)
        cost = fit(builder, chosen, options, keep_veg=keep_veg)
        if cost <= req.budget + 1e-9:
            break
        cheap = choose(options, shape, cheapest=True)
        if builder.cost(cheap) <= req.budget + 1e-9:
            chosen, cost = cheap, builder.cost(cheap)
            break
        shape = _shrink(shape, keep_soup=keep_soup)
        first = False
    if cost > req.budget + 1e-9:  # the smallest menu: a staple and the one dish that costs least
        chosen, cost = _cheapest_meal(builder, options)
    if not first and chosen and cost <= req.budget + 1e-9:
        notes.append("预算有限，菜少安排了几样（先去掉汤），每样多做一些。")
    premium: frozenset[str] = frozenset()
    base = bought = _copy(chosen)
    if cost <= req.budget + 1e-9 and chosen and req.dishes is None:  # "一个菜就够": no extra dishes
        aim = AIM * min(req.budget, GENEROUS_PER_PERSON * req.people)
        builder.base = {c: len(opts) for c, opts in chosen.items()}
        chosen, premium, _ = upgrade(builder, chosen, options, aim, req.budget, keep_veg=keep_veg)
        bought = _copy(chosen)
    swapped: list[tuple[str, str]] = []
    refused: list[tuple[str, str]] = []
    if req.swaps and chosen:
        swapped, refused = _swap_in(builder, chosen, options, req.swaps)
        outs = {out for out, _ in req.swaps}
        if builder.cost(chosen, premium) > req.budget + 1e-9:  # what was asked for stays; the rest gets cheaper
            fit(builder, chosen, {c: [o for o in opts if o.dish.name not in outs] for c, opts in options.items()},
                keep_veg=keep_veg, pinned=frozenset(into for _, into in swapped))
    upgrades = spend_notes(base, bought, chosen, premium, catalog, asked=frozenset(into for _, into in swapped))
    if not chosen:
        notes.append("按这些忌口，菜谱里找不到能做的菜。")
    menu = builder.menu(chosen)
    shopping = builder.shopping(menu, premium)
    nutrition = Nutrition()
    for item in menu:
        for name, grams in item.ingredients_g.items():
            nutrition = nutrition + catalog.ingredients[name].per_100g.scaled(grams / 100)
    return DinnerPlan(
        people=req.people, budget=req.budget, goal=goal, menu=menu, shopping=shopping,
        nutrition_per_person=nutrition.scaled(1 / req.people),
        within_budget=bool(menu) and shopping.total <= req.budget + 1e-9,
        exclusions=excl, notes=tuple(dict.fromkeys(notes)), full_menu_cost=round(full_cost, 2),
        upgrades=upgrades, swapped=tuple(swapped), refused=tuple(refused),
    )


def _copy(chosen: Mapping[str, list[Option]]) -> dict[str, list[Option]]:
    return {c: list(opts) for c, opts in chosen.items()}


def _exclusions(req: PlanRequest, catalog: Catalog) -> Exclusions:
    return (parse_exclusions(req.exclusions, catalog) | parse_exclusions(req.dislikes, catalog)
            | parse_exclusions(req.allergies, catalog))


def allowed_dishes(req: PlanRequest, catalog: Catalog | None = None) -> tuple[frozenset[str], tuple[str, ...]]:
    """The catalog dishes ``req``'s restrictions allow, and the restrictions in words (不吃辣, 不用香菜 …)."""
    catalog = catalog or load_catalog()
    excl = _exclusions(req, catalog)
    allowed = frozenset(d.name for d in catalog.dishes if allowed_ingredients(d, excl, catalog) is not None)
    return allowed, excl.labels


def _swap_in(builder: Builder, chosen: dict[str, list[Option]], options: Mapping[str, list[Option]],
             swaps: Sequence[tuple[str, str]]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Put each dish asked for in the place of the dish it replaces (in ``chosen``, in order); a dish whose
    replaced one is not on this menu takes the place of the last dish of its kind not asked for. Returns the
    swaps done and those refused (the dish asked for is not allowed by the restrictions, or unknown)."""
    by_name = {o.dish.name: (c, o) for c, opts in options.items() for o in opts}
    done: list[tuple[str, str]] = []
    refused: list[tuple[str, str]] = []
    for out, into in swaps:
        found = by_name.get(into)
        if found is None:
            refused.append((out, into))
            continue
        category, option = found
        asked = {i for _, i in done}
        place = next(((c, i) for c, opts in chosen.items() for i, o in enumerate(opts) if o.dish.name == out), None)
        if place is None and not any(o is option for o in chosen.get(category, [])):
            free = [i for i, o in enumerate(chosen.get(category, [])) if o.dish.name not in asked]
            place = (category, free[-1]) if free else None
        at = len(chosen.get(category, []))
        if place is not None:
            was, index = place
            del chosen[was][index]
            if was == category:
                at = index
            elif builder.base.get(was):  # one dish fewer of that kind, one more of this
                builder.base[was] -= 1
                builder.base[category] = builder.base.get(category, 0) + 1
            if not chosen[was]:
                del chosen[was]
        opts = chosen.setdefault(category, [])
        if not any(o is option for o in opts):
            opts.insert(min(at, len(opts)), option)
        done.append((out, into))
    return done, refused
