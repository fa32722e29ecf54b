"""How the bot says the values it holds: in a confirmation every value whole, in the model summary only
what is safe to quote.

A write's confirmation must show every value that would be written (DESIGN §5): a long or punctuated
value is quoted whole in 「」 (a very long one with its middle elided, its start and end shown), never
dropped. :func:`complete_question` adds to a skill's own yes/no question the values it leaves out.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from runtime.parsers.numbers import normalize_numerals
from runtime.parsers.timephrase import TimeExpr, describe_rrule, format_when

__all__ = ["complete_question", "describe_params", "spoken_values", "waiting_clause"]

WHOLE_CHARS = 60
"""A value up to this long is quoted whole; a longer one keeps its start and end."""
_KEPT = 24

_UNITS = {"minutes": "{}分钟", "distance_km": "{}公里", "height_cm": "身高{}厘米", "weight_kg": "体重{}公斤",
          "servings": "{}份"}
_REF = re.compile(r"^#\d+\s*")  # one shown thing picked by its record ("#12 吃药"): said by its name
_NOISE = re.compile(r"[\s，,。！!？?、；;：:「」『』“”\"'‘’（）()【】\[\]{}<>《》…~～\-_/]+|\.(?!\d)|(?<!\d)\.")
_CODE = re.compile(r"^[a-z]+(?:_[a-z]+)+$")  # a skill's own code for a thing ("height_cm"), not words to show


def _num(value: Any) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def _plain(text: str) -> bool:
    """Free text safe to quote in a prompt: no JSON punctuation, no id-like runs."""
    return not re.search(r"[{}\[\]\"'<>:=]|[A-Za-z0-9_\-]{8,}", text)


def _when(value: Mapping[str, Any]) -> str:
    try:
        expr = TimeExpr.from_param(dict(value))
    except (KeyError, ValueError, TypeError):
        return "时间"
    return describe_rrule(expr.rrule, expr.at) if expr.rrule else format_when(expr.at)


def _is_time(value: Any) -> bool:
    return isinstance(value, Mapping) and "at" in value


def describe_params(params: Mapping[str, Any]) -> str:
    """Short, prompt-safe words for ``params`` (a value that is long or looks like data is left out):
    for the model summary and the bot's "记下了" lines, never for a confirmation."""
    parts = []
    for key, value in params.items():
        if key == "people":
            parts.append(f"{_num(value)}人")
        elif key == "budget":
            parts.append(f"预算{_num(value)}元")
        elif key in ("dietary", "dislikes") and isinstance(value, list):
            parts.append("忌口" + ("、".join(map(str, value[:4])) if value else "无"))
        elif key in _UNITS and isinstance(value, int | float):
            parts.append(_UNITS[key].format(_num(value)))
        elif isinstance(value, str) and len(value) <= 12 and _plain(value):
            parts.append(value)
        elif _is_time(value):  # a time slot (TimeExpr.to_param)
            parts.append(_when(value))
        elif isinstance(value, list) and value and all(isinstance(v, str) and len(v) <= 8 and _plain(v) for v in value):
            parts.append("、".join(value[:4]))
    return "，".join(parts)


def _quoted(text: str) -> str:
    """A text value as the user will see it stored: whole, or its start and end around a marked cut."""
    flat = re.sub(r"\s+", " ", text).strip()
    if len(flat) > WHOLE_CHARS:
        flat = f"{flat[:_KEPT]}…（中间省略{len(flat) - 2 * _KEPT}字）…{flat[-_KEPT:]}"
    return f"「{flat}」"


def _words(value: Any) -> list[str]:
    """The texts a value holds (a list's items, a named item's name)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        name = value.get("name")
        return [str(name)] if isinstance(name, str) and name else []
    if isinstance(value, list | tuple):
        return [w for item in value for w in _words(item)]
    return []


def _spoken(key: str, value: Any) -> str:
    """One value in the bot's words, nothing left out."""
    if isinstance(value, bool):
        return ""
    if key == "people" and isinstance(value, int | float):
        return f"{_num(value)}人"
    if key == "budget" and isinstance(value, int | float):
        return f"预算{_num(value)}元"
    if key in _UNITS and isinstance(value, int | float):
        return _UNITS[key].format(_num(value))
    if isinstance(value, int | float):
        return _num(value)
    if _is_time(value):
        return _when(value)
    words = [_REF.sub("", w) for w in _words(value)]  # every text quoted: where it starts and ends is plain
    return "、".join(_quoted(w) for w in words if w)


def spoken_values(params: Mapping[str, Any]) -> str:
    """Every value of ``params`` in the bot's words, none dropped (a confirmation's "what")."""
    return "，".join(s for key, value in params.items() if (s := _spoken(key, value)))


def _norm(text: str) -> str:
    return _NOISE.sub("", normalize_numerals(unicodedata.normalize("NFKC", text))).lower()


def _shown(question: str, value: Any) -> bool:
    """Whether ``question`` shows ``value`` (a number by its digits, a time by its clock or its day, a
    text by its words)."""
    said = _norm(question)
    if isinstance(value, bool) or value is None:
        return True
    if isinstance(value, int | float):
        return re.search(rf"(?<![\d.]){re.escape(_num(value))}(?![\d]|\.\d)", said) is not None
    if _is_time(value):
        try:
            expr = TimeExpr.from_param(dict(value))
        except (KeyError, ValueError, TypeError):
            return True
        marks = [_norm(expr.said or ""), _norm(_when(value))]
        if expr.has_time:
            marks.append(f"{expr.at.hour:02d}{expr.at.minute:02d}")
        return any(m and m in said for m in marks)
    return all(_norm(_REF.sub("", w)) in said for w in _words(value) if _norm(_REF.sub("", w)))


def complete_question(question: str, params: Mapping[str, Any], names: Iterable[str]) -> str:
    """``question`` with the values of the slots ``names`` it does not show added before its 吗？, so a
    confirmation never hides what would be written."""
    missing = {n: params[n] for n in names if n in params and params[n] not in (None, "", [], {})
               and not (isinstance(params[n], str) and _CODE.match(params[n])) and not _shown(question, params[n])}
    said = spoken_values(missing)
    if not said:
        return question
    head, mark, tail = question.rpartition("吗？")
    if mark and not tail.strip():
        return f"{head}，{said}{mark}"
    return f"{question.rstrip()}（还有：{said}）"


def waiting_clause(question: str) -> str:
    """A yes/no question of a waiting write as a clause ("确认记录：3号 游泳 25分钟吗？（这是…）" → 记录：3号 游泳 25分钟)."""
    said = re.sub(r"（[^）]*(?:理解|回复)[^）]*）", "", question).strip()  # the notes after it
    return re.sub(r"^(?:确认|确定)(?:一下)?|(?:吗)?[？?]$", "", said)
