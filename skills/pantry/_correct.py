"""A correction of the pantry change just recorded ("鸡蛋吃了两个" … "不对，是三个").

The engine hands the correction's words to :func:`corrected_items` (the follow-up of the last
run); once the user confirms, :func:`skill.amend` puts back what the corrected write changed and
records the corrected change instead.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from skills.pantry._parse import PantryChange, parse_number, parse_pantry, quantity_of

__all__ = ["corrected_items", "previous_items"]

_VERB = re.compile(r"有|用|吃|买|添|加|多了|囤|拿|做|没了|完|光|扔|坏|清空")


def previous_items(params: Mapping[str, Any]) -> list[PantryChange]:
    """The changes a run recorded (its ``items`` param)."""
    items = params.get("items")
    if isinstance(items, str):
        return parse_pantry(items)
    return [dict(c) for c in items or [] if isinstance(c, Mapping) and c.get("name")]


def corrected_items(previous: Mapping[str, Any], fragment: str) -> Mapping[str, Any] | None:
    """The corrected ``items``: "三个" changes the amount of the one item; "鸭蛋两个" names the item
    (keeping the verb said before when the correction has none); None when it is not understood."""
    before = previous_items(previous)
    if not before:
        return None
    named = parse_pantry(fragment)
    if named:
        if not _VERB.search(fragment):  # "不对，是鸭蛋": the same kind of change, another item
            op = before[0]["op"] if len({c["op"] for c in before}) == 1 else None
            if op is None:
                return None
            named = [{**c, "op": op} for c in named]
        return {"items": named}
    if len(before) != 1:
        return None  # an amount alone, but several items were recorded: which one is unclear
    quantity, unit = quantity_of(fragment)
    if quantity is None:
        bare = re.fullmatch(r"\s*(\S{1,4}?)\s*", fragment)
        quantity = parse_number(bare.group(1)) if bare else None
        unit = before[0].get("unit") or ""
    if quantity is None or quantity < 0:
        return None
    return {"items": [{**before[0], "quantity": quantity, "unit": unit or before[0].get("unit") or ""}]}
