"""Understand a recipe question and find the answer in the book.

"可乐鸡翅怎么做" → that recipe; "鸡胸肉能做什么" / "冰箱里有土豆和鸡蛋能做啥" → recipes using them;
"来个简单的汤" / "十分钟能做好的早餐" → a category filtered by difficulty or minutes; "螃蟹" → the
crab dishes; an unknown dish → said so, with the closest few. Pure functions.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from skills.cookbook.book import Book, Recipe, load_book, variants

__all__ = ["Finding", "clean_query", "find"]

LIMIT = 5
_PREFIX = re.compile(
    r"^(?:请问|请|麻烦|我想|想|问下|问一下|教我|教教我|告诉我|你知道|帮我|给我|你|你们|小助手|我要|我们|"
    r"怎样|怎么样|怎么|如何|咋|给宝宝|给孩子|给老人|给家人|能不能|可以|可不可以|学|来|看看|查查|查一下|查下|说说)+")
_SUFFIX = re.compile(
    r"(?:要|有没有|有)?(?:怎么做|怎样做|如何做|咋做|咋弄|咋整|怎么整|怎么弄|怎么烧|怎么炒|怎么煮|怎么炖|怎么蒸|的做法|做法|"
    r"的菜谱|菜谱|食谱|要放什么|需要什么材料|用什么材料|需要什么).{0,6}$")
_VERB = re.compile(r"^(?:做|煮|炒|烧|炖|弄)(?=.{2,})")
_GENERIC = frozenset({"做", "做饭", "做菜", "饭", "菜", "煮", "炒", "烧", "炖", "蒸", "烧菜", "炒菜", "煮饭", "吃的"})
_INGREDIENT_ASK = re.compile(
    r"^(?:.*?(?:冰箱里?|家里|手头|手上|我)?(?:有|剩|还有|还剩|用|拿))?(.+?)(?:能|可以|可)?(?:做|弄|烧|炒|煮)"
    r"(?:点|个|些)?(?:什么|啥|哪些|什么菜|啥菜|什么好吃的|什么吃的)")
_CATEGORY_WORDS = (
    ("汤", "汤"), ("粥", "汤"), ("早餐", "早餐"), ("早饭", "早餐"), ("早点", "早餐"), ("甜品", "甜品"), ("甜点", "甜品"),
    ("饮品", "饮品"), ("饮料", "饮品"), ("喝的", "饮品"), ("主食", "主食"), ("素菜", "素菜"), ("荤菜", "荤菜"),
    ("肉菜", "荤菜"), ("海鲜", "水产"), ("水产", "水产"), ("鱼", "水产"), ("凉菜", "素菜"), ("下饭菜", "荤菜"),
)
_EASY = re.compile(r"简单|容易|快手|新手|省事|不费事|好做|懒人|零失败")
_MINUTES = re.compile(r"(\d+)\s*分钟|半(?:个)?小时|(\d+)\s*(?:个)?小时")
_QUICK = re.compile(r"快速|很快|马上|赶时间|来不及")


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
    t = re.sub(r"^(?:请问|请|麻烦|我想|想|问下|问一下|教我|教教我|告诉我|你知道|帮我|你|你们)+", "", t)
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


def _browse(book: Book, text: str) -> Finding | None:
    """A category and/or constraint question (来个简单的汤, 十分钟能做好的早餐)."""
    category = _category(text)
    easy = bool(_EASY.search(text))
    limit = _minutes_limit(text)
    if category is None and not easy and limit is None:
        return None
    pool = [r for r in book.recipes
            if r.category == category or (category is None and r.category not in ("饮品", "酱料", "半成品"))]
    if easy:
        pool = [r for r in pool if (r.difficulty or 5) <= 2]
    what = "".join(x for x in ("简单" if easy else "", f"{limit}分钟内能做好" if limit else "") if x)
    label = f"{what}的{category or '菜'}" if what else (category or "菜")
    if limit is not None:
        timed = sorted((r for r in pool if r.minutes is not None), key=lambda r: (r.minutes or 0, r.name))
        within = [r for r in timed if (r.minutes or 0) <= limit]
        if not within:
            fastest = tuple(timed[:LIMIT])
            return Finding(options=fastest, matched=False, asked=label,
                           heading=f"没有{label}，最快的几道是：" if fastest else f"菜谱里没有{label}。")
        pool = within
    pool.sort(key=lambda r: (r.difficulty or 3, r.minutes or 99, r.name))
    if not pool:
        return Finding(heading=f"菜谱里没有{label}。", matched=False, asked=label)
    return Finding(options=tuple(pool[:LIMIT]), heading=f"{label}可以试试这几道：", asked=label)


def _foods(phrase: str) -> list[str]:
    phrase = re.sub(r"^(?:冰箱里?|家里|手头|手上|我|还)?(?:有|剩下?|还有|还剩)?", "", phrase)
    return [p for p in re.split(r"和|跟|还有|以及|、|与|加", phrase) if p]


def _by_ingredients(book: Book, text: str) -> Finding | None:
    m = _INGREDIENT_ASK.search(re.sub(r"[\s，,。？?！!]", "", text))
    if not m:
        return None
    foods = _foods(m.group(1))
    if not foods:
        return None
    found = book.with_ingredients(foods)
    joined = "和".join(foods)
    if not found:
        return Finding(heading=f"菜谱里暂时没有用{joined}的菜。", matched=False, asked=joined)
    complete = all(found[0].uses(f) for f in foods)
    heading = f"用{joined}可以做：" if complete else f"没有同时用到{joined}的菜，用到其中一些的有："
    return Finding(options=tuple(found[:LIMIT]), heading=heading, asked=joined)


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


def find(text: str, book: Book | None = None) -> Finding:
    """Answer a recipe question (see the module docstring)."""
    book = book or load_book()
    phrase = clean_query(text)
    exact = book.get(phrase) if phrase else None
    if exact is None and _VERB.match(phrase):  # 做糖醋排骨 → 糖醋排骨 (but 炒凉粉 is a dish of its own)
        phrase = _VERB.sub("", phrase)
        exact = book.get(phrase)
    if exact is not None:
        return Finding(recipe=exact, asked=phrase)
    by_food = _by_ingredients(book, text)
    if by_food is not None:
        return by_food
    named = book.named_in(text)
    if named is not None:
        return Finding(recipe=named, asked=phrase)
    browse = _browse(book, text)
    if browse is not None:
        return browse
    if not phrase:
        return Finding(matched=False)
    named_with = sorted((r for r in book.recipes if phrase in r.name), key=lambda r: (r.difficulty or 3, r.name))
    if len(named_with) >= 2:  # 牛肉怎么做: the beef dishes, not the one whose name looks closest (酱牛肉)
        return Finding(options=tuple(named_with[:LIMIT]), heading=f"菜谱里有这几道{phrase}的做法：", asked=phrase)
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
