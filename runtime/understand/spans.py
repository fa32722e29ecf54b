"""Pure helpers of the focus stage about what a message's spans explain (how much may stay unexplained,
where the changed values are said, which entity a rule is about)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from runtime.skill import Entity, Modifier, Question
from runtime.understand.lexicon import Span

__all__ = ["inside", "only", "said", "slack", "within"]


def slack(text: str) -> int:
    """Characters a follow-up may leave unexplained: one in a short message, a quarter of a long one."""
    return max(1, round(sum("\u4e00" <= ch <= "\u9fff" for ch in text) * 0.25))


def said(text: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[Span]:
    """Where ``text`` says the values a follow-up changed ("花生" of a new restriction): explained too."""
    words: list[str] = []
    for key, value in after.items():
        if value == before.get(key):
            continue
        items = value if isinstance(value, list) else [value]
        was = before.get(key)
        old: list[Any] = was if isinstance(was, list) else [was]
        words += [str(v) for v in items if isinstance(v, str) and v and v not in old]
    return [(m.start(), m.end()) for w in words for m in re.finditer(re.escape(w), text)]


def only(entities: list[Entity], rule: Modifier | Question) -> Entity | None:
    """The entity a rule is about when none was picked: the only one shown (of the kind a question of an
    object asks about, when it belongs to one)."""
    kind = getattr(rule, "kind", None)
    fits = [e for e in entities if kind is None or e.kind == kind]
    return fits[0] if len(fits) == 1 else None


def inside(span: Span, spans: tuple[Span, ...]) -> bool:
    return any(a <= span[0] and span[1] <= b for a, b in spans)


def within(spans: tuple[Span, ...], start: int, end: int) -> list[Span]:
    """``spans`` cut to ``start..end`` and made relative to it."""
    return [(max(a, start) - start, min(b, end) - start) for a, b in spans if a < end and start < b]

