"""The words of a correction ("不对，是4个", "改成9点", "哦不对，171"): one list for every stage.

:data:`CORRECTION` finds a correction word; :func:`correction_tail` gives the corrected words
(after the last 是/改成, or, when none follows the correction word, everything after it).
"""

from __future__ import annotations

import re

__all__ = ["CORRECTION", "correction_tail"]

CORRECTION = re.compile(r"不对|不是|错了|说错|改成|改为|改一下|应该是|其实是|换成|更正")
_CORRECTED_TO = re.compile(r"应该是|其实是|改成|改为|换成|是")
_TRIM = "，,。.！!~～ "
_LEAD = re.compile(r"^(?:[了啦吧呀啊哦嗯，,。\s]|应该|我说的?)+")


def correction_tail(text: str) -> str | None:
    """In a correction the corrected words: 不是3个，是4个 → 4个; 不对，改成9点 → 9点; 不对，8点 → 8点.

    None when ``text`` is no correction or nothing follows the correction word.
    """
    words = list(CORRECTION.finditer(text))
    if not words:
        return None
    marks = [m for m in _CORRECTED_TO.finditer(text) if m.start() >= words[0].start()]
    if marks:
        tail = text[marks[-1].end():]
    else:
        tail = _LEAD.sub("", text[words[-1].end():])
    tail = tail.strip(_TRIM)
    return tail or None
