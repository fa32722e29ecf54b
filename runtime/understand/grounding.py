"""Whether a value a model proposes was said: a span of the message or of what was last shown.

A model may read a value into a write that the user never said (an injected content, a weight, "全部").
Such a value is dropped, and the engine asks for the slot instead of confirming it (DESIGN §5). A value
is grounded when, after normalisation (简繁, full and half width, Chinese numerals as digits, case,
spaces and punctuation), it is a span of the message or of the focus: the last result's params, the
names of the things it showed and its shown facts. Pure.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from runtime.context import Focus
from runtime.parsers.numbers import normalize_numerals
from runtime.understand._hanzi import simplified

__all__ = ["focus_texts", "grounded", "split_grounded"]

_NOISE = re.compile(r"[\s，,。！!？?、；;：:「」『』“”\"'‘’（）()【】\[\]{}<>《》…~～\-_/]+|\.(?!\d)|(?<!\d)\.")


def _norm(text: str) -> str:
    return _NOISE.sub("", normalize_numerals(simplified(unicodedata.normalize("NFKC", text)))).lower()


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def grounded(value: Any, sources: Sequence[str]) -> bool:
    """Whether ``value`` is said in one of ``sources`` (a number by its digits, a text by its words, a
    list item by item). A flag or an empty value is never grounded: it says nothing the user said."""
    said = [_norm(s) for s in sources if s]
    if isinstance(value, bool) or value is None:
        return False
    if isinstance(value, int | float):
        digits = re.escape(_number(value))
        return any(re.search(rf"(?<![\d.]){digits}(?![\d]|\.\d)", s) for s in said)
    if isinstance(value, str):
        words = _norm(value)
        return bool(words) and any(words in s for s in said)
    if isinstance(value, list | tuple):
        return bool(value) and all(grounded(v, sources) for v in value)
    if isinstance(value, Mapping):
        return bool(value) and all(grounded(v, sources) for v in value.values())
    return False


def split_grounded(params: Mapping[str, Any], sources: Sequence[str]) -> tuple[dict[str, Any], list[str]]:
    """``params`` kept when grounded in ``sources``, and the names of those dropped."""
    kept: dict[str, Any] = {}
    dropped: list[str] = []
    for name, value in params.items():
        if grounded(value, sources):
            kept[name] = value
        else:
            dropped.append(name)
    return kept, dropped


def _texts(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, bool):
        return
    elif isinstance(value, int | float):
        yield _number(value)
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _texts(item)


def focus_texts(focus: Focus | None) -> list[str]:
    """The words of what was last shown: its params, the names of the things it showed, its facts."""
    if focus is None:
        return []
    parts: Iterable[Any] = (focus.params, focus.shown, [e.name for e in focus.entities],
                            [e.attrs.get("phrase") for e in focus.entities])
    return [t for part in parts for t in _texts(part)]
