"""Reminder wording: the content of "…提醒我…" and the target of "取消…提醒"."""

from __future__ import annotations

import re

from runtime.skill import time_spans

__all__ = ["ALL", "extract_content", "extract_target", "parse_target"]

ALL = "全部"
_KEYWORD = re.compile(r"(?:记得|请|麻烦|帮我)*(?:提醒一下我|提醒我一下|提醒下我|提醒我|提醒一下|叫我|喊我|提醒)")
_SETUP = re.compile(r"(?:帮我)?(?:设置?|定|建|加|创建|添加)(?:一个|个|一下)?(?:的)?提醒")
_LEAD = re.compile(r"^(?:[\s,，:：。、]|的|要|该|记得|我|再)+")
_TRAIL = re.compile(r"[\s,，。.!！~～吧哦啊呀哈的]+$")
_ALL = re.compile(r"全部|所有|全都|都")
_NUMBER = re.compile(r"第?\s*(?P<n>\d+|[一二两三四五六七八九十]{1,3})\s*(?:个|条|号)?")
_VERB = re.compile(r"^(?:请|帮我|把|我)*(?:取消|删掉|删除|删了|去掉|撤销|关掉|关闭|不要|别再)(?:掉|了)?(?:一下)?(?:我的|的)?")
_TAIL = re.compile(r"(?:那个|这个|那条|这条)?(?:的)?(?:提醒)?(?:吧|了|掉|一下|取消|删掉|删除)*$")
_CN = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def _strip_spans(text: str) -> str:
    for start, end in reversed(time_spans(text)):
        text = text[:start] + text[end:]
    return text


def _clean(text: str) -> str:
    return _TRAIL.sub("", _LEAD.sub("", text.strip())).strip()


def extract_content(text: str) -> str | None:
    """What to be reminded of: the words after 提醒我 (or before it), without the time phrase."""
    rest = _SETUP.sub(" ", _strip_spans(text))
    match = _KEYWORD.search(rest)
    if match is None:
        content = _clean(rest)
    else:
        content = _clean(rest[match.end():]) or _clean(rest[:match.start()])
    return content or None


def _small_int(raw: str) -> int | None:
    if raw.isdigit():
        return int(raw)
    if raw == "十":
        return 10
    if raw.startswith("十") and len(raw) == 2:
        return 10 + _CN.get(raw[1], -100)
    if len(raw) == 1:
        return _CN.get(raw)
    return None


def parse_target(text: str) -> int | str | None:
    """A cancel target from an answer: a list number, :data:`ALL`, or words of a reminder's content."""
    raw = text.strip()
    if not raw:
        return None
    if _ALL.search(raw):
        return ALL
    words = _clean(_TAIL.sub("", _VERB.sub("", raw)).removeprefix("提醒"))
    number = _NUMBER.fullmatch(words)
    if number is not None:
        value = _small_int(number.group("n"))
        return value if value is not None and value > 0 else None
    return words or None


def extract_target(text: str) -> int | str | None:
    """The cancel target in a whole first message (取消第2个提醒 / 取消带伞的提醒 / 取消所有提醒)."""
    return parse_target(text)
