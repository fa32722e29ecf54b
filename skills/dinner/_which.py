"""Which dishes of a plan just shown have a quality (荤菜是哪几道, 哪几道是辣的, 哪个菜有花生, 汤是哪个):
answered from the menu itself, the plan unchanged.

A quality is read from the words the way the planner reads restrictions: a kind of dish (素/荤/汤/凉菜/主食/
甜品), a food family (辣, 海鲜, 花生, 蛋 … the restriction families), or an ingredient of the catalog (鸡蛋,
土豆). Words that name none of these are not a question about the menu.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from skills.cookbook.catalog import Catalog, Dish, load_catalog
from skills.dinner.exclusions import family_tags
from skills.dinner.planner import DinnerPlan

__all__ = ["FIT_FOR", "WHICH_DISHES", "dishes_with", "fit_params", "format_which", "quality_of", "which_params"]

_ANIMAL = frozenset({"meat", "fish", "seafood", "shellfish", "poultry", "pork", "beef", "lamb"})
_WHICH = r"(?:哪几|哪些|哪|几)(?:个|道|样|盘)?"
_QUALITY = r"[\u4e00-\u9fff]{1,5}?"
_END = r"(?:啊|呀|呢|吗|来着)?[？?。！!~～\s]*$"
# "荤菜是哪几道" / "辣的有哪些" / "哪几道是素的" / "哪个菜里有花生" / "汤是哪个"
WHICH_DISHES = (rf"(?:(?:这顿|菜单|菜单里|里面|其中)(?:的)?)?(?P<quality>{_QUALITY}(?:的)?(?:菜|菜品)?)(?:是|有|都是|都有)"
                rf"{_WHICH}(?:菜)?{_END}"
                rf"|(?:里面|其中|菜单里)?{_WHICH}(?:菜)?(?:里)?(?:是|有|放了|含|带|用了)(?P<quality2>{_QUALITY}(?:的)?(?:菜)?){_END}")

# "小姨能吃的有哪些" / "哪几个菜我妈能吃" / "哪些菜适合老人": which dishes someone at the table may eat — the
# dishes that keep every restriction of the plan, those said of some guests (有人吃素) included
_WHO = r"(?P<who{n}>[\u4e00-\u9fff]{{1,4}}?)"
_EATS = r"(?:也|都)?(?:能|可以|敢|能够)吃"
FIT_FOR = (rf"^(?:那|那么)?(?:这顿|菜单里|里面|其中)?{_WHICH}(?:菜)?(?:是)?{_WHO.format(n='')}{_EATS}(?:的)?{_END}"
           rf"|^(?:那|那么)?{_WHO.format(n=2)}{_EATS}(?:的)?(?:菜)?(?:是|有|都有|都是)?{_WHICH}(?:菜)?{_END}"
           rf"|^(?:那|那么)?(?:有)?{_WHICH}(?:菜)?(?:是)?(?:适合|给){_WHO.format(n=3)}(?:吃)?(?:的)?{_END}")
_NOT_WHO = re.compile(r"的|菜|都|还|素|荤|辣|汤|几|道|[我你]们?$")

Quality = Callable[[Dish], bool]
# kinds of dish said in words, not by a restriction family (素 is one too: a dish with no animal food)
_KINDS: tuple[tuple[str, Quality], ...] = (
    ("荤", lambda d: bool(d.tags & _ANIMAL)), ("肉菜", lambda d: bool(d.tags & _ANIMAL)),
    ("硬菜", lambda d: bool(d.tags & _ANIMAL)),
    ("素", lambda d: d.category != "staple" and not d.tags & _ANIMAL),
    ("青菜", lambda d: d.category == "vegetable"), ("蔬菜", lambda d: d.category == "vegetable"),
    ("汤", lambda d: d.category == "soup"), ("羹", lambda d: d.category == "soup"),
    ("凉", lambda d: "cold" in d.tags), ("主食", lambda d: d.category == "staple"),
    ("甜", lambda d: d.category == "dessert" or "sugary" in d.tags),
    ("清淡", lambda d: "light" in d.tags or not d.tags & {"spicy", "fried"}),
)


def quality_of(word: str, catalog: Catalog | None = None) -> Quality | None:
    """The quality ``word`` names, as a test of a dish; None when it names none."""
    word = re.sub(r"^(?:带|有|放|含|用)|的$|的?菜品?$", "", word)
    if not word:
        return None
    kind = next((test for key, test in _KINDS if key in word), None)
    if kind is not None:
        return kind
    catalog = catalog or load_catalog()
    foods = {name for name, _ in catalog.mentions(word)}
    if foods:  # an ingredient by its name (鸡蛋, 土豆): the dishes made with it
        return lambda d: bool(foods & set(d.ingredients_g))
    tags = family_tags(word)
    if tags:  # a food family (辣, 海鲜, 花生): the dishes with anything of it
        return lambda d: bool(d.tags & tags) or any(catalog.ingredients[n].tags & tags for n in d.ingredients_g
                                                    if n in catalog.ingredients)
    return None


def dishes_with(menu: list[str], word: str) -> list[str] | None:
    """The dishes of ``menu`` (names) that have the quality ``word`` names, in menu order; None when the
    word names no quality."""
    catalog = load_catalog()
    test = quality_of(word, catalog)
    if test is None:
        return None
    return [name for name in menu if (dish := catalog.dish(name)) is not None and test(dish)]


def _label(word: str, catalog: Catalog) -> str:
    """How the quality is said back: 素菜, 汤, 辣的菜, 带鸡蛋的菜."""
    word = re.sub(r"^(?:带|有|放|含|用)|的$|的?菜品?$", "", word)
    if any(key in word for key, _ in _KINDS):
        return word if word.endswith(("汤", "羹", "主食", "菜")) else f"{word}菜"
    return f"{word}的菜" if family_tags(word) and not catalog.mentions(word) else f"带{word}的菜"


_FITS = "能吃"


def _fit_for(plan: DinnerPlan, who: str) -> str:
    """Which dishes ``who`` may eat: the vegetarian ones when some guests eat no meat, else every dish (the
    plan keeps the table's restrictions for everyone), said with the restrictions they keep."""
    excl = plan.exclusions
    dishes = [m for m in plan.menu if m.category != "staple"]
    staple = [m.name for m in plan.menu if m.category == "staple"]
    if excl.veg_guests:
        veg = [m.name for m in dishes if m.vegetarian]
        if not veg:
            return f"这顿菜单里没有{who}能吃的素菜，说“再加一道素菜”我给加上。"
        return "\n".join([f"{who}吃素的话，这顿能吃这{len(veg)}道：", *(f"· {n}" for n in veg),
                          *([f"主食{'、'.join(staple)}也能吃。"] if staple else [])])
    if excl.labels:
        return "\n".join([f"这顿已经照顾了忌口：{'、'.join(excl.labels)}。{who}都能吃：", *(f"· {m.name}" for m in dishes)])
    return f"这顿没记忌口，菜单上的菜{who}都能吃。{who}要是有不吃的，告诉我，比如“{who}不吃辣”，我重新安排。"


def fit_params(kept: Mapping[str, Any], m: re.Match[str], shown: Mapping[str, Any]) -> dict[str, Any] | None:
    """The plan's params with the question of which dishes someone at the table may eat, or None when the
    words name no one (a kind of dish: "哪几道素的能吃")."""
    who = m.group("who") or m.group("who2") or m.group("who3") or ""
    if not who or _NOT_WHO.search(who) or not shown.get("menu"):
        return None
    return {**kept, "show": "which", "which": f"{who}{_FITS}"}


def format_which(plan: DinnerPlan, word: str) -> str:
    """"这顿菜单里素菜有3道：…" from the plan's menu, or that it has none; "小姨能吃": which dishes she may eat."""
    if word.endswith(_FITS) and len(word) > len(_FITS):
        return _fit_for(plan, word[:-len(_FITS)])
    catalog = load_catalog()
    found = dishes_with([m.name for m in plan.menu], word) or []
    label = _label(word, catalog)
    if not found:
        return f"这顿菜单里没有{label}。"
    return "\n".join([f"这顿菜单里{label}有{len(found)}道：", *(f"· {n}" for n in found),
                      "想看做法就说“第几道怎么做”或直接说菜名。"])


def which_params(kept: Mapping[str, Any], m: re.Match[str], shown: Mapping[str, Any]) -> dict[str, Any] | None:
    """The plan's params with the question of which dishes have the quality the words name, or None."""
    word = m.group("quality") or m.group("quality2") or ""
    menu = [str(n) for n, _ in shown.get("menu") or []]
    if not menu or dishes_with(menu, word) is None:
        return None
    return {**kept, "show": "which", "which": word}
