"""How a recipe just shown is followed up (DESIGN §3.4): for how many, how long, what to buy, how much.

"按5个人的量" / "做3杯呢" → the same recipe for that many; "大概要多久" → its time; "那要买啥" → its
amounts alone; "我们4个人，要买多少牛腩" → that amount for that many. Each rule returns the recipe's
params with what to show (``show``: time, ingredients, amount; ``food``: the one amount asked about).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from runtime.skill import Entity, FollowUps, Modifier
from runtime.skill.parsers import ANOTHER, parse_value
from skills.cookbook.search import like
from skills.dinner._dietary import extract_dietary

__all__ = ["RECIPE_FOLLOW_UPS", "extract_people"]

Params = Mapping[str, Any]
_PEOPLE = re.compile(r"(\d+|[一二两三四五六七八九十俩仨]+)\s*(?:个人|人份|口人|位|人)(?:的量|吃|份)?")
# servings of a drink or a bowl, said after its recipe: 做3杯呢 (never a dish's own name: 三杯鸡)
_CUPS = re.compile(r"(\d+|[一二两三四五六七八九十俩仨]+)\s*(?:杯|碗)(?=$|[的呢吧吗啊呀？?，,。！!])")
_CN = {"一": 1, "二": 2, "两": 2, "俩": 2, "仨": 3, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
       "十": 10}
_N = r"[\d一二两三四五六七八九十俩仨]"


def extract_people(text: str) -> int | None:
    """Servings asked for in the question: 4个人的量 / 两人份 / 三口人吃 (not 5个鸡蛋, not 三杯鸡)."""
    m = _PEOPLE.search(text) or _CUPS.search(text)
    if m is None:
        return None
    raw = m.group(1)
    value = int(raw) if raw.isdigit() else _CN.get(raw, 10 + _CN.get(raw[-1], 0) if raw.startswith("十") else 0)
    return value if 1 <= value <= 50 else None


def _eaters(text: str, params: Params) -> Any:
    said = extract_people(text) or parse_value("count", text)
    return said if isinstance(said, int) and 1 <= said <= 50 else params.get("people")


def _dish(params: Params, entity: Entity | None) -> str | None:
    return None if entity is None or entity.kind != "dish" else str(entity.ref or entity.name)


def _base(params: Params) -> dict[str, Any]:
    return {k: v for k, v in params.items() if k not in ("show", "food")}


def _servings(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    """"我家就俩人，量减一下" / "做3杯呢" right after a recipe: the same recipe for that many."""
    people, dish = extract_people(m.string) or parse_value("count", m.string), _dish(params, entity)
    if not isinstance(people, int) or not 1 <= people <= 50 or dish is None:
        return None
    return {**_base(params), "dish": dish, "people": people}


def _time(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    """"大概要多久": the time of the recipe shown, or of each dish of the list shown."""
    dish = _dish(params, entity)
    if dish is None:
        return {**_base(params), "show": "time"} if params.get("dish") and shown.get("seen") else None
    return {**_base(params), "dish": dish, "show": "time"}


def _ingredients(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    dish = _dish(params, entity)
    if dish is None or (params.get("dish") == dish and shown.get("picked")):
        return None  # a dish opened from a plan: what to buy is the plan's list
    return {**_base(params), "dish": dish, "people": _eaters(m.string, params), "show": "ingredients"}


def _amount(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    dish = _dish(params, entity)
    if dish is None:
        return None
    food = next((g for g in (m.group("food"), m.group("food2")) if g), "")
    return {**_base(params), "dish": dish, "people": _eaters(m.string, params), "show": "amount",
            "food": re.sub(r"^(?:的|这个|那个)|(?:呢|啊|呀)$", "", food)}


def _restricted(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    """"不要辣的" / "有人海鲜过敏" right after a list of dishes: the same list without the dishes it rules out."""
    said = extract_dietary(m.string) or []
    if entity is not None or not params.get("dish") or not said:
        return None
    before = [str(a) for a in params.get("avoid") or []]
    return {**_base(params), "avoid": [*before, *(w for w in said if w not in before)]}


def _meatless(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    """"不要有肉的" right after a list of dishes: the same question, for meatless dishes."""
    asked = str(params.get("dish") or "")
    if entity is not None or not asked or "素菜" in asked:
        return None
    return {**_base(params), "dish": f"{asked}，素菜"}


def _another(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    """"换一个" / "再来个别的" / "还有别的吗": after one recipe, the next one of the same answer (or like it),
    opened; after a list, the next few. What was shown is left out."""
    seen = list(dict.fromkeys(str(n) for n in (*(params.get("seen") or []), *(shown.get("seen") or [])) if n))
    people = {"people": params["people"]} if params.get("people") else {}
    dish = _dish(params, entity)
    if dish is not None:
        query = str(params.get("query") or "") or like(dish)
        return {"dish": query, "query": query, "seen": [*seen, *([dish] if dish not in seen else [])], "one": True,
                **people}
    asked = str(params.get("dish") or "")
    return {**_base(params), "seen": seen} if asked and seen else None


_OTHER = r"(?:别的|其他的?|其它的?|另外的|不一样的)"
# another recipe of a kind, with a restriction said before it: "怕辣，有没有别的土豆菜", "还有其他的汤吗",
# "那有没有别的鸡肉做法"
_OF_A_KIND = re.compile(
    r"^(?:(?:不吃|不要|不能吃|不放|别放|怕)(?P<held>[\u4e00-\u9fff]{1,3}?)(?:的话)?[，,\s]*)?(?:那|那么)?(?:还)?"
    rf"(?:有|有没有)?(?:啥|什么)?{_OTHER}(?:的)?(?P<what>[\u4e00-\u9fff]{{0,4}}?)(?:菜|做法|吃的|汤)(?:吗|呢|没|没有|不)?"
    r"[？?。!！~～]*$")


def _of_a_kind(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    """"怕辣，有没有别的土豆菜" after a recipe: the dishes of that food (or like the one shown) it does not rule
    out, none of those shown."""
    dish = _dish(params, entity) or str(params.get("dish") or "")
    if not dish:
        return None
    seen = list(dict.fromkeys(str(n) for n in (*(params.get("seen") or []), *(shown.get("seen") or []), dish) if n))
    what = m.group("what") or ""
    kind = "汤" if m.group(0).rstrip("？?。!！~～吗呢没有不").endswith("汤") else ""
    query = f"{what}能做什么{kind or '菜'}" if what else (kind or like(dish))
    held = extract_dietary(f"不吃{m.group('held')}") if m.group("held") else None
    people = {"people": params["people"]} if params.get("people") else {}
    return {"dish": query, "query": query, "seen": seen, **({"avoid": held} if held else {}), **people}


RECIPE_FOLLOW_UPS = FollowUps(
    slots=("people",),
    modifiers=(
        Modifier("how long", r"多久|多长时间|多少时间|几分钟|几个?小时|花多长|费时|耗时", _time),
        Modifier("how much of a food",
                 r"(?:要|得|需要|该)?(?:买|准备|放|用|加)多少(?P<food>[\u4e00-\u9fff]{1,4})?"
                 r"|(?P<food2>[\u4e00-\u9fff]{1,4}?)(?:要|得|需要|该)(?:买|准备|放|用|加)?多少|(?:料|用料|东西|材料)要?(?:加|放|准备|买)?多少"
                 r"|(?:份量|分量|用量)(?:是)?多少", _amount),
        Modifier("what to buy",
                 r"要买(?:些|点)?(?:啥|什么|哪些)|买(?:些|点)?(?:啥|什么|哪些)|(?:需要|要|得)(?:准备)?(?:哪些|什么|啥)(?:东西|材料|食材|料)?"
                 r"|准备(?:哪些|什么|啥)|用料|材料|食材|配料|原料|清单", _ingredients),
        Modifier("meatless", r"不要(?:有|带)?肉|不(?:要|带|吃)荤|不带肉|没(?:有)?肉|不吃肉|(?:要|来|换)?素(?:一点|点)?的|吃素", _meatless),
        Modifier("another of a kind", _OF_A_KIND.pattern, _of_a_kind),
        Modifier("restriction", r"不要(?:有|带|放)?[\u4e00-\u9fa5]{1,4}?的?(?:菜)?$|不吃|不能吃|不想吃|别放|不放|不加|忌口|过敏",
                 _restricted),
        Modifier("servings", rf"{_N}+\s*(?:个)?(?:人|口人|口|位)(?:份|的量|吃)?|{_CUPS.pattern}|(?:量|份量|分量|用量)", _servings),
        Modifier("another one", ANOTHER, _another),
    ),
)
