"""Which shown entity a message points at: by position ("第二道"), by a word of its name ("那个鱼"),
or, when only one thing was shown, by a bare "这个". Pure."""

from __future__ import annotations

import re
from dataclasses import dataclass

from runtime.context import FocusEntity
from runtime.understand.lexicon import Span, ordinals, unexplained

__all__ = ["Picked", "pick"]

# "这个" points at a thing, not at a stretch of time ("这个月", "那个星期", "这个时候")
_DEICTIC = re.compile(r"(?:这个|那个)(?!月|星期|礼拜|周|季度|年|时候|点)|这道|那道|这条|那条|这份|那份|这盘|那盘|这款|那款|它")


@dataclass(frozen=True, slots=True)
class Picked:
    """The entity picked, its 1-based position as shown, the words that picked it, and how: by its
    ``position``, by a word of its ``name``, or by a pointing word when only one was shown (``deixis``)."""

    entity: FocusEntity
    position: int
    spans: tuple[Span, ...]
    by: str = "position"


def pick(text: str, entities: list[FocusEntity], *, taken: list[Span] | None = None) -> Picked | None:
    """The one entity ``text`` points at, or None (none, or more than one fits). ``taken`` spans are
    already explained by something else and are not read as a name."""
    if not entities:
        return None
    major = [n for n, e in enumerate(entities, 1) if not e.attrs.get("minor")]
    for index, span in ordinals(text):  # counted among what matters ("第一个菜" is not the rice)
        counted = major or list(range(1, len(entities) + 1))
        place = len(counted) if index == -1 else index
        if 1 <= place <= len(counted):
            position = counted[place - 1]
            return Picked(entities[position - 1], position, (span,))
    free = _free(text, taken or [])
    deictic = _DEICTIC.search(free)
    named = _by_name(free, entities, single=deictic is not None)
    if named is not None:
        return named
    if deictic is not None and len(major) == 1:
        return Picked(entities[major[0] - 1], major[0], (deictic.span(),), "deixis")
    return None


def _free(text: str, taken: list[Span]) -> str:
    """``text`` with taken spans blanked (same length, so offsets still hold)."""
    chars = list(text)
    for start, end in taken:
        for i in range(max(0, start), min(len(chars), end)):
            chars[i] = " "
    return "".join(chars)


def _by_name(text: str, entities: list[FocusEntity], *, single: bool) -> Picked | None:
    """The entity whose name shares the longest run of characters with ``text`` (two or more, or, with
    ``single``, one character found in that entity's name alone and meaning something: 那个鱼 → 清蒸鲈鱼)."""
    best: list[tuple[int, int, Span]] = []  # (length, position, span)
    for position, entity in enumerate(entities, 1):
        aka = entity.attrs.get("aka")
        names = [entity.name, *(str(aka).split() if aka else ())]  # other words that name it ("早上")
        runs = [r for n in names if (r := _longest_common(text, n)) is not None]
        run = max(runs, key=lambda r: r[1] - r[0], default=None)
        if run is not None:
            best.append((run[1] - run[0], position, run))
    if best:
        top = max(length for length, _, _ in best)
        winners = [b for b in best if b[0] == top]
        if top >= 2 and len({p for _, p, _ in winners}) == 1:
            _, position, span = winners[0]
            return Picked(entities[position - 1], position, (span,), "name")
        if top == 1 and single:
            singles = [(p, s) for _, p, s in winners if _meaningful(text, s)
                       and sum(text[s[0]:s[1]] in _names(e) for e in entities) == 1]
            if len({p for p, _ in singles}) == 1:
                position, span = singles[0]
                return Picked(entities[position - 1], position, (span,), "name")
    return None


def _names(entity: FocusEntity) -> str:
    return f"{entity.name} {entity.attrs.get('aka') or ''}"


def _meaningful(text: str, span: Span) -> bool:
    """Whether the one character at ``span`` means something of its own: not a filler, and not part of a
    word that says nothing with the character before or after it (the 可 of "这个可以")."""
    char = text[span[0]:span[1]]
    words = (text[max(0, span[0] - 1):span[1]], text[span[0]:span[1] + 1])
    return "\u4e00" <= char <= "\u9fff" and bool(unexplained(char, [])) \
        and not any(len(w) == 2 and not unexplained(w, []) for w in words)


def _longest_common(text: str, name: str) -> Span | None:
    """The span in ``text`` of the longest run of characters also found in ``name`` (None if none)."""
    best: Span | None = None
    for start in range(len(text)):
        if text[start] == " ":
            continue
        end = start + 1
        while end <= len(text) and text[start:end] in name and text[end - 1] != " ":
            end += 1
        length = end - 1 - start
        if length >= 1 and (best is None or length > best[1] - best[0]):
            best = (start, end - 1)
    return best
