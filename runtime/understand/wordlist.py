"""The word list typo repair scores with, built once from public data and shipped as two small files.

``words.tsv``: everyday Chinese words (one to four characters) with their corpus frequency, from jieba's
dictionary (MIT licence); ``pinyin.tsv``: every common character's toneless readings, from pypinyin
(MIT licence). Loading the two libraries themselves would cost a worker ~60 MB of memory; the tables
cost a tenth of that and load on first use. Rebuild (needs the ``train`` extra)::

    python -m runtime.understand.wordlist
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

__all__ = ["Words", "build", "load_words"]

HERE = Path(__file__).parent
WORDS_PATH = HERE / "words.tsv"
PINYIN_PATH = HERE / "pinyin.tsv"
MIN_FREQ = 10  # rarer words are not worth their memory: they matter only beside a typo
MAX_LEN = 4


def _cjk(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff"


@dataclass(frozen=True, slots=True)
class Words:
    """Word frequencies (as log-probabilities) and character readings."""

    logp: dict[str, float]
    floor: float  # the log-probability of a character the table does not know
    readings: dict[str, tuple[str, ...]]

    def reads(self, ch: str) -> tuple[str, ...]:
        """The toneless readings of ``ch`` (none for a character that is not Chinese)."""
        return self.readings.get(ch, ())


@lru_cache(maxsize=1)
def load_words() -> Words:
    """The shipped tables, read once."""
    counts: dict[str, int] = {}
    for line in WORDS_PATH.read_text(encoding="utf-8").splitlines():
        word, _, freq = line.partition("\t")
        counts[word] = int(freq)
    total = math.log(sum(counts.values()))
    logp = {w: math.log(f) - total for w, f in counts.items()}
    readings: dict[str, tuple[str, ...]] = {}
    for line in PINYIN_PATH.read_text(encoding="utf-8").splitlines():
        ch, _, said = line.partition("\t")
        readings[ch] = tuple(said.split())
    return Words(logp=logp, floor=-total, readings=readings)


def build() -> None:  # pragma: no cover - a maintainer's tool, run by hand when the sources change
    """Write ``words.tsv`` and ``pinyin.tsv`` from jieba's dictionary and pypinyin's tables."""
    import jieba
    from pypinyin import Style, pinyin
    from pypinyin.constants import PINYIN_DICT

    source = Path(jieba.__file__).with_name("dict.txt")
    rows: list[str] = []
    for line in source.read_text(encoding="utf-8").splitlines():
        word, freq, *_ = line.split()
        if len(word) <= MAX_LEN and int(freq) >= MIN_FREQ and all(map(_cjk, word)):
            rows.append(f"{word}\t{freq}")
    WORDS_PATH.write_text("\n".join(rows) + "\n", encoding="utf-8")
    chars = sorted(chr(c) for c in PINYIN_DICT if _cjk(chr(c)))
    lines = []
    for ch in chars:
        said = dict.fromkeys(pinyin(ch, heteronym=True, style=Style.NORMAL)[0])
        lines.append(f"{ch}\t{' '.join(said)}")
    PINYIN_PATH.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(rows)} words, {len(lines)} characters")


if __name__ == "__main__":  # pragma: no cover
    build()
