"""Text normalisation and character n-grams, shared by training and run-time inference.

Training (scikit-learn) and inference (NumPy) call the same functions, so the features the
shipped weights were fitted on are exactly the features computed at run time.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ._traditional import to_simplified

_PUNCT = re.compile(r"[\s\.,!?;:~'\"`()\[\]{}<>、。，！？；：…—～·“”‘’（）【】《》「」『』]+")
_DIGITS = re.compile(r"\d")
_BOS = "^"
_EOS = "$"


@dataclass(frozen=True, slots=True)
class FeatureConfig:
    """How text becomes n-grams; stored in the artifact next to the weights."""

    min_n: int = 1
    max_n: int = 3
    fold_digits: bool = True
    boundaries: bool = True
    fold_traditional: bool = False


def normalize(text: str, *, fold_digits: bool = True, fold_traditional: bool = False) -> str:
    """NFKC, lower case, punctuation and spacing collapsed to one space; digits folded to ``0``;
    with ``fold_traditional``, traditional characters replaced by simplified ones (計時器 → 计时器)."""
    folded = unicodedata.normalize("NFKC", text).lower()
    if fold_traditional:
        folded = to_simplified(folded)
    folded = _PUNCT.sub(" ", folded).strip()
    if fold_digits:
        folded = _DIGITS.sub("0", folded)
    return folded


def char_ngrams(text: str, config: FeatureConfig) -> list[str]:
    """Character n-grams of the normalised text, with start/end markers when configured."""
    body = normalize(text, fold_digits=config.fold_digits, fold_traditional=config.fold_traditional)
    padded = f"{_BOS}{body}{_EOS}" if config.boundaries else body
    grams: list[str] = []
    for n in range(config.min_n, config.max_n + 1):
        if n == 1:
            grams.extend(ch for ch in body if ch != " ")
            continue
        grams.extend(padded[i : i + n] for i in range(len(padded) - n + 1))
    return grams
