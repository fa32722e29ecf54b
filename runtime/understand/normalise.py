"""The one normalisation every reader of a message sees: 繁體 as 简体, written Cantonese as Mandarin."""

from __future__ import annotations

from runtime._dialect import mandarin
from runtime._hanzi import simplified

__all__ = ["normalise"]


def normalise(text: str) -> str:
    """``text`` as the stages read it: Simplified characters, Cantonese function words in Mandarin."""
    return mandarin(simplified(text))
