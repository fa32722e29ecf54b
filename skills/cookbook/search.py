"""Understand a recipe question and find the answer in the book.

"可乐鸡翅怎么做" → that recipe; "鸡胸肉能做什么" / "冰箱里有土豆和鸡蛋能做啥" → recipes using them;
"来个简单的汤" / "十分钟能做好的早餐" → a category filtered by difficulty or minutes; "螃蟹" → the
crab dishes; an unknown dish → said so, with the closest few. Pure functions.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from skills.cookbook.book import Book, Recipe, load_book, variants

__all__ = ["Finding", "clean_query", "find", "like"]

LIMIT = 5
_PREFIX = re.compile(
    r"^(?:另外|还有|然后|对了|请问|请|麻烦|我想|想|顺便问下|顺便问一下|顺便|问下|问一下|教我|教教我|告诉我|你知道|帮我|给我|你|你们|小助手|我要|我们|"
    r"怎样|怎么样|怎么|如何|咋|给宝宝|给孩子|给老人|给家人|能不能|可以|可不可以|学|来|看看|查查|查一下|查下|说说)+")
_SUFFIX = re.compile(
    r"(?:要|有没有|有)?(?:怎么做|怎样做|如何做|咋做|咋弄|咋整|怎么整|怎么弄|怎么烧|怎么炒|怎么煮|怎么炖|怎么蒸|的做法|做法|"
    r"的菜谱|菜谱|食谱|要放什么|需要什么材料|用什么材料|需要什么|要?放(?:啥|什么)|要?用(?:啥|什么)|需要(?:啥|些啥)).{0,6}$")
_VERB = re.compile(r"^(?:做|煮|炒|烧|炖|弄)(?=.{2,})")
_GENERIC = frozenset({"做", "做饭", "做菜", "饭", "菜", "煮", "炒", "烧", "炖", "蒸", "烧菜", "炒菜", "煮饭", "吃的"})
_INGREDIENT_ASK = re.compile(
    r"^(?:.*?(?:冰箱里?|家里|手头|手上|我)?(?:有|剩|还有|还剩|用|拿))?(.+?)(?:能|可以|可)?(?:做|弄|烧|炒|煮)"
    r"(?:点|个|些)?(?:什么|啥|哪些|什么菜|啥菜|什么好吃的|什么吃的)")
# "推荐几个鸡肉做的家常菜", "有没有用土豆烧的菜": the dishes made with a food, asked as dishes of it
_INGREDIENT_DISH = re.compile(r"^(?:.*?(?:推荐|来|有没有|有啥|有什么|想吃|找))?(?:几个|几道|一些|点|些|个|道)?(?:用|拿)?"
                              r"(.+?)(?:做|烧|炒|煮|炖|蒸)(?:的|出来的)(?:家常)?(?:菜|菜谱|吃的)")
_CATEGORY_WORDS = (
    ("汤", "汤"), ("粥", "汤"), ("早餐", "早餐"), ("早饭", "早餐"), ("早点", "早餐"), ("甜品", "甜品"), ("甜点", "甜品"),
    ("饮品", "饮品"), ("饮料", "饮品"), ("喝的", "饮品"), ("主食", "主食"), ("素菜", "素菜"), ("荤菜", "荤菜"),
    ("肉菜", "荤菜"), ("海鲜", "水产"), ("水产", "水产"), ("鱼", "水产"), ("凉菜", "素菜"), ("下饭菜", "荤菜"),
)
# how easy a dish is asked for: 简单的, 小白能学会, 别太麻烦, 刚学做饭, 手残
_EASY = re.compile(r"简单|容易|快手|新手|小白|省事|不费事|好做|懒人|零失败|不(?:要|用|会)?太?(?:复杂|难(?![过受])|麻烦)|"
                   r"别太(?:复杂|难|麻烦)|第一次(?:下厨|做饭|做菜|做)|刚学(?:做饭|做菜|下厨)|没(?:怎么)?(?:下过厨|做过饭)|"
                   r"不太?会做(?:饭|菜)|手残")
_MINUTES = re.compile(r"(\d+)\s*分钟|半(?:个)?小时|(\d+)\s*(?:个)?小时")
_QUICK = re.compile(r"快速|很快|马上|赶时间|来不及")


# what a dish is asked to be made with: 加香菇的那种, 带土豆的, 放了山药的, 有虾仁的
_WITH = re.compile(r"(?:放|加|带|有|用|配)(?:了|点|些)?")
_WITHOUT = re.compile(r"(?:不|别|没|无|免)(?:要|带|放|加|含|用|有)?(?:了|点)?$|去掉$|除了$")


@dataclass(frozen=True, slots=True)
class Finding:
    """What the question found: one recipe, or a list (with a heading), or nothing (with the closest few)."""

    recipe: Recipe | None = None
    options: tuple[Recipe, ...] = ()
    heading: str = ""
    asked: str = ""
    matched: bool = True
    notes: tuple[str, ...] = field(default_factory=tuple)


def clean_query(text: str) -> str:
    """The dish-like words of a question: 你如何做螃蟹 → 螃蟹; 西红柿炒鸡蛋的做法 → 西红柿炒鸡蛋."""
    t = re.sub(r"[\s，,。.！!？?~～、]+", "", text)
    t = re.sub(r"^(?:另外|还有|然后|对了|请问|请|麻烦|我想|想|顺便|问下|问一下|教我|教教我|告诉我|你知道|帮我|你|你们)+", "", t)
    t = _PREFIX.sub("", t)
    t = _SUFFIX.sub("", t)
    t = re.sub(r"^(?:做|煮|炒|烧|炖|弄)?(?:一个|一道|一份|个|道|份)(?=.{2,})", "", t)  # 想做个番茄牛腩
    t = re.sub(r"(?:呢|呀|啊|吗|吧|嘛|了)+$", "", t).strip()
    return "" if t in _GENERIC else t


_CN_MINUTES = {"五": "5", "十": "10", "十五": "15", "二十": "20", "三十": "30", "四十": "40", "四十五": "45",
               "六十": "60", "两": "2", "一": "1", "三": "3"}


def _minutes_limit(text: str) -> int | None:
    text = re.sub(r"(四十五|十五|二十|三十|四十|六十|五|十|两|一|三)(?=\s*(?:分钟|个?小时))",
                  lambda m: _CN_MINUTES[m.group(1)], text)
    m = _MINUTES.search(text)
    if m:
        if m.group(1):
            return int(m.group(1))
        if m.group(2):
            return int(m.group(2)) * 60
        return 30
    return 20 if _QUICK.search(text) else None


def _category(text: str) -> str | None:
    for word, category in _CATEGORY_WORDS:
        if word in text:
            return category
    return None


def _cut(recipes: Iterable[Recipe], skip: frozenset[str]) -> tuple[Recipe, ...]:
    """The first few of ``recipes`` not among those already shown (``skip``)."""
    return tuple(r for r in recipes if r.name not in skip)[:LIMIT]


def _browse(book: Book, text: str, skip: frozenset[str] = frozenset()) -> Finding | None:
    """A category and/or constraint question (来个简单的汤, 十分钟能做好的早餐)."""
    category = _category(text)
    easy = bool(_EASY.search(text))
    limit = _minutes_limit(text)
    if category is None and not easy and limit is None:
        return None
    dishes = category is None and bool(re.search(r"(?<![早甜])菜", text))  # "新手能做的菜": a dish, not toast or a drink
    pool = [r for r in book.recipes
            if r.category == category or (category is None and r.category not in ("饮品", "酱料", "半成品")
                                          and (not dishes or r.category in ("荤菜", "素菜", "水产", "汤")))]
    if easy:
        pool = [r for r in pool if (r.difficulty or 5) <= 2]
    what = "".join(x for x in ("简单" if easy else "", f"{limit}分钟内能做好" if limit else "") if x)
    label = f"{what}的{category or '菜'}" if what else (category or "菜")
    if limit is not None:
        timed = sorted((r for r in pool if r.minutes is not None), key=lambda r: (r.minutes or 0, r.name))
        within = [r for r in timed if (r.minutes or 0) <= limit]
        if not within:
            fastest = _cut(timed, skip)
            return Finding(options=fastest, matched=False, asked=label,
                           heading=f"没有{label}，最快的几道是：" if fastest else f"菜谱里没有{label}。")
        pool = within
    pool.sort(key=lambda r: (r.difficulty or 3, r.minutes or 99, r.name))
    if not pool:
        return Finding(heading=f"菜谱里没有{label}。", matched=False, asked=label)
    shown = _cut(pool, skip)
    if not shown:
        return Finding(heading=f"{label}就这些了，都给你看过了。", matched=False, asked=label)
    return Finding(options=shown, heading=f"{label}可以试试这几道：", asked=label)


def _foods(phrase: str) -> list[str]:
    phrase = re.sub(r"^(?:冰箱里?|家里|手头|手上|我|还)?(?:就|只)?(?:有|剩下?|还有|还剩)?", "", phrase)
    return [p for p in (re.sub(r"(?:了|呢|啊|呀|的|吧|这些|这几样)+$", "", p)
                        for p in re.split(r"和|跟|还有|以及|、|与|加", phrase)) if p]


def _narrowed(recipes: list[Recipe], text: str) -> list[Recipe]:
    """The recipes of the kind and ease the question also asks for ("…能做点啥 简单点的"), when any are."""
    category = _category(text)
    for keep in ((lambda r: r.category == category) if category else None,
                 (lambda r: (r.difficulty or 5) <= 2) if _EASY.search(text) else None):
        if keep is not None and any(map(keep, recipes)):
            recipes = [r for r in recipes if keep(r)]
    return recipes


def _by_ingredients(book: Book, text: str, skip: frozenset[str] = frozenset()) -> Finding | None:
    said = re.sub(r"[\s，,。？?！!]", "", text)
    m = _INGREDIENT_ASK.search(said)
    dish = _INGREDIENT_DISH.search(said) if not m else None
    if dish is not None and _foods_named(book, dish.group(1)):  # a food the corpus knows, not 好做的菜
        m = dish
    if not m:
        return None
    foods = _foods_named(book, m.group(1)) or _foods(m.group(1))  # "想吃土豆 简单点": the food said in it
    if not foods:
        return None
    found = book.with_ingredients(foods)
    joined = "和".join(foods)
    if not found:
        return Finding(heading=f"菜谱里暂时没有用{joined}的菜。", matched=False, asked=joined)
    complete = all(found[0].uses(f) for f in foods)
    heading = f"用{joined}可以做：" if complete else f"没有同时用到{joined}的菜，用到其中一些的有："
    shown = _cut(_narrowed(found, said[m.end():] or said), skip) or _cut(found, skip)  # the easy ones first
    if not shown:
        return Finding(heading=f"用{joined}的菜就这些了，都给你看过了。", matched=False, asked=joined)
    return Finding(options=shown, heading=heading, asked=joined)


def _foods_named(book: Book, text: str) -> list[str]:
    """The foods a question names (longest first, none inside another): 牛肉, 土豆 in "牛肉汤…加土豆的那种"."""
    found: list[str] = []
    for word in sorted(_known_foods(book), key=len, reverse=True):
        if word in text and not any(word in f for f in found):
            found.append(word)
    return sorted(found, key=text.index)


def _made_with(book: Book, text: str, skip: frozenset[str] = frozenset()) -> Finding | None:
    """A kind of dish asked for with what goes in it ("想喝汤，加山药的", "带土豆的素菜"): the recipes of
    that kind made with every food named (with most of them, else)."""
    category = _category(text)
    named = _foods_named(book, text)
    unwanted = [f for f in named if _WITHOUT.search(text[:text.index(f)][-4:])]  # 不带花生的: left out
    foods = [f for f in named if f not in unwanted]
    said_with = any(_WITH.search(text[:text.index(f)][-3:]) for f in foods)
    if not foods or not (category or len(foods) >= 2 or said_with or unwanted):
        return None
    kind = [r for r in book.recipes if (category is None or r.category == category) and not any(r.uses(u) for u in unwanted)]
    scored = [(sum(r.uses(f) for f in foods), r) for r in kind]
    best = max((n for n, _ in scored), default=0)
    if not best and category and said_with:  # "汤，加X的那种" and no soup has X: said so, with the soups
        pool = sorted(kind, key=lambda r: (r.difficulty or 3, r.minutes or 99, r.name))
        label = f"加{'和'.join(foods)}的{category}"
        return Finding(options=_cut(pool, skip), matched=False, asked=label,
                       heading=f"菜谱里没有{label}，这些{category}可以看看：")
    if not best or (category is None and best < len(foods)):
        return None
    pool = sorted((r for n, r in scored if n == best), key=lambda r: (-sum(f in r.name for f in foods), r.difficulty or 3, r.name))
    narrowed = _narrowed(pool, text)
    joined = "和".join(foods)
    label = f"用{joined}的{category or '菜'}" + (f"（不带{'、'.join(unwanted)}）" if unwanted else "")
    if best < len(foods):
        label = f"用到{'或'.join(foods)}的{category}"
    shown = _cut(narrowed, skip) or _cut(pool, skip)
    if not shown:
        return Finding(heading=f"{label}就这些了，都给你看过了。", matched=False, asked=label)
    if len(pool) == 1 and not skip:
        return Finding(recipe=pool[0], asked=pool[0].name)
    return Finding(options=shown, heading=f"{label}有这几道：" if category or unwanted else f"用{joined}可以做：",
                   asked=label)


def _closest(book: Book, phrase: str) -> list[Recipe]:
    """Names that look alike, then recipes using a food named in ``phrase``, then shared characters."""
    out = list(book.near(phrase))
    foods = sorted((w for w in _known_foods(book) if w in phrase), key=len, reverse=True)
    if foods:
        out.extend(r for r in book.with_ingredients(foods[:1]) if r not in out)
    if not out:
        chars = set(phrase)
        scored = sorted(book.recipes, key=lambda r: (-len(chars & set(r.name)), r.name))
        out = [r for r in scored[:LIMIT] if chars & set(r.name)]
    return out[:LIMIT]


def _known_foods(book: Book) -> set[str]:
    return {i for r in book.recipes for i in r.ingredients if 2 <= len(i) <= 4}


def find(text: str, book: Book | None = None, *, skip: Iterable[str] = ()) -> Finding:
    """Answer a recipe question (see the module docstring); ``skip``: recipes already shown, left out of a
    list ("换一个", "还有别的吗")."""
    book = book or load_book()
    skipped = frozenset(skip)
    phrase = clean_query(text)
    exact = book.get(phrase) if phrase else None
    if exact is None and _VERB.match(phrase):  # 做糖醋排骨 → 糖醋排骨 (but 炒凉粉 is a dish of its own)
        phrase = _VERB.sub("", phrase)
        exact = book.get(phrase)
    if exact is not None:
        return Finding(recipe=exact, asked=phrase)
    by_food = _by_ingredients(book, text, skipped)
    if by_food is not None:
        return by_food
    named = book.named_in(text)
    if named is not None:
        return Finding(recipe=named, asked=phrase)
    made_with = _made_with(book, text, skipped)
    if made_with is not None:
        return made_with
    browse = _browse(book, text, skipped)
    if browse is not None:
        return browse
    if not phrase:
        return Finding(matched=False)
    named_with = sorted((r for r in book.recipes if phrase in r.name), key=lambda r: (r.difficulty or 3, r.name))
    if len(named_with) >= 2:  # 牛肉怎么做: the beef dishes, not the one whose name looks closest (酱牛肉)
        return Finding(options=_cut(named_with, skipped), heading=f"菜谱里有这几道{phrase}的做法：", asked=phrase)
    near = book.near(phrase)
    if near and difflib.SequenceMatcher(None, phrase, near[0].name).ratio() >= 0.75:
        return Finding(recipe=near[0], asked=phrase, notes=(f"菜谱里叫“{near[0].name}”。",))
    if near and any(w in r.name for r in near for w in variants(phrase)):
        if len(near) == 1:
            return Finding(recipe=near[0], asked=phrase)
        return Finding(options=tuple(near), heading=f"菜谱里有这几道{phrase}的做法：", asked=phrase)
    closest = _closest(book, phrase)
    return Finding(options=tuple(closest), asked=phrase, matched=False,
                   heading=f"“{phrase}”我的菜谱里还没有。" + ("看看这些相近的：" if closest else ""))


def like(name: str, book: Book | None = None) -> str:
    """A question that finds dishes like the recipe ``name`` (its main food, its kind): what "换一个" after
    that recipe looks through."""
    book = book or load_book()
    recipe = book.get(name)
    if recipe is None:
        return name
    kind = next((word for word, category in _CATEGORY_WORDS if category == recipe.category), "")
    # the food a dish is named after, the last one named first (可乐鸡翅 → 鸡翅, 糖醋排骨 → 排骨), when another
    # dish of its kind is made with it; else the kind itself
    named = sorted((i for i in recipe.ingredients if 2 <= len(i) <= 4 and i in recipe.name),
                   key=recipe.name.rindex, reverse=True)
    for food in named:
        if any(r is not recipe and r.category == recipe.category and r.uses(food) for r in book.recipes):
            return f"{food}能做什么{kind}"
    return kind or name
