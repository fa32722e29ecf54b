"""Chinese reply text and the model-facing DTO of a :class:`DinnerPlan`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from skills.cookbook.book import load_book
from skills.cookbook.catalog import Catalog, load_catalog
from skills.dinner.exclusions import derived_ingredients, family_tags
from skills.dinner.planner import GENEROUS_PER_PERSON, DinnerPlan

__all__ = ["format_plan", "format_shopping", "plan_dto", "recipe_name", "restriction_lines"]

_SAY = {"不吃辣": "按不吃辣安排，没有辣的菜。", "清淡口味": "按清淡口味安排，没有辣的菜。", "吃素": "按吃素安排，全是素菜。",
        "纯素（不用肉、鱼、蛋、奶）": "按纯素安排：不用肉、鱼、蛋、奶。", "清真（不用猪肉）": "按清真安排，不用猪肉。",
        "痛风（不用海鲜鱼虾）": "照顾痛风，不用海鲜鱼虾这些高嘌呤的。", "控糖（不用糖多的菜）": "照顾控糖，不用糖多的菜。",
        "孕妇（不用凉拌生冷和辣的）": "照顾孕妇，不用凉拌生冷和辣的菜。"}


def _yuan(value: float) -> str:
    return f"¥{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else f"¥{int(value)}"


def _servings(value: float) -> str:
    rounded = round(value * 2) / 2
    return f"{rounded:g}份" if abs(rounded - value) < 0.01 else f"约{rounded:g}份"


def restriction_lines(plan: DinnerPlan, catalog: Catalog | None = None) -> list[str]:
    """Every restriction in plain words: 按不吃辣安排 / 不用花生（含花生的都不用）/ 不用虾（含虾的都不用，蚝油也不用）/
    给吃素的朋友准备了…"""
    catalog = catalog or load_catalog()
    excl = plan.exclusions
    lines: list[str] = []
    derived = derived_ingredients(excl, catalog)
    for label in excl.labels:
        if label in _SAY:
            lines.append(_SAY[label])
            continue
        word = label.removeprefix("不吃")
        own = family_tags(word) & excl.tags  # 花生 relates to peanut things only, not to 虾's
        related = [n for n in derived if n != word and (word in n or any(
            word in a for a in catalog.ingredients[n].aliases) or (
            catalog.ingredients[n].tags & own and word in ("花生", "坚果", "芝麻", "大豆", "蛋", "奶", "虾", "蟹")))]
        # what carries the word in its name (花生米, 基围虾) goes without naming; what does not (蚝油) is said
        named = any(word in n for n in related)
        hidden = [n for n in related if word not in n and not any(word in a for a in catalog.ingredients[n].aliases)]
        notes = ([f"含{word}的都不用"] if named else []) + ([f"{'、'.join(hidden[:4])}也不用"] if hidden else [])
        lines.append(f"不用{word}" + (f"（{'，'.join(notes)}）" if notes else "") + "。")
    if "peanut" in excl.tags:
        lines.append("炒菜别用花生油，换菜籽油或玉米油。")
    if excl.veg_guests:
        veg = [m.name for m in plan.menu if m.vegetarian and m.category in ("protein", "vegetable")]
        who = "吃素的朋友" if excl.veg_guests == 1 else f"{excl.veg_guests}位吃素的朋友"
        lines.append(f"给{who}准备了{len(veg)}道素菜：{'、'.join(veg)}。" if veg else f"菜谱里找不到适合{who}的素菜。")
    return lines


def _spend_line(plan: DinnerPlan) -> str | None:
    if not plan.within_budget:
        return None
    cap = GENEROUS_PER_PERSON * plan.people
    if plan.upgrades:
        line = f"预算比较充足，{_bought(plan.upgrades)}。"
        if plan.budget > cap * 1.2:
            line += f"{plan.people}个人吃得丰盛也就{_yuan(round(plan.total))}左右，不必把预算花满。"
        return line
    if plan.total < plan.budget / 2 and plan.budget > cap:
        return f"{plan.people}个人这样吃已经很丰盛，不必把预算花满。"
    return None


_BOUGHT = ("换上", "多加一道", "加一个")
_GRADES_SAID = 2


def _bought(notes: tuple[str, ...]) -> str:
    """The upgrades in one breath: 换上白灼虾、萝卜炖羊排，多加一道酸辣土豆丝，鸡蛋换成土鸡蛋、大米换成五常大米等."""
    parts = []
    for verb in _BOUGHT:
        names = [n.removeprefix(verb) for n in notes if n.startswith(verb)]
        if names:
            parts.append(verb + "、".join(names))
    grades = [n for n in notes if not n.startswith(_BOUGHT)]
    if grades:
        parts.append("、".join(grades[:_GRADES_SAID]) + ("等" if len(grades) > _GRADES_SAID else ""))
    return "，".join(parts)


def _at_home(plan: DinnerPlan, words: Mapping[str, str]) -> str:
    """"家里现有先用上：西红柿400克": what the plan takes from the pantry, named as the user calls it."""
    return "家里现有先用上：" + "、".join(f"{words.get(n, n)}{round(g)}克" for n, g in plan.shopping.from_pantry)


def _chained(swaps: tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
    """Swaps as the menu shows them: 黄瓜皮蛋汤→西红柿鸡蛋汤 then 西红柿鸡蛋汤→金针菇汤 is 黄瓜皮蛋汤→金针菇汤."""
    out: list[tuple[str, str]] = []
    for was, into in swaps:
        earlier = next((i for i, (_, b) in enumerate(out) if b == was), None)
        if earlier is None:
            out.append((was, into))
        elif out[earlier][0] == into:
            del out[earlier]  # swapped back
        else:
            out[earlier] = (out[earlier][0], into)
    return out


def format_plan(plan: DinnerPlan, words: Mapping[str, str] | None = None) -> str:
    """The reply: restrictions echoed, menu, shopping list with ¥, total and budget check, nutrition per person.
    ``words``: what the user calls pantry items, by canonical name ({"番茄": "西红柿"})."""
    lines: list[str] = []
    if not plan.menu:
        return "按这些忌口，我的菜谱里暂时找不到合适的菜，可以放宽一点忌口再试试。"
    if plan.within_budget:
        lines.append(f"{plan.people}个人的晚饭，预算{_yuan(plan.budget)}，这样安排：")
    elif plan.swapped:
        chosen = "、".join(into for _, into in _chained(plan.swapped))
        lines.append(f"加上你点的{chosen}，{plan.people}个人这顿约{_yuan(plan.total)}，比预算{_yuan(plan.budget)}"
                     f"多{_yuan(round(plan.total - plan.budget, 2))}，其余的菜已经挑了省钱的：")
    else:
        lines.append(f"预算{_yuan(plan.budget)}不太够{plan.people}个人吃一顿：最省的搭配也要约{_yuan(plan.total)}"
                     f"（超出{_yuan(plan.total - plan.budget)}）。下面是最省钱的方案，供参考：")
    lines.extend(restriction_lines(plan))
    if plan.swapped:
        lines.append("按你说的：" + "、".join(f"{out}换成{into}" if out else f"加上{into}"
                                               for out, into in _chained(plan.swapped)) + "。")
    lines.append("【菜单】")
    for item in plan.menu:
        extra = f"，不放{'、'.join(item.dropped)}" if item.dropped else ""
        lines.append(f"· {item.name}（{_servings(item.servings)}{extra}）")
    lines.append("【购物清单】")
    for buy in plan.shopping.items:
        lines.append(f"· {buy.name} {buy.quantity_text(plan.shopping.unit)} {_yuan(buy.price)}")
    if not plan.shopping.items:
        lines.append("· 不用买，家里的就够了")
    if plan.shopping.from_pantry:
        lines.append(_at_home(plan, words or {}))
    if plan.within_budget:
        lines.append(f"合计约{_yuan(plan.total)}，在预算内（还剩{_yuan(round(plan.budget - plan.total, 2))}）。")
        spend = _spend_line(plan)
        if spend:
            lines.append(spend)
    else:
        lines.append(f"合计约{_yuan(plan.total)}，超出预算。")
    n = plan.nutrition_per_person
    lines.append(f"每人约：热量{round(n.kcal)}千卡，蛋白质{round(n.protein)}克，脂肪{round(n.fat)}克，"
                 f"碳水{round(n.carbohydrate)}克。")
    lines.extend(plan.notes)
    if plan.shopping.basics:
        lines.append("油盐酱醋等基础调料按家里已有算。")
    lines.append("价格是常见超市/菜市场参考价，以当地实际为准。想看哪道菜的做法，直接问我“某某怎么做”。")
    return "\n".join(lines)


def format_total(plan: DinnerPlan) -> str:
    """Only what a plan costs ("一共要多少钱" right after it)."""
    if not plan.menu:
        return "这顿晚饭还没有能做的菜。"
    left = plan.budget - plan.total
    rest = f"还剩{_yuan(round(left, 2))}" if left >= 0 else f"超出{_yuan(round(-left, 2))}"
    return (f"{plan.people}个人这顿一共约{_yuan(plan.total)}（预算{_yuan(plan.budget)}，{rest}），"
            f"人均约{_yuan(round(plan.total / plan.people, 1))}。菜单：{'、'.join(m.name for m in plan.menu)}。")


def format_shopping(plan: DinnerPlan, words: Mapping[str, str] | None = None) -> str:
    """Only the shopping list of a plan ("要买些啥" right after it)."""
    lines = [f"{plan.people}个人这顿晚饭的购物清单：" if plan.menu else "这顿晚饭还没有能做的菜。"]
    for buy in plan.shopping.items:
        lines.append(f"· {buy.name} {buy.quantity_text(plan.shopping.unit)} {_yuan(buy.price)}")
    if plan.menu and not plan.shopping.items:
        lines.append("· 不用买，家里的就够了")
    if plan.shopping.from_pantry:
        lines.append(_at_home(plan, words or {}))
    if plan.menu:
        lines.append(f"合计约{_yuan(plan.total)}。菜单：{'、'.join(m.name for m in plan.menu)}。")
    return "\n".join(lines)


def recipe_name(dish: str, catalog: Catalog | None = None) -> str | None:
    """The corpus recipe for a catalog dish (by its name or an alias), if the corpus has one."""
    book = load_book()
    found = (catalog or load_catalog()).dish(dish)
    for name in (dish, *(found.aliases if found else ())):
        recipe = book.get(name)
        if recipe is not None:
            return recipe.name
    return None


def plan_dto(plan: DinnerPlan) -> dict[str, Any]:
    """The trimmed, model-facing form of a plan (no ids, no timestamps)."""
    return {
        "people": plan.people,
        "budget": plan.budget,
        "goal": plan.goal,
        "avoid": list(plan.exclusions.labels),
        "vegetarian_guests": plan.exclusions.veg_guests,
        "menu": [{"dish": m.name, "category": m.category, "servings": round(m.servings, 2),
                  "vegetarian": m.vegetarian, "without": list(m.dropped), "recipe": recipe_name(m.name)}
                 for m in plan.menu],
        "shopping_list": [{"item": i.name, "quantity": i.quantity_text(plan.shopping.unit), "price": i.price}
                          for i in plan.shopping.items],
        "from_pantry": [{"item": n, "grams": g} for n, g in plan.shopping.from_pantry],
        "total": plan.total,
        "within_budget": plan.within_budget,
        "upgrades": list(plan.upgrades),
        "nutrition_per_person": plan.nutrition_per_person.rounded(),
        "notes": list(plan.notes),
    }
