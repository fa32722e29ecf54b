"""Normalising a message before it is parsed: 繁體 as 简体, written Cantonese as Mandarin, full-width
letters and digits as half-width, and pinyin-keyboard slips repaired against the domain's vocabulary."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from runtime.understand._dialect import mandarin
from runtime.understand._hanzi import simplified
from runtime.understand.typos import Repair, TypoRepair

__all__ = ["Normalised", "Normaliser"]

# full-width ASCII letters, digits and the space: people type them with a Chinese keyboard left on
_WIDTH = {c: c - 0xFEE0 for c in range(0xFF10, 0xFF1A)} | {c: c - 0xFEE0 for c in range(0xFF21, 0xFF3B)} \
    | {c: c - 0xFEE0 for c in range(0xFF41, 0xFF5B)} | {0x3000: 0x20}


@dataclass(frozen=True, slots=True)
class Normalised:
    """The message as the parser reads it, and the slips repaired on the way."""

    text: str
    repairs: tuple[Repair, ...] = ()


class Normaliser:
    """One per engine: the typo repair knows the vocabulary the skills declare."""

    def __init__(self, vocabulary: Iterable[str]) -> None:
        self._typos = TypoRepair(vocabulary)

    def __call__(self, text: str) -> Normalised:
        """``text`` normalised (the same text when nothing changes)."""
        text = mandarin(simplified(text)).translate(_WIDTH)
        fixed, repairs = self._typos.repair(text)
        return Normalised(fixed, repairs)
