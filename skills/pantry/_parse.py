"""Parse pantry statements: "冰箱里有鸡蛋6个、西红柿4个" / "买了两斤排骨" / "鸡蛋用完了".

Pure functions. Each clause mentioning a catalog ingredient becomes a :data:`PantryChange`
dict (JSON-serialisable): ``{"name", "op": set|add|sub, "quantity": float|None, "unit", "said"}`` —
``name`` the canonical ingredient (番茄), ``said`` the word the user used for it (西红柿) when that is
another word.
Weights are normalised to grams (unit "克"); counts to "个"; other units are kept as said.
"""

from __future__ import annotations

import re
from typing import Any

import cn2an

from skills.cookbook.catalog import Catalog, load_catalog

__all__ = ["PantryChange", "parse_number", "parse_pantry", "quantity_of", "to_grams"]

PantryChange = dict[str, Any]

_NUM = r"(?:\d+(?:\.\d+)?|[零一二两三四五六七八九十百千]+(?:个)?半?|半)"
_UNITS_G = {"克": 1.0, "g": 1.0, "斤": 500.0, "两": 50.0, "公斤": 1000.0, "千克": 1000.0, "kg": 1000.0}
_UNITS_PIECE = ("个", "颗", "只", "枚", "根", "棵", "头")
_UNITS_OTHER = ("盒", "袋", "包", "把", "块", "瓶", "盒", "板", "条", "斤装")
_UNIT = "|".join(sorted([*_UNITS_G, *_UNITS_PIECE, *_UNITS_OTHER], key=len, reverse=True))
_QTY = re.compile(rf"({_NUM})\s*({_UNIT})", re.IGNORECASE)
_EMPTY = re.compile(r"(用完|吃完|喝完|没了|没有了|木有了|用光|吃光|喝光|扔了|坏了|清空|见底了)")
_ADD = re.compile(r"(买了|又买|新买|添了|加了|多了|囤了)")
_SUB = re.compile(r"(用了|吃了|喝了|用掉|吃掉|喝掉|拿了|做了|炒了|煮了|蒸了|煎了|炖了|烧了|烤了|吃$)")
# 一打鸡蛋 (12), 半打 (6), 两打 (24): eggs and the like are bought by the dozen (never 打了 / 打球)
_DOZEN = re.compile(r"(半|\d+|[一两二三四五六七八九十]+)\s*打(?![了过完球车卡针算听电扫])")
# 十来个 / 二十多个 / 三斤多: about that many (the stock is kept as the round number)
_ROUGHLY = re.compile(r"([\d一二两三四五六七八九十百]+)\s*[来多](?=\s*(?:个|斤|克|盒|袋|包|把|根|颗|只|枚|头|条|瓶))")
_SPLIT = re.compile(r"[，,、；;。！!\s]+|和|以及|还有(?=[^0-9一二两三四五六七八九十半]+[0-9一二两三四五六七八九十半])")


def parse_number(text: str) -> float | None:
    """Arabic or Chinese numerals, with 半 (0.5) and 一个半 (1.5)."""
    text = text.strip()
    if not text:
        return None
    if text == "半":
        return 0.5
    half = 0.5 if text.endswith("半") else 0.0
    core = text.rstrip("半").rstrip("个")
    if not core:
        return half or None
    try:
        value = float(core)
    except ValueError:
        try:
            value = float(cn2an.cn2an(core, "smart"))
        except (ValueError, KeyError, TypeError):
            return None
    return value + half


def _op(clause: str, whole: str, has_quantity: bool) -> str:
    patterns = ((_EMPTY, "empty"), (_ADD, "add"), (_SUB, "sub"))
    for pattern, op in patterns:
        if pattern.search(clause):
            return op
    if "有" in clause:
        return "set"
    # "西红柿和鸡蛋都吃完了": a bare name takes the verb of the whole sentence
    for pattern, op in patterns if not has_quantity else patterns[1:]:
        if pattern.search(whole):
            return op
    return "set"


def _dozens(m: re.Match[str]) -> str:
    count = parse_number(m.group(1))
    return f"{count * 12:g}个" if count else m.group(0)


def quantity_of(clause: str) -> tuple[float | None, str]:
    """The amount said in ``clause`` and its unit (weights in 克, pieces in 个); (None, "") when none."""
    match = _QTY.search(clause)
    if match is None:
        return None, ""
    value = parse_number(match.group(1))
    unit = match.group(2).lower()
    if value is None:
        return None, ""
    if unit in _UNITS_G:
        return value * _UNITS_G[unit], "克"
    if unit in _UNITS_PIECE:
        return value, "个"
    return value, unit


def _by_quantity(clause: str) -> list[str]:
    """"买了一斤猪肉两把青菜" → ["买了一斤猪肉", "两把青菜"]: a quantity after a name starts a new item."""
    starts = [m.start() for m in _QTY.finditer(clause)]
    cuts = [i for n, i in enumerate(starts) if n > 0 and _named_between(clause, starts[n - 1], i)]
    pieces, last = [], 0
    for cut in cuts:
        pieces.append(clause[last:cut])
        last = cut
    pieces.append(clause[last:])
    return [p for p in pieces if p]


def _named_between(clause: str, start: int, end: int) -> bool:
    """Whether something other than the quantity itself stands between two quantities."""
    between = _QTY.sub("", clause[start:end], count=1)
    return bool(re.search(r"[\u4e00-\u9fff]", between))


# a thing counted with a unit and named right after it, unknown to the catalog: 一把粉丝, 两包挂面
_COUNTED = re.compile(rf"(?:{_NUM})\s*(?:{_UNIT})(?P<name>[\u4e00-\u9fff]{{1,5}}?)(?:了|的|吧|啊|呀)?$", re.IGNORECASE)
_NOT_A_THING = re.compile(r"[了过着吗呢吧都也还又是在要想能会我你他她它这那啥不没剩]|钱|小时|分钟|钟头|时间|天|人|次|点|号|月|年|公里")
# the whole store, not one thing of it ("冰箱里的菜都吃完了": everything is gone)
_STORE = re.compile(r"菜|东西|食材|吃的|喝的|饭|存货|库存|冰箱|冰箱里|家里")
# what is done with it, said after the thing ("三个蛋煎了", "两瓶喝掉了"): not part of its name
_USED_AFTER = re.compile(r"(?:吃|喝|用|煮|炒|蒸|炖|拿|做|煎)+(?:掉|完|光)?$")
# a thing the catalog does not know, all gone: 啤酒喝光了, 挂面都吃完了
_GONE = re.compile(r"^(?:家里的?|冰箱里的?)?(?P<name>[\u4e00-\u9fff]{1,5}?)(?:都|全|也)?(?:(?:喝|吃|用)(?:完|光)了"
                   r"|一[个瓶盒袋包根颗只块把]?(?:都|也)?(?:没了|没有了|木有了|不剩了?))")


def _unknown(clause: str) -> list[tuple[str, str]]:
    """A thing the catalog does not know, counted in the clause ("一把粉丝") or said to be gone ("啤酒喝光了"):
    kept under the name said."""
    for m in (_COUNTED.search(clause), _GONE.search(clause)):
        name = _USED_AFTER.sub("", m.group("name")) if m is not None else ""
        if name and not _NOT_A_THING.search(name) and not _STORE.fullmatch(name):
            return [(name, name)]
    return []


def parse_pantry(text: str, catalog: Catalog | None = None) -> list[PantryChange]:
    """Every ingredient change stated in ``text`` (empty when none is recognised)."""
    catalog = catalog or load_catalog()
    text = _DOZEN.sub(_dozens, text.replace("俩", "两个").replace("仨", "三个"))
    text = _ROUGHLY.sub(r"\1", text)
    changes: dict[str, PantryChange] = {}
    for clause in (c for part in _SPLIT.split(text) for c in _by_quantity(part)):
        named = catalog.mentions(clause) or _unknown(clause)
        if not named:
            continue
        quantity, unit = quantity_of(clause)
        op = _op(clause, text, quantity is not None)
        for name, said in named[:1] if quantity is not None else named:
            if op == "empty":
                change = {"name": name, "op": "set", "quantity": 0.0, "unit": unit or "个"}
            else:
                change = {"name": name, "op": op, "quantity": quantity, "unit": unit}
            changes[name] = {**change, "said": said} if said != name else change
    return list(changes.values())


def to_grams(name: str, quantity: float, unit: str, catalog: Catalog | None = None) -> float | None:
    """Grams of ``quantity`` ``unit`` of ingredient ``name`` (None when the unit has no known weight)."""
    catalog = catalog or load_catalog()
    if unit == "克":
        return quantity
    ing = catalog.ingredients.get(name)
    if ing is None:
        return None
    if unit in ("个", "块") and ing.piece_g:
        return quantity * ing.piece_g
    if unit in ("袋", "包") and ing.pack_g:
        return quantity * ing.pack_g
    return None
