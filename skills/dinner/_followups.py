"""How a dinner plan just shown is followed up (DESIGN §3.4): what may change, and what may be asked.

Each rule reads the plan's params (people, budget, dietary, avoid, extra, dishes) and returns the
params of the plan to make instead; everything not said stays as it was. The dishes of a plan are
entities of the recipe book's ``dish`` object, so "第二道怎么做" opens that recipe by itself.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from runtime.skill import Entity, FollowUps, Modifier, Question
from runtime.skill.parsers import PEOPLE_DELTA, PEOPLE_TOTAL, parse_value, people_delta, people_total
from skills.cookbook.catalog import load_catalog
from skills.dinner._budget import budget_total
from skills.dinner._dietary import extract_dietary
from skills.dinner._swap import SWAP_FOR_NAMED, swaps_of
from skills.dinner._which import FIT_FOR, WHICH_DISHES, fit_params, which_params
from skills.dinner.exclusions import family_tags

__all__ = ["FOLLOW_UPS"]

Params = Mapping[str, Any]
_DIGITS = {"一": 1, "两": 2, "二": 2, "俩": 2, "三": 3, "仨": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
           "十": 10}
_KIND = {"汤": "soup", "羹": "soup", "凉菜": "vegetable", "冷菜": "vegetable", "素菜": "vegetable", "青菜": "vegetable",
         "蔬菜": "vegetable", "荤菜": "protein", "肉菜": "protein", "硬菜": "protein", "肉": "protein", "菜": "dish",
         "甜品": "dessert", "甜点": "dessert", "点心": "dessert", "糖水": "dessert"}


def _number(said: str | None, default: int = 1) -> int:
    if not said:
        return default
    return int(said) if said.isdigit() else _DIGITS.get(said, default)


def _said_budget(text: str, people: int) -> float | None:
    """The budget said with a change of it ("再便宜点 150够不": a bare number there is money)."""
    value = parse_value("money", text)
    if value is None and len(re.findall(r"\d+", text)) <= 1:
        value = parse_value("money", text, answer=True)
    if isinstance(value, str):
        return budget_total(value, people)
    return float(value) if isinstance(value, int | float) and value > 0 else None


def _kept(params: Params) -> dict[str, Any]:
    """The plan's params without what only one answer asked for (the shopping list alone, a question)."""
    return {k: v for k, v in params.items() if k not in ("show", "swap_ask", "which")}


def _head_count(params: Params, text: str) -> dict[str, Any]:
    """The plan's params with the head count a change of the budget was said with ("走了一个，预算加到三百")."""
    total, delta = people_total(text), people_delta(text)
    people = total if total is not None else int(params["people"]) + (delta or 0)
    return {**_kept(params), "people": people} if 1 <= people <= 20 else _kept(params)


def _cheaper(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    params = _head_count(params, m.string)
    people = int(params["people"])
    now = budget_total(params["budget"], people)
    said = _said_budget(m.string, people)
    total = shown.get("total")
    spent = float(total) if isinstance(total, int | float) and 0 < total < now else now
    budget = said if said is not None and said < now else max(1.0, round(spent * 0.8))
    return {**_kept(params), "budget": float(budget)}


def _richer(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    params = _head_count(params, m.string)
    people = int(params["people"])
    now = budget_total(params["budget"], people)
    said = _said_budget(m.string, people)
    return {**_kept(params), "budget": float(said if said is not None and said > now else round(now * 1.3))}


def _people(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    """Arrivals and departures ("又来了俩", "先撤了一个"), or the count as it now stands ("变成九个了", "只剩两位"):
    a number said outright wins over the change said beside it."""
    total, delta = people_total(m.string), people_delta(m.string)
    if total is None and not delta:
        return None
    people = total if total is not None else int(params["people"]) + (delta or 0)
    budget = parse_value("money", m.string)  # "每人还是三十", "预算加到三百": said with it, it changes too
    if people == int(params["people"]) or not 1 <= people <= 20:
        return None
    return {**_kept(params), "people": people, **({"budget": budget} if budget is not None else {})}


def _fewer(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    dishes = shown.get("dishes")
    said = re.search(rf"(?P<n>{_N})\s*(?:个|道|样)菜", m.string)
    count = _number(said.group("n") if said else None, 0) or (int(dishes) - 1 if isinstance(dishes, int) and dishes > 1
                                                              else 1)
    return {**_kept(params), "dishes": max(1, count)}


def _add(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    said = next((a for a in _ADD.finditer(m.string) if a.group("n") or a.group("kind")), m)  # past "菜会不会少了"
    kind = _KIND.get(said.group("kind") or "菜", "dish")  # "再加两道": dishes of any kind
    return {**_kept(params), "extra": [*params.get("extra", []), *([kind] * _number(said.group("n")))]}


def _swap(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    if entity is None or entity.kind != "dish" or entity.attrs.get("minor"):
        return None
    return {**_kept(params), "avoid": [*params.get("avoid", []), entity.name]}


_POINTING = re.compile(r"第|最后|头一|这|那|它|菜$")


def _restrict(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    named, said = m.group("food"), m.group("obj")
    if said and (_POINTING.search(said) or (entity is not None and said == entity.name)):
        return None  # "第一个菜换掉", "宫保鸡丁换掉": a dish of the plan, not an ingredient (the swap reads it)
    items = [named] if named else (extract_dietary("不吃" + said) if said else extract_dietary(m.string)) or []
    if not items or (entity is not None and not said and all(i == entity.name for i in items)):
        return None
    before = list(params.get("dietary") or [])
    return {**_kept(params), "dietary": [*before, *(i for i in items if i not in before)]}


_WITH_FOOD = re.compile(r"^(?:有没有|有什么|想吃|想要|来(?:个|道|点)|加(?:个|道)|要(?:个|道))(?:点|个|道)?(?:带)?"
                        r"(?P<food>[\u4e00-\u9fff]{1,4}?)(?:做)?的(?:菜)?(?:吗|呢|吧|啊)?[？?。！!]*$"
                        r"|^(?:想吃|想要)(?:点|个)?(?P<bare>[\u4e00-\u9fff]{1,4}?)(?:吗|呢|吧|啊|了)?[？?。！!]*$")


def _with_food(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    """"有没有羊肉的菜" / "想吃鱼" of a plan: a dish made of that food — the one on the menu already, else the
    first of the catalog put in the place of a dish of its kind (the plan says so when restrictions forbid it)."""
    said = m.group("food") or m.group("bare") or ""
    catalog = load_catalog()
    foods, tags = {name for name, _ in catalog.mentions(said)}, family_tags(said)  # 羊肉 / 鱼 (a food family)
    if not (foods or tags) or catalog.find_dish(said) is not None:
        return None  # a dish by its name is the named swap's; no food named: something else
    menu = [str(n) for n, _ in shown.get("menu") or []]
    with_it = [d for d in catalog.dishes if d.category in ("protein", "vegetable", "soup")
               and (foods & d.mains(catalog) or tags & d.tags)]
    if not with_it:
        return None
    have = next((d.name for d in with_it if d.name in menu), None)
    if have is not None:
        return {**_kept(params), "swap_ask": {"why": "already", "in": have, "out": []}}
    return {**_kept(params), "swaps": [*(list(s) for s in swaps_of(params)), ["", with_it[0].name]]}


def _new_table(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    """"换一套菜单" / "整桌都换了" / "那周五呢": another table for the same people and budget, none of the
    dishes just shown (the staple stays), for the day said when one is."""
    dishes = [str(n) for n, c in shown.get("menu") or [] if c != "staple"]
    day = m.group("day") if "day" in m.groupdict() else None
    if not dishes or (entity is not None and not day):
        return None  # "第二道换一个": one dish, the swap's
    avoid = [*params.get("avoid", []), *(d for d in dishes if d not in params.get("avoid", []))]
    return {**_kept(params), "avoid": avoid, "swaps": [], **({"day": day} if day else {})}


def _total(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    return {**_kept(params), "show": "total"}


def _which_out(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    """"换个菜" naming no dish: which one, asked with the dishes shown (the staple is no choice)."""
    outs = [str(n) for n, c in shown.get("menu") or [] if c != "staple"]
    return {**_kept(params), "swap_ask": {"why": "which out", "out": outs}} if entity is None and outs else None


def _which(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    return which_params(_kept(params), m, shown)


def _fit(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    return fit_params(_kept(params), m, shown)


def _shopping(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    return {**_kept(params), "show": "shopping"}


_N = r"[一两二三四五六七八九十俩仨\d]"
_OTHER = r"(?:别的|其他的?|其它的?|不一样的|新的|不同的)"
# a whole new table: 换一套菜单 / 整桌都换了 / 来个不一样的菜单 / 还有别的搭配吗
_NEW_TABLE = (rf"(?:重新|再|换)(?:来|安排|配|弄|整|做|搞|出)?(?:[一1])?(?:桌|套|份菜单|个菜单|套菜单|批){_OTHER}?(?:的)?(?:菜|菜单)?"
              rf"|重新(?:来|安排|配|弄|整|搞|做)(?:一下|一个|一份|个|过)?{_OTHER}?(?:的)?(?:菜单|菜)?"
              rf"|(?:换|来)(?:个|一个|一份|份)?{_OTHER}(?:的)?(?:菜单|搭配|安排)"
              # said of the whole table only ("有牛肉的都换了" rules a food out: the restriction's)
              rf"|^(?:那|那就|干脆|要不|还是)?(?:全|都|整桌|这桌|所有的?菜|菜单|整个菜单)(?:部|都|全)?(?:换|重新来)(?:掉|了|一下|一遍)?"
              r"(?:吧|呗|啊)?[。！!~～]*$"
              rf"|还有(?:没有)?{_OTHER}(?:的)?(?:菜单|搭配|安排)")
# the same table for another day, a fresh menu: 那明天呢 / 周六的怎么安排 / 下周一再来一桌
_DAY = r"(?P<day>大后天|后天|明天|明晚|(?:这|下|本)?(?:周|星期|礼拜)[一二三四五六日天末]|周末|\d{1,2}号)"
_ANOTHER_DAY = (rf"^(?:那|那么|那要是)?{_DAY}(?:的|晚上|中午|的话|晚饭|那顿)?(?:呢|怎么安排|吃什么|吃啥|怎么吃|再来一桌|再来一顿|也来一桌)"
                r"[？?。!！~～]*$")
# the shopping list of the plan, asked for by what it holds (要买的菜, 该采购的东西), by the list itself (采购单,
# 购物清单, 单子) and by handing it over (列个单子出来, 把要买的列一下, 清单发我)
_BUY_WHAT = r"(?:要|该|得|需要|准备|还得)?(?:去)?(?:买|采购|备)(?:些|点)?的(?:菜|东西|食材|材料|原料|菜品)?"
_LIST = r"(?:(?:购物|买菜|采购|食材|原料)(?:清单|单子|单|列表)|清单|单子|列表)"
_GIVE = r"(?:列|发|写|给|报|拉|整|出|弄|开|打)(?:一下|下)?(?:出)?(?:个|一个|一份|份|张|一张)?"
_HANDED = r"(?:给我|发我|发给我|出来|看看|一下|下|我|吧)*"
_SHOPPING = (rf"(?:把)?{_BUY_WHAT}(?:都|全)?(?:{_GIVE})?(?:{_LIST})?{_HANDED}|(?:{_GIVE})?{_LIST}{_HANDED}"
             r"|要买(些|点)?(啥|什么|哪些)|买(些|点)?(啥|什么|哪些)|需要买|去买|买菜|买哪些|准备(哪些|什么|啥)(东西|食材|材料)?")
_ADD = re.compile(rf"(?:再|多|加|添|来|上|要){{1,3}}\s*(?P<n>{_N})?\s*(?:(?:个|道|份|点|些)?\s*"
                  r"(?P<kind>汤|羹|凉菜|冷菜|素菜|青菜|蔬菜|荤菜|肉菜|硬菜|甜品|甜点|点心|糖水|菜)|道(?![理歉谢别]))")
FOLLOW_UPS = FollowUps(
    slots=("people", "budget", "dietary"),
    questions=(
        Question("shopping list", _SHOPPING, _shopping),
        Question("which dishes have a quality", WHICH_DISHES, _which),
        Question("which dishes someone may eat", FIT_FOR, _fit),
    ),
    modifiers=(
        SWAP_FOR_NAMED,
        Modifier("a new table", _NEW_TABLE, _new_table),
        Modifier("another day", _ANOTHER_DAY, _new_table),
        Modifier("cheaper", r"便宜|省(点|些|一点|一些)?钱?|太贵|贵了|少花|花少|预算(低|少|降)|降(低)?(点|一点)?预算|节约|实惠",
                 _cheaper),
        Modifier("richer", r"丰盛|好一点|好点|贵一点|多花|预算(?:再)?(?:高|多|加|提)|加(?:点)?预算|提高预算|吃好点|多给|宽裕",
                 _richer),
        Modifier("more or fewer people", PEOPLE_DELTA + "|" + PEOPLE_TOTAL + r"|也(?:要)?(?:过|回)?来", _people),
        Modifier("fewer dishes",
                 rf"吃不完|太多了?|少(?:一|两|几)?(?:个|道|样)?菜|(?P<n>{_N})\s*(?:个|道|样)菜就(?:够|行|好|可以)|"
                 r"只要一(?:个|道)菜|简单点|简单些", _fewer),
        Modifier("add a dish", _ADD.pattern + r"|菜(?:会不会|是不是|好像|有点|太)?(?:少了|不够)", _add),
        Modifier("a dish with a food", _WITH_FOOD.pattern, _with_food),
        Modifier("restriction",
                 r"(?:有|带)(?P<food>[\u4e00-\u9fa5]{1,4})的(?:菜)?(?:都|全)?(?:换|不要|去掉)"
                 r"|(?:把)?(?P<obj>[\u4e00-\u9fa5]{1,6}?)(?:都|全)?(?:换掉|换了|去掉|拿掉|不要了)"
                 r"|不吃|不要|不能吃|不想吃|过敏|忌口|吃素|素食|清真|别放|不放|不加", _restrict),
        Modifier("total", r"(?:一共|总共|总计|合计|加起来|大概|大约)?(?:要|得|需要)?花?(?:多少|几个)钱|花(?:多少|了多少)|总价|"
                          r"贵不贵|多少钱", _total),
        Modifier("which dish to change", r"^(?:帮我|给我|再|那就|那)?换(?:一|个|一个|一道|道|一下)(?:菜)?(?:吧|呗|呢|好了)?[。！!]*$",
                 _which_out),
        Modifier("swap a dish", r"换掉|换一(?:个|道)|换个|换道|换成别的|换了|换一下|不要了?|不想吃|去掉|撤掉|拿掉|别要", _swap,
                 entity=True),
    ),
)
