"""Chinese reply text and the model-facing DTO of a :class:`DinnerPlan`."""

from __future__ import annotations

from typing import Any

from skills.dinner.planner import DinnerPlan

__all__ = ["format_plan", "plan_dto"]


def _yuan(value: float) -> str:
    return f"¥{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else f"¥{int(value)}"


def _servings(value: float) -> str:
    rounded = round(value * 2) / 2
    return f"{rounded:g}份" if abs(rounded - value) < 0.01 else f"约{rounded:g}份"


def format_plan(plan: DinnerPlan) -> str:
    """The reply: menu, shopping list with ¥, total and budget check, nutrition per person."""
    lines: list[str] = []
    if not plan.menu:
        return "按这些忌口，我的菜谱里暂时找不到合适的菜，可以放宽一点忌口再试试。"
    if plan.within_budget:
        lines.append(f"{plan.people}个人的晚饭，预算{_yuan(plan.budget)}，这样安排：")
    else:
        lines.append(f"预算{_yuan(plan.budget)}不太够{plan.people}个人吃一顿：最省的搭配也要约{_yuan(plan.total)}"
                     f"（超出{_yuan(plan.total - plan.budget)}）。下面是最省钱的方案，供参考：")
    if plan.exclusions.labels:
        lines.append("已避开：" + "、".join(plan.exclusions.labels))
    lines.append("【菜单】")
    for item in plan.menu:
        extra = f"，不放{'、'.join(item.dropped)}" if item.dropped else ""
        lines.append(f"· {item.name}（{_servings(item.servings)}{extra}）")
    lines.append("【购物清单】")
    for buy in plan.shopping.items:
        lines.append(f"· {buy.name} {buy.quantity_text()} {_yuan(buy.price)}")
    if not plan.shopping.items:
        lines.append("· 不用买，家里的就够了")
    if plan.shopping.from_pantry:
        lines.append("家里现有先用上：" + "、".join(f"{n}{round(g)}克" for n, g in plan.shopping.from_pantry))
    if plan.within_budget:
        lines.append(f"合计约{_yuan(plan.total)}，在预算内（还剩{_yuan(plan.budget - plan.total)}）。")
    else:
        lines.append(f"合计约{_yuan(plan.total)}，超出预算。")
    n = plan.nutrition_per_person
    lines.append(f"每人约：热量{round(n.kcal)}千卡，蛋白质{round(n.protein)}克，脂肪{round(n.fat)}克，"
                 f"碳水{round(n.carbohydrate)}克。")
    lines.extend(plan.notes)
    if plan.shopping.basics:
        lines.append("油盐酱醋等基础调料按家里已有算。")
    lines.append("价格是常见超市/菜市场参考价，以当地实际为准。")
    return "\n".join(lines)


def plan_dto(plan: DinnerPlan) -> dict[str, Any]:
    """The trimmed, model-facing form of a plan (no ids, no timestamps)."""
    return {
        "people": plan.people,
        "budget": plan.budget,
        "goal": plan.goal,
        "avoid": list(plan.exclusions.labels),
        "menu": [{"dish": m.name, "category": m.category, "servings": round(m.servings, 2),
                  "without": list(m.dropped)} for m in plan.menu],
        "shopping_list": [{"item": i.name, "quantity": i.quantity_text(), "price": i.price}
                          for i in plan.shopping.items],
        "from_pantry": [{"item": n, "grams": g} for n, g in plan.shopping.from_pantry],
        "total": plan.total,
        "within_budget": plan.within_budget,
        "nutrition_per_person": plan.nutrition_per_person.rounded(),
        "notes": list(plan.notes),
    }
