"""The Chinese reply for one recipe, its amounts scaled to the number of people eating: the list and
every amount in the steps alike (:mod:`skills.cookbook.amounts`)."""

from __future__ import annotations

import math
import re

from skills.cookbook.amounts import COUNTED, amounts_in, scale_step, scale_text
from skills.cookbook.book import Quantity, Recipe, variants

__all__ = ["recipe_part", "recipe_reply", "scaled_amount"]

_MAX_TIPS = 2
_SERVINGS_FORMULA = re.compile(r"\s*[*×]\s*份数(?:\s*[，,]\s*向上取整)?")


def _num(value: float) -> str:
    return f"{round(value, 1):g}"


def scaled_amount(q: Quantity, factor: float) -> str:
    """``q`` as a person would say it after multiplying by ``factor`` (whole pieces rounded up); a line
    whose amount was not read into a number and a unit is scaled as written."""
    if q.amount is None or not q.unit:
        return _SERVINGS_FORMULA.sub("", scale_text(q.text, factor)) if amounts_in(q.text) else q.text
    low, high = q.amount * factor, (q.amount_max * factor if q.amount_max is not None else None)
    if q.unit in COUNTED:
        low = math.ceil(low - 1e-9) if low > 0 else 0
        high = math.ceil(high - 1e-9) if high is not None else None
    amount = _num(low) if high is None else f"{_num(low)}～{_num(high)}"
    return f"{q.name} {amount}{q.unit}"


def _factor(recipe: Recipe, people: int | None) -> tuple[float, str]:
    """The multiplier for the amounts, and the heading's note on servings."""
    if recipe.per_serving and recipe.servings:
        eaters = people or recipe.servings
        return eaters / recipe.servings, f"{eaters}人份"
    if people:
        return 1.0, f"原菜谱的量，{people}个人吃请按比例增减"
    return 1.0, "原菜谱的量"


def recipe_reply(recipe: Recipe, people: int | None = None, *, asked: str = "", note: str = "") -> str:
    """Heading, amounts, steps and a tip or two; amounts scaled to ``people`` when the recipe allows."""
    factor, servings = _factor(recipe, people)
    title = f"【{recipe.name}】"
    if asked and asked not in recipe.name:
        title += f"（也叫{asked}）"
    facts = [servings]
    if recipe.difficulty:
        facts.append("难度" + "★" * recipe.difficulty)
    if recipe.minutes:
        facts.append(f"约{recipe.minutes}分钟")
    lines = [title + "（" + "，".join(facts) + "）"]
    if note:
        lines.append(note)
    if recipe.quantities:
        lines.append("用料：" + "；".join(scaled_amount(q, factor) for q in recipe.quantities))
    elif recipe.ingredients:
        lines.append("用料：" + "、".join(recipe.ingredients))
    lines.append("做法：")
    lines.extend(f"{i}. {scale_step(recipe, step, factor)}" for i, step in enumerate(recipe.steps, 1))
    tips = [t for t in recipe.tips if len(t) >= 6][:_MAX_TIPS]
    if tips:
        lines.append("小贴士：" + "；".join(tips))
    lines.append("（菜谱来自开源项目 HowToCook）")
    return "\n".join(lines)


def recipe_part(recipe: Recipe, people: int | None, show: str, food: str = "") -> str:
    """One part of a recipe asked about after it was shown: its time ("time"), its amounts alone
    ("ingredients"), or the amount of one food ("amount", all amounts when that food is not in it)."""
    factor, servings = _factor(recipe, people)
    if show == "time":
        hard = f"，难度{'★' * recipe.difficulty}" if recipe.difficulty else ""
        if recipe.minutes:
            return f"【{recipe.name}】大约要{recipe.minutes}分钟{hard}，一共{len(recipe.steps)}步。"
        return f"【{recipe.name}】菜谱没写要多久：一共{len(recipe.steps)}步{hard}。"
    amounts = [scaled_amount(q, factor) for q in recipe.quantities] or list(recipe.ingredients)
    if show == "amount" and food:
        words = {food, *(w for w in variants(food) if len(w) >= 2)}
        named = [scaled_amount(q, factor) for q in recipe.quantities if q.name in food or any(w in q.name for w in words)]
        if named:
            return f"【{recipe.name}】（{servings}）：" + "；".join(named) + "。"
    return f"【{recipe.name}】（{servings}）要准备：\n" + "\n".join(f"· {a}" for a in amounts)

