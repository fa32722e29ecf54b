"""recipe.query: recipes from the HowToCook corpus, by name, alias, near miss, ingredient, category or constraint.

"可乐鸡翅怎么做" → amounts and steps (scaled to ``people`` when known: after a plan for 4, the recipe
is for 4); "鸡胸肉能做什么" → a numbered list (a bare number next opens one); an unknown dish is
said to be unknown, with the closest few.
"""

from __future__ import annotations

import re
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
from runtime.views import ExecView
from skills.cookbook.book import Recipe, load_book
from skills.cookbook.catalog import load_catalog
from skills.cookbook.search import clean_query, find
from skills.dinner._at_home import cookable, kind_asked
from skills.dinner._recipe_avoid import without
from skills.dinner._recipe_followups import RECIPE_FOLLOW_UPS, extract_people
from skills.dinner._recipe_text import recipe_part, recipe_reply
from skills.pantry.skill import read_pantry, word

__all__ = ["SPEC", "extract_dish", "extract_people", "query"]

_CONTENT = re.compile(r"[\u4e00-\u9fa5A-Za-z]{1,}")
_HOME_FOODS = re.compile(r"这些|这几样|这几个|冰箱里的|家里的|现有的|剩下的|手头的|有的东西")
_CAN_MAKE = re.compile(r"(能|可以|可)(做|弄|烧|炒|煮)|做(点|些)?(什么|啥)")

# "能做点啥" / "可以做点什么吃的": what to cook, with nothing said to cook it with — the question of the words
# before it ("家里有土豆和牛肉，能做点什么"), not a search of its own
_WHAT_ALONE = re.compile(r"^(?:那|那么|就|这样)?(?:我|我们|咱|咱们)?(?:还|都|又)?(?:能|可以|可|能够)(?:做|弄|烧|炒|煮|整)"
                         r"(?:点|个|些|出)?(?:什么|啥|哪些)(?:菜|好吃的|吃的|饭|东西)?(?:吃|来)?"
                         r"(?:呢|呀|啊|吗|吧|嘛)*[？?。!！~～\s]*$")


def _only_foods(text: str) -> bool:
    """Whether ``text`` names only ingredients ("土豆和牛肉", "鸡蛋、西红柿"), no dish."""
    named = load_catalog().mentions(text)
    if len(named) < 2:
        return False
    rest = text
    for _, said in named:
        rest = rest.replace(said, "")
    return not re.sub(r"和|跟|还有|以及|、|，|,|与|加|\s", "", rest)


def extract_dish(text: str) -> str | None:
    """The question itself (the search understands it); None when it names nothing (菜谱 / 怎么做 / 能做点啥)."""
    phrase = clean_query(text)
    if not phrase or not _CONTENT.search(phrase) or _WHAT_ALONE.match(text.strip()):
        return None
    return text.strip()


def _choices(options: tuple[Recipe, ...], asked: str = "", seen: list[str] | None = None) -> tuple[Choice, ...]:
    """One numbered choice per recipe listed; each keeps the question and what was shown, so "换一个" after
    the recipe picked looks further through the same answer."""
    kept = {"query": asked, "seen": [*(seen or []), *(r.name for r in options)]} if asked else {}
    return tuple(Choice(r.name, "recipe.query", {"dish": r.name, **kept}) for r in options)


def _seen(params: Mapping[str, Any]) -> list[str]:
    return [str(n) for n in params.get("seen") or [] if n]


def _listing(heading: str, options: tuple[Recipe, ...]) -> str:
    lines = [heading] if heading else []
    for i, recipe in enumerate(options, 1):
        facts = [f"{'★' * recipe.difficulty}" if recipe.difficulty else "", f"约{recipe.minutes}分钟" if recipe.minutes else ""]
        extra = "，".join(f for f in facts if f)
        lines.append(f"{i}. {recipe.name}" + (f"（{extra}）" if extra else ""))
    if options:
        lines.append("回复序号或菜名看做法。")
    return "\n".join(lines)


def _at_home(view: ExecView, params: Mapping[str, Any], services: Any, asked: str) -> SkillResult:
    """Dishes made with what is at home, the items just talked about first, each with the items it uses."""
    try:
        rows = read_pantry(services.db, view.user)
    except SQLAlchemyError:
        rows = []
    if not rows:
        return SkillResult("冰箱里还没记东西。说说有哪些食材，比如“冰箱里有土豆和鸡蛋能做啥”。",
                           dto={"query": asked, "known": False}, ok=False)
    first = [str(w) for w in params.get("ingredients") or [] if w]
    stock = sorted(((r.name, word(r)) for r in rows), key=lambda s: first.index(s[1]) if s[1] in first else len(first))
    kind, easy = kind_asked(asked)
    found = cookable(stock, first, kind=kind, easy=easy)
    words = "、".join(said for _, said in stock[:6]) + ("等" if len(stock) > 6 else "")
    what = f"{'简单的' if easy else ''}{kind or '菜'}"
    if not found:
        return SkillResult(f"菜谱里暂时没有用{words}做的{what}。", dto={"query": asked, "known": False}, ok=False)
    lines = [f"家里的{words}，能做这些{what}："]
    for i, c in enumerate(found, 1):
        facts = [f"用{'、'.join(c.uses)}", "★" * c.recipe.difficulty if c.recipe.difficulty else "",
                 f"约{c.recipe.minutes}分钟" if c.recipe.minutes else ""]
        lines.append(f"{i}. {c.recipe.name}（{'，'.join(f for f in facts if f)}）")
    lines.append("回复序号或菜名看做法。")
    options = tuple(c.recipe for c in found)
    dto = {"query": asked, "known": True, "options": [r.name for r in options], "pantry": [s for _, s in stock]}
    return SkillResult("\n".join(lines), data=dto, dto=dto, choices=_choices(options),
                       entities=tuple(Entity("dish", r.name, r.name) for r in options))


def query(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """Answer a recipe question from the corpus."""
    asked = str(params.get("dish") or "").strip()
    people = params.get("people")
    eaters = int(people) if isinstance(people, int | float) and 1 <= people <= 50 else None
    if _HOME_FOODS.search(asked) and _CAN_MAKE.search(asked):  # 用这些能做什么菜 (after the pantry was told)
        return _at_home(view, params, services, asked)
    seen = _seen(params)
    finding = find(asked, skip=seen) if asked else None
    if finding is not None and finding.recipe is None and not finding.matched and _only_foods(asked):
        finding = find(f"{asked}能做什么", skip=seen)  # "土豆和牛肉", no dish of that name: the dishes made with them
    if finding is not None and params.get("one") and finding.options:  # "换一个": the next one, opened
        finding = find(finding.options[0].name)
    if finding is not None and params.get("one") and finding.recipe is None and not finding.options and seen:
        return SkillResult(finding.heading or "同类的菜都给你看过了，换个说法试试？", dto={"dish": asked, "known": False},
                           ok=False)
    if finding is None or (finding.recipe is None and not finding.options and not finding.heading):
        return SkillResult("想问哪道菜的做法？可以说菜名，比如“可乐鸡翅怎么做”，或者“鸡胸肉能做什么”。",
                           dto={"dish": asked, "known": False}, ok=False)
    if finding.recipe is not None:
        recipe = finding.recipe
        show = str(params.get("show") or "")
        reply = (recipe_part(recipe, eaters, show, str(params.get("food") or "")) if show
                 else recipe_reply(recipe, eaters, asked=finding.asked, note="".join(finding.notes)))
        dto = {"dish": recipe.name, "known": True, "category": recipe.category, "difficulty": recipe.difficulty,
               "minutes": recipe.minutes, "servings": eaters or recipe.servings,
               "ingredients": list(recipe.ingredients), "steps": list(recipe.steps)}
        return SkillResult(reply, data=dto, dto=dto, facts={"dish": recipe.name},
                           entities=(Entity("dish", recipe.name, recipe.name),),
                           shown={"picked": asked == recipe.name,  # by its exact name: a pick from a list
                                  "seen": [*seen, *([recipe.name] if recipe.name not in seen else [])]})
    options, heading = finding.options, finding.heading
    avoid = [str(a) for a in params.get("avoid") or []]
    if avoid and options:  # "不要辣的" said after the list: the same list without what it rules out
        kept, said = without(options, avoid), "、".join(avoid)
        gone = len(options) - len(kept)
        passed = [*seen, *(r.name for r in options)]
        while gone and len(kept) < len(options):  # the next few of the same answer fill the places of those left out
            more = [r for r in find(asked, skip=passed).options if r.name not in passed]  # never one shown twice
            if not more:
                break
            fits = without(more, avoid)
            kept, gone, passed = (*kept, *fits), gone + len(more) - len(fits), [*passed, *(r.name for r in more)]
        kept = kept[:len(options)]
        heading = (f"这几道都带{said}，换个说法试试？" if not kept else
                   (f"已去掉{gone}道带{said}的。" if gone else f"这几道都不带{said}。") + heading)
        options = kept
    dto = {"query": finding.asked, "known": finding.matched, "options": [r.name for r in options]}
    if params.get("show") == "time" and options:  # "要多久" about a list: each dish's time
        return SkillResult("\n".join(f"{r.name}：{f'约{r.minutes}分钟' if r.minutes else '菜谱没写要多久'}"
                                     f"{f'，难度{chr(9733) * r.difficulty}' if r.difficulty else ''}" for r in options)
                           + "\n想看哪道的做法，回复序号或菜名。", data=dto, dto=dto,
                           choices=_choices(options, asked, seen),
                           entities=tuple(Entity("dish", r.name, r.name) for r in options),
                           shown={"seen": [*seen, *(r.name for r in options)]})
    return SkillResult(_listing(heading, options), data=dto, dto=dto,
                       choices=_choices(options, asked, seen), ok=bool(options) or finding.matched,
                       entities=tuple(Entity("dish", r.name, r.name) for r in options),
                       shown={"seen": [*seen, *(r.name for r in options)]})


def _never(text: str) -> None:
    """A setting of the recipe question that no message says (see the ``query`` and ``seen`` slots)."""
    return None


def _food_words() -> list[str]:
    """Dish names (and their aliases) and ingredient names: the words a slip of the keyboard is repaired
    towards (西红是炒鸡蛋 → 西红柿炒鸡蛋)."""
    catalog = load_catalog()
    return [*load_book().names(), *catalog.ingredient_words()]


_PART = {"time": "要多久", "ingredients": "用料", "amount": "用量"}


def _shown_as(facts: Mapping[str, Any]) -> str | None:
    """"看了红烧茄子的做法" / "列了5道菜让用户挑（…）" for the model summary."""
    count = facts.get("count") or 0
    if count == 1:
        return f"给用户看了{facts['first']}的{_PART.get(str(facts.get('show')), '做法')}"
    return f"给用户列了{count}道菜来挑（{facts['names']}）" if count else None


SPEC = SkillSpec(
    name="recipes",
    vocabulary=_food_words,
    description="家常菜做法",
    help="查菜谱：比如“番茄炒蛋怎么做”",
    objects=(DomainObject("dish", ("道菜", "菜谱", "食谱", "做法", "菜"), ((Operation.SEE, "recipe.query"),),
                          noun="菜", pick="dish", carry=("people",), signals=("怎么做", "咋做", "下厨", "清淡", "吃点")),),
    actions=(
        ActionSpec(
            name="query", intent="recipe.query", run=query, read_only=True, task="查菜谱", follow=RECIPE_FOLLOW_UPS,
            shown_as=_shown_as,
            slots=(
                SlotSpec("dish", SlotType.TEXT, "想问哪道菜的做法？或者说说有哪些食材，我帮你找能做的菜。", extract=extract_dish),
                SlotSpec("people", SlotType.COUNT, "几个人吃？", required=False, minimum=1, maximum=50,
                         extract=extract_people),
                # the question a recipe was picked from, and the recipes shown so far: set by a numbered choice
                # and by "换一个", never read from words
                SlotSpec("query", SlotType.TEXT, "想找什么样的菜？", required=False, extract=_never),
                SlotSpec("seen", SlotType.CHOICE, "看过哪些菜？", required=False, extract=_never),
            ),
            description="查菜谱：按菜名、食材、类别找做法，用量按人数换算",
        ),
    ),
)
