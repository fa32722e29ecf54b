"""What an ample budget bought is said in the words of the menu shown: every dish a budget note names
is on that menu, no note swaps one dish for another (the dish taken out was never shown, and a later
upgrade may have replaced the one put in), and a dish the user asked for is theirs, not the budget's."""

from __future__ import annotations

import re

import pytest

from skills.cookbook.catalog import load_catalog
from skills.dinner import format_plan
from skills.dinner.planner import DinnerPlan, PlanRequest, plan_dinner

DISHES = sorted((d.name for d in load_catalog().dishes), key=len, reverse=True)
PUT = re.compile(r"^(?:换上|多加一道|加一个)(.+)$")
GRADE = re.compile(r"^(.+)换成(.+)$")


def _check(plan: DinnerPlan, asked: frozenset[str] = frozenset()) -> None:
    shown = {item.name for item in plan.menu}
    used = plan.used_ingredients()
    catalog = load_catalog()
    for note in plan.upgrades:
        if put := PUT.match(note):
            assert put.group(1) in shown - asked, (note, sorted(shown))
        else:
            grade = GRADE.match(note)
            assert grade, note
            assert grade.group(1) not in DISHES and grade.group(1) in used, (note, sorted(used))
            assert catalog.ingredients[grade.group(1)].premium[0] == grade.group(2), note
    line = next((line for line in format_plan(plan).splitlines() if line.startswith("预算比较充足")), "")
    rest = line
    for name in DISHES:  # longest first: a name inside a longer one is that one's
        if name in rest:
            assert name in shown, (name, line)
            rest = rest.replace(name, "")


@pytest.mark.parametrize("people", range(1, 13))
def test_budget_notes_name_only_dishes_shown(people: int) -> None:
    for budget in range(20 * people, 100 * people + 1, 5 * people):
        _check(plan_dinner(PlanRequest(people=people, budget=float(budget))))


def test_notes_with_restrictions_and_wants_name_only_dishes_shown() -> None:
    for people, budget in ((2, 150.0), (4, 300.0), (6, 500.0)):
        for req in (PlanRequest(people=people, budget=budget, exclusions=("不吃辣",)),
                    PlanRequest(people=people, budget=budget, allergies=("虾",)),
                    PlanRequest(people=people, budget=budget, exclusions=("吃素",)),
                    PlanRequest(people=people, budget=budget, extra=("soup",))):
            _check(plan_dinner(req))


def test_a_dish_the_user_swapped_in_is_not_told_as_bought_by_the_budget() -> None:
    for people, budget in ((3, 200.0), (4, 260.0), (6, 400.0)):
        first = plan_dinner(PlanRequest(people=people, budget=budget))
        out = next(item.name for item in first.menu if item.category == "protein")
        plan = plan_dinner(PlanRequest(people=people, budget=budget, swaps=((out, "可乐鸡翅"),)))
        assert "可乐鸡翅" in {item.name for item in plan.menu}
        _check(plan, asked=frozenset({"可乐鸡翅"}))


def test_the_examples_from_the_report() -> None:
    """4 people with ¥300 and 6 with ¥500 were told of swaps of dishes never shown."""
    for people, budget in ((4, 300.0), (6, 500.0), (1, 60.0)):
        plan = plan_dinner(PlanRequest(people=people, budget=budget))
        assert plan.upgrades and not any(GRADE.match(n) and GRADE.match(n).group(1) in DISHES  # type: ignore[union-attr]
                                         for n in plan.upgrades), plan.upgrades
        _check(plan)
