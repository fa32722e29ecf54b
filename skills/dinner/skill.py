"""dinner.plan — DinnerBudgetPlanning: people, budget, then (once, optional) dietary exclusions."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from runtime.skill import (
    ActionSpec,
    DomainObject,
    Entity,
    Operation,
    SkillResult,
    SkillSpec,
    SlotSpec,
    SlotType,
)
from runtime.views import ExecView
from skills.dinner._budget import budget_total
from skills.dinner._dietary import extract_dietary
from skills.dinner._followups import FOLLOW_UPS
from skills.dinner._format import format_plan, format_shopping, plan_dto, recipe_name
from skills.dinner._triggers import TRIGGERS
from skills.dinner.exclusions import NOTHING_WORDS
from skills.dinner.planner import PlanRequest, plan_dinner
from skills.pantry.skill import pantry_grams
from skills.store import get_profile

__all__ = ["SPEC", "budget_total", "plan"]

log = logging.getLogger(__name__)


def _dietary(value: Any) -> list[str]:
    if value is None:
        return []
    items = [value] if isinstance(value, str) else list(value)
    return [str(x).strip() for x in items if str(x).strip() and str(x).strip() not in NOTHING_WORDS]


def plan(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """Plan tonight's dinner for ``people`` within ``budget`` yuan, honouring exclusions and the profile."""
    people = int(params["people"])
    budget = budget_total(params["budget"], people)
    dietary = _dietary(params.get("dietary"))
    goal, dislikes, allergies, pantry = None, [], [], {}
    try:
        profile = get_profile(services.db, view.user)
        if profile is not None:
            goal, dislikes, allergies = profile.goal, list(profile.dislikes), list(profile.allergies)
        pantry = pantry_grams(services.db, view.user)
    except SQLAlchemyError:  # the plan still works without profile and pantry
        log.warning("dinner.plan: profile/pantry unavailable", exc_info=True)
    result = plan_dinner(PlanRequest(people=people, budget=budget, exclusions=dietary, goal=goal,
                                     dislikes=dislikes, allergies=allergies, pantry_g=pantry,
                                     avoid=tuple(params.get("avoid") or ()), extra=tuple(params.get("extra") or ()),
                                     dishes=int(params["dishes"]) if params.get("dishes") else None))
    dto = plan_dto(result)
    facts: dict[str, Any] = {"people": people, "budget": budget}
    if dietary:
        veg = result.exclusions.veg_guests
        facts["dislikes"] = [*result.exclusions.labels, *([f"{veg}人吃素" if veg > 1 else "有人吃素"] if veg else [])]
    if goal:
        facts["goal"] = goal
    reply = format_shopping(result) if params.get("show") == "shopping" else format_plan(result)
    if isinstance(params["budget"], str) and budget != float(str(params["budget"]).strip("人均") or 0):
        reply = f"按{params['budget']}元算，{people}个人预算¥{budget:g}。\n" + reply
    dishes = tuple(Entity("dish", m.name, recipe_name(m.name) or m.name,
                          {"category": m.category, "minor": m.category == "staple"}) for m in result.menu)
    shown = {"total": result.total, "dishes": sum(m.category != "staple" for m in result.menu)}
    return SkillResult(reply, data=dto, dto=dto, facts=facts, ok=bool(result.menu), entities=dishes, shown=shown)


SPEC = SkillSpec(
    triggers=TRIGGERS,
    name="dinner",
    description="按人数和预算安排晚饭",
    help="安排晚饭：比如“3个人预算100帮我安排晚饭”",
    objects=(DomainObject("dinner", ("晚饭", "晚餐", "菜单", "这顿饭", "这顿", "饭局", "家宴", "聚餐"),
                          ((Operation.CREATE, "dinner.plan"), (Operation.CHANGE, "dinner.plan")), noun="晚饭"),),
    actions=(
        ActionSpec(
            name="plan", intent="dinner.plan", run=plan, repeatable=True, task="安排晚饭", follow=FOLLOW_UPS,
            slots=(
                SlotSpec("people", SlotType.COUNT, "几个人吃？", minimum=1, maximum=20),
                SlotSpec("budget", SlotType.MONEY, "预算大概多少钱？", minimum=1, maximum=100000,
                         hint="家常菜一般人均三四十块就够，想吃好一点人均五六十"),
                SlotSpec("dietary", SlotType.TEXT_LIST, "有什么忌口吗？（比如不吃辣、不吃香菜、有人吃素，没有就说“没有”）",
                         required=False, ask_once=True, extract=extract_dietary, standalone=True),
            ),
            description="安排一顿晚饭：菜单、购物清单、总价和营养",
        ),
    ),
)
