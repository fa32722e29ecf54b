"""A dish of a plan just shown swapped for a dish the user names: "把汤换成紫菜蛋花汤", "青菜换成蚝油生菜吧",
"不要白灼虾了，来个可乐鸡翅", "第二个换成地三鲜", "用鱼香茄子替换炒青菜".

The dish taken out is found among the dishes shown (by its name or a word of it, by the kind of dish —
汤, 青菜, 肉菜 —, or by its place: "第二个"); the dish put in among the catalog's dishes (the ones the
recipe book explains, priced). What is understood becomes ``swaps`` of the plan's params, kept through
every later change of the plan; what is not becomes ``swap_ask``, a question the plan asks instead
(which dish to take out, or which of the closest catalog dishes was meant). Pure.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from typing import Any

from runtime.skill import Entity, Modifier
from skills.cookbook.book import load_book
from skills.cookbook.catalog import Catalog, Dish, load_catalog
from skills.dinner._budget import budget_total
from skills.dinner._which import quality_of
from skills.dinner.planner import PlanRequest, allowed_dishes

__all__ = ["SWAP_FOR_NAMED", "closest_dishes", "swaps_of"]

Params = Mapping[str, Any]
KINDS = {"汤": "soup", "羹": "soup", "汤菜": "soup", "青菜": "vegetable", "素菜": "vegetable", "蔬菜": "vegetable",
         "凉菜": "vegetable", "冷菜": "vegetable", "小菜": "vegetable", "肉菜": "protein", "荤菜": "protein",
         "硬菜": "protein", "肉": "protein", "大菜": "protein", "主食": "staple", "米饭": "staple", "饭": "staple"}
_DEIXIS = re.compile(r"^(?:那个|这个|那道|这道|那盘|这盘|那份|这份)|(?:那个|这个|那道|这道|那盘|这盘|的)$")
_ORDINAL = re.compile(r"第|最后|头一|末")
_DISHY = re.compile(r"汤|羹|菜|肉|鱼|虾|鸡|鸭|鹅|排骨|饭|面|粥|丁|丝|片|块|豆腐|蛋|茄子|白菜|土豆|包|饺|饼|锅")
_ELSE = re.compile(r"^(?:别|其他|其它|另一个|另外一个|别的菜|其他菜|便宜|贵|简单|清淡|好吃|素|辣|一下|一换|掉|了)")

# from the start of a clause: "太麻烦了，把它换成可乐鸡翅" (what comes before says why, not what)
_LEAD = r"(?:^|(?<=[，,。！!？?\s]))(?:那就|那(?![个道盘份])|就|要不|还是|能不能|能否|可不可以|可以|帮我|麻烦你?|我想|想|你)*"
_END = r"(?:吧|呗|啊|呀|哈|好了|好吗|行吗|可以吗|行不行|怎么样|好不好|成吗|吗|呢|就行|就好)*[。！!？?~～\s]*$"
_TO = r"(?:换成|改成|换为|改为|替换成|替换为|换做|换作|改做|改吃|换个|换一个|换一道|换道|换上|(?<!替)换(?![掉了下]))"
_THEN = r"(?:来个|来一个|来道|来一道|来份|来一份|来|换成|换个|换一个|换一道|改成|要个|要一个|要一道|要|做个|做一个|做道|做|上个|上一道|上|加个|想吃|吃)"
_DROP = r"(?:不要|不想要|不吃|别要|别做|去掉|拿掉|撤掉|换掉|删掉)"
_DROPPED = r"(?:不要了|别要了|不想吃了|不吃了|去掉|拿掉|撤了|撤掉|换掉|删了|删掉|算了)"
_OUT = r"[\u4e00-\u9fa5A-Za-z0-9]{1,10}?"
_IN = r"[\u4e00-\u9fa5A-Za-z]{2,12}?"
PATTERN = (
    rf"{_LEAD}(?:把|将)?(?P<a_out>{_OUT})(?:给我)?{_TO}(?P<a_in>{_IN}){_END}"
    rf"|{_LEAD}{_DROP}(?:了)?(?P<b_out>{_OUT})(?:了|吧)?[，,、\s]*(?:然后|再|换|改)?{_THEN}(?P<b_in>{_IN}){_END}"
    rf"|{_LEAD}(?:把|将)?(?P<c_out>{_OUT}){_DROPPED}(?:吧|了)?[，,、\s]*(?:然后|再|换|改)?{_THEN}(?P<c_in>{_IN}){_END}"
    rf"|{_LEAD}(?:用|拿)?(?P<d_in>{_IN})(?:替换|代替|替掉|换掉|顶替|替)(?:掉)?(?P<d_out>{_OUT}){_END}"
)


_COUNTED = re.compile(r"^(?:一个|一道|一份|一盘|个|道|份|盘|点|些)")


def _said(m: re.Match[str]) -> tuple[str, str]:
    for form in "abcd":
        if m.group(f"{form}_in"):
            return _DEIXIS.sub("", m.group(f"{form}_out")), _COUNTED.sub("", _DEIXIS.sub("", m.group(f"{form}_in")))
    return "", ""


def _menu(shown: Params) -> list[tuple[str, str]]:
    """The dishes shown, in order, with their kinds (the staple last in line of what can be meant)."""
    return [(str(n), str(c)) for n, c in shown.get("menu") or [] if n]


def _common(a: str, b: str) -> int:
    match = difflib.SequenceMatcher(None, a, b).find_longest_match(0, len(a), 0, len(b))
    return match.size


def dishes_meant(said: str, menu: Sequence[tuple[str, str]], picked: Entity | None,
                 catalog: Catalog | None = None) -> list[str]:
    """The dishes of ``menu`` that ``said`` may mean: one when it is clear, several to choose from, none."""
    catalog = catalog or load_catalog()
    names = [n for n, _ in menu]
    if _ORDINAL.search(said):
        return [picked.name] if picked is not None and picked.name in names else []
    named = catalog.dish(said)
    if named is not None and named.name in names:
        return [named.name]
    best = max((_common(said, n) for n in names), default=0)
    if best >= 2:
        return [n for n in names if _common(said, n) == best]
    kind = KINDS.get(said)
    if kind is not None:
        return [n for n, c in menu if c == kind]
    if len(said) == 1 and _DISHY.search(said):  # "鱼" → the one fish dish
        return [n for n in names if said in n]
    return []


def _wanted(said: str, catalog: Catalog) -> Dish | None:
    """The catalog dish ``said`` names (its name or alias, or a name inside it: "一个可乐鸡翅")."""
    return catalog.dish(said) or catalog.find_dish(said)


def _foodlike(said: str, catalog: Catalog) -> bool:
    """Whether ``said`` names something to eat (a recipe, an ingredient, a word of a dish), not "便宜点的"."""
    if _ELSE.search(said):
        return False
    return bool(load_book().named_in(said) or catalog.mentions(said) or _DISHY.search(said))


def closest_dishes(said: str, kind: str | None, exclude: Sequence[str], catalog: Catalog | None = None,
                   limit: int = 4) -> list[str]:
    """Catalog dishes closest to one it does not have: sharing its ingredients (its recipe's, when the recipe
    book knows it), of the kind of the dish it replaces, looking alike."""
    catalog = catalog or load_catalog()
    recipe = load_book().get(said) or load_book().named_in(said)
    words = [said, *(recipe.ingredients if recipe is not None else ())]
    foods = {name for w in words for name, _ in catalog.mentions(w)}
    scored = []
    for dish in catalog.dishes:
        if dish.name in exclude:
            continue
        shared = len(foods & set(dish.mains(catalog)))
        score = 3 * shared + (1.5 if dish.category == kind else 0) + difflib.SequenceMatcher(None, said, dish.name).ratio()
        scored.append((score, dish.name))
    scored.sort(key=lambda s: (-s[0], s[1]))
    return [name for score, name in scored[:limit] if score > 0.5]


def swaps_of(params: Params) -> list[tuple[str, str]]:
    """The swaps a plan's params keep: (dish out, dish in), in the order said."""
    return [(str(a), str(b)) for a, b in (s for s in params.get("swaps") or [] if isinstance(s, list | tuple)
                                         and len(s) == 2)]


def _of_quality(params: Params, said: str, out: str, menu: Sequence[tuple[str, str]], catalog: Catalog) -> Dish | None:
    """The first catalog dish with the quality ``said`` names (素菜, 荤的, 清淡点的, 带鸡蛋的) that the plan's
    restrictions allow and the menu lacks, one of the kind of ``out`` first; None when ``said`` names no quality."""
    test = quality_of(_COUNTED.sub("", said), catalog)
    if test is None:
        return None
    dietary = params.get("dietary")
    people = int(params.get("people") or 1)
    request = PlanRequest(people=people, budget=budget_total(params.get("budget") or 0, people),
                          exclusions=[str(d) for d in dietary] if isinstance(dietary, list) else [])
    allowed, _ = allowed_dishes(request, catalog)
    kind = dict(menu).get(out)
    names = {n for n, _ in menu}
    fits = [d for d in catalog.dishes if d.name in allowed and d.name not in names and d.category not in ("staple", "dessert")
            and test(d)]
    return min(fits, key=lambda d: d.category != kind) if fits else None


def _swap(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    out_said, in_said = _said(m)
    catalog = load_catalog()
    menu = _menu(shown)
    if not out_said or not in_said or not menu:
        return None
    wanted = _wanted(in_said, catalog)
    meant = dishes_meant(out_said, menu, entity, catalog)
    if wanted is None and len(meant) == 1:  # "把第三个换成素的", "汤换成有肉的": a dish of that quality
        wanted = _of_quality(params, in_said, meant[0], menu, catalog)
    if wanted is None and (in_said in KINDS or catalog.canonical(in_said) or catalog.canonical(out_said)
                           or _ELSE.search(in_said)):
        return None  # "换成便宜点的", "再来个汤", "猪肉换成牛肉", "鸡蛋换成鸭蛋": another change of the plan
    if wanted is None and not meant and not _foodlike(in_said, catalog):
        return None  # "预算改成两百": not a dish, and not in the place of one shown
    if wanted is None and not meant and not _foodlike(out_said, catalog) and out_said not in KINDS:
        return None
    kept = {k: v for k, v in params.items() if k not in ("show", "swap_ask")}
    names = [n for n, _ in menu]
    kind = next((c for n, c in menu if meant and n == meant[0]), KINDS.get(out_said))
    if wanted is None:
        return {**kept, "swap_ask": {"why": "unknown", "in": in_said, "out": meant, "kind": kind, "menu": names}}
    if wanted.name in names:
        return {**kept, "swap_ask": {"why": "already", "in": wanted.name, "out": meant}}
    if len(meant) != 1:  # which one: those it may mean, else every dish, the ones of its kind first
        others = sorted((n for n, c in menu if c != "staple"), key=lambda n: dict(menu)[n] != wanted.category)
        return {**kept, "swap_ask": {"why": "which", "in": wanted.name, "said": out_said, "out": meant or others}}
    return {**kept, "swaps": [*(list(s) for s in swaps_of(params)), [meant[0], wanted.name]]}


# first of the plan's modifiers: "X换成Y" names what to put in; "X换掉" alone is the plain swap's
SWAP_FOR_NAMED = Modifier("swap for a named dish", PATTERN, _swap)
