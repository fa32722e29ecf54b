"""recipe.query: "番茄炒蛋怎么做" → ingredients and steps from the catalog; an unknown dish is said to be unknown."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from runtime.skill import ActionSpec, SkillResult, SkillSpec, SlotSpec, SlotType
from runtime.views import ExecView
from skills.dinner.catalog import Dish, load_catalog

__all__ = ["SPEC", "extract_dish", "query"]

_ASKED = re.compile(r"(.{2,12}?)(?:要)?(?:怎么做|怎么炒|怎么烧|怎么煮|如何做|的做法|做法|菜谱|食谱|要放什么|需要什么)")


def extract_dish(text: str) -> str | None:
    """The catalog dish named in ``text``; else the dish-like phrase before 怎么做/做法 (may be unknown)."""
    dish = load_catalog().find_dish(text)
    if dish is not None:
        return dish.name
    m = _ASKED.search(text)
    if m is None:
        return None
    name = re.sub(r"^(请问|请|我想|想|问下|问一下|教我|告诉我|你知道)+", "", m.group(1)).strip("，,。？? ")
    return name or None


def _grams(grams: float) -> str:
    return f"{grams:g}克"


def _recipe_text(dish: Dish) -> str:
    catalog = load_catalog()
    main = [f"{n}{_grams(g)}" for n, g in dish.ingredients_g.items() if not catalog.ingredients[n].basic]
    basics = [n for n in dish.ingredients_g if catalog.ingredients[n].basic]
    lines = [f"【{dish.name}】（1人份）", "用料：" + "、".join(main)]
    if basics:
        lines.append("调料：" + "、".join(basics) + "、盐适量")
    lines.extend(f"{i}. {step}" for i, step in enumerate(dish.steps, 1))
    n = dish.nutrition
    lines.append(f"每份约{round(n.kcal)}千卡，蛋白质{round(n.protein)}克。")
    return "\n".join(lines)


def query(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """Look the dish up in the catalog."""
    asked = str(params.get("dish") or "").strip()
    catalog = load_catalog()
    dish = catalog.dish(asked) or catalog.find_dish(asked)
    if dish is None:
        reply = f"“{asked}”我的菜谱里还没有，暂时给不出靠谱的做法。" if asked else "想问哪道菜的做法？"
        return SkillResult(reply, dto={"dish": asked, "known": False}, ok=False)
    dto = {"dish": dish.name, "known": True, "category": dish.category,
           "ingredients_g": dict(dish.ingredients_g), "steps": list(dish.steps),
           "nutrition_per_serving": dish.nutrition.rounded()}
    return SkillResult(_recipe_text(dish), data=dto, dto=dto, facts={"dish": dish.name})


SPEC = SkillSpec(
    name="recipes",
    description="家常菜做法",
    actions=(
        ActionSpec(
            name="query", intent="recipe.query", run=query, read_only=True,
            slots=(SlotSpec("dish", SlotType.TEXT, "想问哪道菜的做法？", extract=extract_dish),),
            description="查一道菜的用料和步骤",
        ),
    ),
)
