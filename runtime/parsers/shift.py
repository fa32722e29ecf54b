"""A message that only moves the time just set: "提前半小时", "晚点", "往后推一小时", "早一点", "推迟一天".

:func:`shift_minutes` gives how many minutes earlier (negative: later). Said without an amount
(早点, 晚一点, 再晚些) it is one step of :data:`STEP_MINUTES`: small enough to be a nudge, large enough to
be worth a message; said again it moves another step.
"""

from __future__ import annotations

import re

from runtime.parsers.numbers import normalize_numerals
from runtime.parsers.slots import parse_duration

__all__ = ["STEP_MINUTES", "shift_minutes"]

STEP_MINUTES = 30.0

_EARLIER = r"提前|提早|早|往前(?:挪|提|调|移)|前移"
_LATER = r"晚|推迟|推后|延后|延迟|往后(?:推|挪|延|调|移)|后移|挪后"
_SHIFT = re.compile(
    r"^(?:哦|噢|啊|呃|额|嗯|哎呀|哎哟|哎|唉|诶|欸|不用了|算了|还是|要不)?[，,\s]*"
    r"(?:那|那就|就|再|请|麻烦你?|稍微|稍稍|能不能|可以)*"
    rf"(?:(?P<early>{_EARLIER})|(?P<late>{_LATER}))\s*(?P<d>[\d零〇一二两三四五六七八九十百半个小时钟头分天日点儿些会刻多]{{0,8}}?)"
    r"(?:再?(?:提醒|叫|通知|告诉|喊)我?)?(?:一下|一声)?(?:吧|啊|哈|呀|吗|么|就行|就好|好了)?[。!！~～?？]*$")
_STEP = re.compile(r"一?(?:点儿?|些)?|一会儿?")
_DAYS = re.compile(r"(\d+)\s*(?:天|日)")


def shift_minutes(text: str) -> float | None:
    """Minutes earlier of a message that only says how much earlier or later ("晚半小时" → -30,
    "提前一天" → 1440, "早点" → 30), else None."""
    m = _SHIFT.match(text.strip())
    if m is None:
        return None
    said = normalize_numerals(m.group("d"))
    days = _DAYS.fullmatch(said)
    if _STEP.fullmatch(m.group("d")):
        minutes: float | None = STEP_MINUTES
    elif days:
        minutes = float(days.group(1)) * 1440
    else:
        minutes = parse_duration(said, False)
    if not minutes or not 0 < minutes <= 60 * 24 * 31:
        return None
    return minutes if m.group("early") else -minutes
