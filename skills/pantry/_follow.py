"""How what the pantry just showed or recorded is followed up (DESIGN §3.4).

Right after the pantry was listed or changed, "这些" are its items: "用这些能做什么菜", "这几样能凑一顿吗",
"它们能做个啥" ask for dishes made with what is at home (the recipe skill reads the pantry, the items
just named first); "西红柿还剩几个" asks about one item shown; "用了一根胡萝卜" changes the stock.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from runtime.skill import Entity, FollowUps, Modifier
from skills.cookbook.catalog import load_catalog
from skills.pantry._parse import parse_pantry

__all__ = ["FROM_PANTRY", "UPDATE_FOLLOW_UPS", "VIEW_FOLLOW_UPS", "extract_item"]

# the recipe question a follow-up about what is at home becomes: the recipe skill answers it from the pantry
FROM_PANTRY = "用冰箱里的这些能做什么"


_ASKED_ABOUT = re.compile(r"^(?P<name>[\u4e00-\u9fff]{1,5}?)(?:还)?(?:剩下?|有)?(?:几|多少)")
# the item said last: "还有几根黄瓜", "还剩多少排骨"
_COUNTED = r"个|斤|两|克|公斤|盒|袋|瓶|包|把|块|根|颗|只|枚|条|板|头|棵"
_ASKED_LAST = re.compile(rf"(?:剩下?|有)(?:几|多少)(?:{_COUNTED})?(?P<name>(?!{_COUNTED})[\u4e00-\u9fff]{{1,5}}?)"
                         r"(?:了|呀|啊|来着|呢)*[?？吗]?$")


def extract_item(text: str) -> str | None:
    """The one ingredient a question about the pantry asks after, in the question's own word ("西红柿还剩几个"
    → 西红柿)."""
    named = load_catalog().mentions(text)
    if len(named) == 1:
        return str(named[0][1])
    if named:
        return None
    for said in (_ASKED_LAST.search(text), _ASKED_ABOUT.match(text)):  # "还有几根黄瓜", "粉丝还有几把"
        if said is not None and not _PARTICLE.fullmatch(said.group("name")):
            return said.group("name")
    return None


_PARTICLE = re.compile(r"(?:来着|了|呢|呀|啊|吗|哦|啦)+")


def _how_much(params: Mapping[str, Any], m: re.Match[str], entity: Entity | None,
              shown: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """"鸡蛋还剩几个" / "第一样还有多少" right after the pantry was shown: how much of that item (named as the
    question names it, else as shown)."""
    if entity is None or entity.kind != "ingredient":
        return None
    return {"item": extract_item(m.string) or entity.name}


_ASKS = re.compile(r"[?？吗]|几|多少|啥|什么|哪些")


def _changed(params: Mapping[str, Any], m: re.Match[str], entity: Entity | None,
             shown: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """"刚才用了一根胡萝卜" / "鸡蛋还剩3个" right after the pantry was shown: that change to it (a question
    such as "西红柿还剩几个" changes nothing)."""
    if _ASKS.search(m.string):
        return None
    items = parse_pantry(m.string)
    named = [entity.name] if entity is not None and entity.kind == "ingredient" else \
        [str(n) for n in shown.get("ingredients") or [] if n]
    if not items and len(named) == 1:  # "今天用掉了仨" right after 鸡蛋 was recorded or shown: of that item
        items = parse_pantry(f"{named[0]}{m.string}")
    return {"items": items} if items else None


def _cook_these(params: Mapping[str, Any], m: re.Match[str], entity: Entity | None,
                shown: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """"用这些能做什么菜" right after the pantry was shown or changed: dishes made with what is at home, the
    items just shown or named first."""
    words = [str(n) for n in shown.get("ingredients") or [] if n]
    what = "".join(_WHICH.findall(m.string))  # "能做个什么汤", "简单点的": what kind of dish
    return {"dish": f"{FROM_PANTRY}{what}", "ingredients": words}


_WHICH = re.compile(r"汤|羹|凉菜|素菜|青菜|荤菜|肉菜|硬菜|主食|早餐|早饭|甜品|甜点|简单|容易|快手|省事|好做")


def _cook_one(params: Mapping[str, Any], m: re.Match[str], entity: Entity | None,
              shown: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """"第二样能做什么" / "排骨怎么吃": recipes with the one item shown."""
    return {"dish": f"{entity.name}能做什么"} if entity is not None and entity.kind == "ingredient" else None


_MAKE = r"(?:做|弄|烧|炒|煮|炖|整|凑|蒸)"
# a question of what to cook: 能做什么菜 / 可以弄点啥吃的 / 能凑一顿吗 / 够做个菜不 / 怎么吃
_DISH = r"(?:菜|汤|羹|凉菜|素菜|荤菜|吃的|饭|好吃的|主食|早餐|甜品)"
_WHAT = (rf"(?:能|可以|可|够)?{_MAKE}(?:个|点|些|一道|几道|出)?(?:什么|啥|哪些)(?:样的)?{_DISH}?"
         rf"|(?:能|可以|可|够)?{_MAKE}(?:出)?(?:一|两|几)?(?:个|道|样|盘|点)?(?:简单|容易|快手|好做)?(?:点|些)?的?"
         rf"(?:顿|桌|餐|{_DISH})(?:晚饭|午饭|晚餐|饭)?(?:吗|不|没|么|嘛|呢|不了|行不行|行吗|可以吗|够不够|够吗)"
         r"|怎么吃|咋吃|吃什么|吃啥")
# the same said of "these", or as a wish: 用这些做个菜吧
_THESE = (r"这些|这几样|这几个|这点|这点儿|上面这些|它们|这俩|这仨|刚才那些|现有的|手头的|剩下的")
_WITH_THESE = (rf"(?:就|能|可以|能不能)?(?:用|拿|就用|就拿|就着)?(?:{_THESE})(?:东西|食材|菜)?(?:都)?"
               rf"(?:{_WHAT}|{_MAKE}(?:个|点|几个|几道|顿|一顿)(?:菜|吃的|饭|晚饭|汤))"
               rf"|(?:能|可以)?(?:用|拿)(?:{_THESE})(?:东西|食材|菜)?(?:{_WHAT}|{_MAKE}(?:个|点|几个|几道|顿|一顿)(?:菜|吃的|饭|晚饭|汤))")
_COOK_THESE = Modifier("cook with these", _WITH_THESE, _cook_these, intent="recipe.query")
_HOW_MUCH = Modifier("how much is left", r"(?:还)?(?:剩|剩下|有)(?:几|多少)(?:个|斤|盒|袋|根|颗|两|克)?|剩多少",
                     _how_much, entity=True)

_STOCK_CHANGED = Modifier("stock changed", r"用了|用掉了?|吃了|吃掉了?|[用吃]完了?|[用吃]光了?|没了|没有了|坏了|扔了|买了|"
                          r"又买了?|新买了?|添了|囤了|还有|还剩|剩下", _changed, intent="pantry.update")

# "鸡蛋还剩几个": an item shown, named or pointed at, and how much of it is left; "用了一根胡萝卜": a change to
# what was shown; "用这些做个菜吧": recipes with what is at home (the listing's items first)
VIEW_FOLLOW_UPS = FollowUps(
    modifiers=(
        _HOW_MUCH,
        _STOCK_CHANGED,
        _COOK_THESE,
        Modifier("cook with one", _WHAT, _cook_one, intent="recipe.query", entity=True),
    ),
)

# right after a change was recorded: "这几样能凑一顿吗" is about what is at home, the items just named first
# and "今天用掉了仨" changes the one item just recorded
UPDATE_FOLLOW_UPS = FollowUps(modifiers=(_COOK_THESE, _STOCK_CHANGED))
