"""dinner.plan — DinnerBudgetPlanning: people, budget, then (once, optional) dietary exclusions."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from runtime.skill import (
    ActionSpec,
    Choice,
    DomainObject,
    Entity,
    Operation,
    SkillResult,
    SkillSpec,
    SlotSpec,
    SlotType,
)
from runtime.skill.parsers import parse_time_phrase
from runtime.views import ExecView
from skills.cookbook.catalog import load_catalog
from skills.dinner._budget import budget_total
from skills.dinner._dietary import extract_dietary
from skills.dinner._followups import FOLLOW_UPS
from skills.dinner._format import format_plan, format_shopping, format_total, plan_dto, recipe_name
from skills.dinner._swap import closest_dishes, swaps_of
from skills.dinner._triggers import TRIGGERS
from skills.dinner._which import format_which
from skills.dinner.exclusions import NOTHING_WORDS
from skills.dinner.planner import PlanRequest, allowed_dishes, plan_dinner
from skills.pantry.skill import pantry_grams, pantry_words
from skills.store import get_profile

__all__ = ["SPEC", "budget_total", "plan"]

log = logging.getLogger(__name__)


def _dietary(value: Any) -> list[str]:
    if value is None:
        return []
    items = [value] if isinstance(value, str) else list(value)
    return [str(x).strip() for x in items if str(x).strip() and str(x).strip() not in NOTHING_WORDS]


def _swap_to(base: Mapping[str, Any], out: str, into: str) -> dict[str, Any]:
    """The plan's params with one more swap: ``out`` taken off the menu, ``into`` put in its place."""
    return {**base, "swaps": [*(list(s) for s in swaps_of(base)), [out, into]]}


def _asked(base: Mapping[str, Any], ask: Mapping[str, Any], allowed: frozenset[str],
           labels: tuple[str, ...]) -> SkillResult:
    """The question a swap not understood whole asks instead of planning: which dish to take out, which
    dish of the catalog was meant, or that the dish is on the menu already. The plan shown stays as it was."""
    wanted, outs, why = str(ask.get("in") or ""), [str(o) for o in ask.get("out") or []], ask.get("why")
    if why == "which out":  # "换个菜": which one
        lines = ["换哪一道？", *(f"{i}. {o}" for i, o in enumerate(outs, 1)), "回复序号或菜名就行。"]
        return SkillResult("\n".join(lines), ok=False, choices=tuple(
            Choice(o, "dinner.plan", {**base, "avoid": [*base.get("avoid", []), o]}) for o in outs))
    if why == "already":
        return SkillResult(f"{wanted}已经在菜单上了，菜单没动。", ok=False)
    if why == "which":
        lines = [f"想把哪道换成{wanted}？", *(f"{i}. {o}" for i, o in enumerate(outs, 1)), "回复序号或菜名就行。"]
        return SkillResult("\n".join(lines), ok=False,
                           choices=tuple(Choice(o, "dinner.plan", _swap_to(base, o, wanted)) for o in outs))
    menu = [str(n) for n in ask.get("menu") or []]
    near = [n for n in closest_dishes(wanted, ask.get("kind"), menu, limit=8) if n in allowed][:4]
    head = f"“{wanted}”我排不进菜单：晚饭只从菜谱里有价格的家常菜中挑" + (f"（{'、'.join(labels)}）" if labels else "") + "。"
    if not near:
        return SkillResult(head + "说个别的菜名试试？", ok=False)
    out = outs[0] if len(outs) == 1 else ""  # unclear: the one chosen takes the place of a dish of its kind
    lines = [head + "换成相近的这些行吗？", *(f"{i}. {n}" for i, n in enumerate(near, 1)), "回复序号就行。"]
    return SkillResult("\n".join(lines), ok=False,
                       choices=tuple(Choice(n, "dinner.plan", _swap_to(base, out, n)) for n in near))


def plan(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """Plan tonight's dinner for ``people`` within ``budget`` yuan, honouring exclusions and the profile, and
    the dishes the user swapped in."""
    people = int(params["people"])
    budget = budget_total(params["budget"], people)
    dietary = _dietary(params.get("dietary"))
    goal, dislikes, allergies, pantry, words = None, [], [], {}, {}
    try:
        profile = get_profile(services.db, view.user)
        if profile is not None:
            goal, dislikes, allergies = profile.goal, list(profile.dislikes), list(profile.allergies)
        pantry = pantry_grams(services.db, view.user)
        words = pantry_words(services.db, view.user)
    except SQLAlchemyError:  # the plan still works without profile and pantry
        log.warning("dinner.plan: profile/pantry unavailable", exc_info=True)
    swaps = swaps_of(params)
    request = PlanRequest(people=people, budget=budget, exclusions=dietary, goal=goal,
                          dislikes=dislikes, allergies=allergies, pantry_g=pantry,
                          avoid=tuple(params.get("avoid") or ()), extra=tuple(params.get("extra") or ()),
                          dishes=int(params["dishes"]) if params.get("dishes") else None, swaps=tuple(swaps))
    ask = params.get("swap_ask")
    base = {k: v for k, v in params.items() if k not in ("swap_ask", "show", "which")}
    if isinstance(ask, Mapping):
        return _asked(base, ask, *allowed_dishes(request))
    allowed, labels = allowed_dishes(request)
    if swaps and swaps[-1][1] not in allowed:  # the dish just asked for is ruled out: the plan stays as shown
        out, into = swaps[-1]
        earlier = {**base, "swaps": [list(s) for s in swaps[:-1]]}
        return _refused(earlier, out, into, allowed, labels)
    result = plan_dinner(request)
    dto = plan_dto(result)
    facts: dict[str, Any] = {"people": people, "budget": budget}
    if dietary:
        veg = result.exclusions.veg_guests
        facts["dislikes"] = [*result.exclusions.labels, *([f"{veg}人吃素" if veg > 1 else "有人吃素"] if veg else [])]
    if goal:
        facts["goal"] = goal
    show = params.get("show")
    reply = (format_shopping(result, words) if show == "shopping" else format_total(result) if show == "total"
             else format_which(result, str(params.get("which") or "")) if show == "which"
             else format_plan(result, words))
    if isinstance(params["budget"], str) and budget != float(str(params["budget"]).strip("人均") or 0) and show is None:
        reply = f"按{params['budget']}元算，{people}个人预算¥{budget:g}。\n" + reply
    day = _day(params.get("day"), view)
    if day and show is None and result.menu:  # "那周五呢": the plan is for that day
        reply = f"{day}这顿：\n" + reply
    dishes = tuple(Entity("dish", m.name, recipe_name(m.name) or m.name,
                          {"category": m.category, "minor": m.category == "staple"}) for m in result.menu)
    shown = {"total": result.total, "dishes": sum(m.category != "staple" for m in result.menu),
             "menu": [[m.name, m.category] for m in result.menu]}
    return SkillResult(reply, data=dto, dto=dto, facts=facts, ok=bool(result.menu), entities=dishes, shown=shown)


def _day(said: Any, view: ExecView) -> str:
    """The day a plan is for, as said and by its date ("后天（1月16日）"); "" when none was said."""
    if not isinstance(said, str) or not said:
        return ""
    when = parse_time_phrase(said, view.now)
    return f"{said}（{when.at.month}月{when.at.day}日）" if when is not None and when.at is not None else said


def _refused(base: Mapping[str, Any], out: str, into: str, allowed: frozenset[str],
             labels: tuple[str, ...]) -> SkillResult:
    """A dish asked for that the restrictions rule out: said so, the plan unchanged, allowed ones offered."""
    kind = next((d.category for d in load_catalog().dishes if d.name == out), None)
    near = [n for n in closest_dishes(into, kind, [out], limit=8) if n in allowed][:3]
    head = f"{into}不合这顿的忌口" + (f"（{'、'.join(labels)}）" if labels else "") + "，没换，菜单还是原来的。"
    if not near:
        return SkillResult(head, ok=False)
    lines = [head + f"把{out}换成这些行吗？", *(f"{i}. {n}" for i, n in enumerate(near, 1)), "回复序号就行。"]
    return SkillResult("\n".join(lines), ok=False,
                       choices=tuple(Choice(n, "dinner.plan", _swap_to(base, out, n)) for n in near))


_DIETARY_QUESTION = "有什么忌口吗？（比如不吃辣、不吃香菜、有人吃素，没有就说“没有”）"


def _understood(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult | None:
    """The restriction question, asked with what was understood so far in the bot's own words (3个人，
    预算¥150), so a misheard count or budget shows before the plan does. None once restrictions are said."""
    if params.get("dietary") is not None or "people" not in params or "budget" not in params:
        return None
    people = int(params["people"])
    said = params["budget"]
    total = f"¥{budget_total(said, people):g}"
    budget = f"预算{said}元（一共{total}）" if isinstance(said, str) else f"预算{total}"  # 人均30: the total too
    return SkillResult(f"好的，{people}个人，{budget}。{_DIETARY_QUESTION}")


def _never(text: str) -> None:
    """A plan's own setting, read from no message: its follow-ups and its numbered questions set it."""
    return None


# what follow-ups changed ("第一个菜换掉", "再来个汤", "把汤换成紫菜蛋花汤"), kept as slots so that a numbered
# question's answer ("想把哪道换成…？" → "2") plans again with all of it
_CHANGES = (SlotSpec("swaps", SlotType.CHOICE, "把哪道菜换成哪道？", required=False, extract=_never),
            SlotSpec("avoid", SlotType.CHOICE, "哪道菜不要？", required=False, extract=_never),
            SlotSpec("extra", SlotType.CHOICE, "再加什么菜？", required=False, extract=_never),
            SlotSpec("day", SlotType.TEXT, "哪天吃？", required=False, extract=_never))


SPEC = SkillSpec(
    triggers=TRIGGERS,
    name="dinner",
    description="按人数和预算安排晚饭",
    help="安排晚饭：比如“3个人预算100帮我安排晚饭”",
    objects=(DomainObject("dinner", ("晚饭", "晚餐", "菜单", "这顿饭", "这顿", "饭局", "家宴", "聚餐"),
                          ((Operation.CREATE, "dinner.plan"), (Operation.CHANGE, "dinner.plan")), noun="晚饭",
                          signals=("吃", "饿", "做饭", "请客", "开伙")),),
    actions=(
        ActionSpec(
            name="plan", intent="dinner.plan", run=plan, repeatable=True, task="安排晚饭", follow=FOLLOW_UPS,
            shown_as="给用户列了{people}人预算{budget}元的晚饭菜单，共{dishes}道菜（{names}）",
            slots=(
                SlotSpec("people", SlotType.COUNT, "几个人吃？", minimum=1, maximum=20),
                SlotSpec("budget", SlotType.MONEY, "预算大概多少钱？", minimum=1, maximum=100000,
                         hint="家常菜一般人均三四十块就够，想吃好一点人均五六十"),
                SlotSpec("dietary", SlotType.TEXT_LIST, _DIETARY_QUESTION, required=False, ask_once=True,
                         extract=extract_dietary, standalone=True, lookup=_understood),
                *_CHANGES,
            ),
            description="安排一顿晚饭：菜单、购物清单、总价和营养",
        ),
    ),
)
