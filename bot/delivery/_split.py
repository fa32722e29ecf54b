"""Pack reply texts into as few messages as fit WeChat's byte limit, splitting only long ones."""

from __future__ import annotations

CUSTOM_LIMIT_BYTES = 2048
PASSIVE_LIMIT_BYTES = 2048
SEPARATOR = "\n\n"
_BREAKS = ("\n", "。", "！", "？", "；", "!", "?", ";", "，", ",", " ")


def _size(text: str) -> int:
    return len(text.encode("utf-8"))


def split_text(text: str, limit: int = CUSTOM_LIMIT_BYTES) -> list[str]:
    """Split ``text`` into pieces of at most ``limit`` UTF-8 bytes, preferring natural breaks."""
    pieces: list[str] = []
    rest = text
    while _size(rest) > limit:
        cut = _fit(rest, limit)
        window = rest[:cut]
        best = max((window.rfind(b) + len(b) for b in _BREAKS if window.rfind(b) > 0), default=0)
        if best >= cut // 2:
            cut = best
        pieces.append(rest[:cut].rstrip("\n"))
        rest = rest[cut:].lstrip("\n")
    if rest or not pieces:
        pieces.append(rest)
    return pieces


def _fit(text: str, limit: int) -> int:
    """The largest character count whose UTF-8 encoding fits in ``limit`` bytes."""
    total = 0
    for i, ch in enumerate(text):
        total += len(ch.encode("utf-8"))
        if total > limit:
            return i
    return len(text)


def pack(texts: list[str], limit: int = CUSTOM_LIMIT_BYTES) -> list[str]:
    """Join ``texts`` (in order) into the fewest messages of at most ``limit`` bytes each.

    Every message spends quota, so replies are joined first and the result split at natural breaks.
    """
    joined = SEPARATOR.join(t for t in texts if t)
    return [p for p in split_text(joined, limit) if p] if joined else []


def pieces_for(carried: tuple[str, ...] | list[str], texts: tuple[str, ...] | list[str]) -> list[str]:
    """The messages a delivery sends, in order: the parked texts it carries, then its own, packed.

    The pieces are fixed once a delivery starts (it stores them); only their channels are chosen
    as it goes, so a re-run sends exactly what the first attempt would have sent.
    """
    return pack([t for t in (*carried, *texts) if t.strip()], min(PASSIVE_LIMIT_BYTES, CUSTOM_LIMIT_BYTES))
