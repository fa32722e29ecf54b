"""Typo repair against the domain's closed vocabularies (DESIGN §3.4, "normalise").

A pinyin keyboard slips to a character that sounds the same (题醒 for 提醒, 小使 for 小时, 早尚 for 早上).
A stretch of the message is repaired to a word of the vocabulary the skills declare (dish names,
activities, units, festivals, operation verbs, time words) only when (1) every character of it can be
read with the word's sound, (2) at most one character differs (two in a word of four or more), and
(3) the repaired message reads as likelier Chinese than the original by more than the cost of a slip:
the best segmentation of each under a unigram model of everyday words (:mod:`wordlist`) is compared.
So a real word outside the vocabulary stays as it is (提行李, 十分重要, 一点小事). Pure.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from runtime.understand.wordlist import MIN_FREQ, Words, load_words

__all__ = ["Repair", "TypoRepair"]

SLIP = -3.0  # log-odds a repaired character must win by: one slip is rarer than an odd word
# the commonest function characters: typed, they are meant (老是醒 is not 老提醒); a slip lands elsewhere
_FUNCTION = frozenset("是的了在不也就都要会有我你他她它这那个和与着过吧吗呢啊")
FITS = 2.0  # what a repair gains when the word then stands where such words stand (下午 before 两点)
_NUMBER = r"[\d一二两三四五六七八九十百半几俩仨]+"
# where everyday words stand: a part of the day before a clock time, a unit after a number, 提醒 before 我
_COLLOCATIONS = re.compile(rf"(?:早上|上午|中午|下午|傍晚|晚上|夜里|凌晨){_NUMBER}[点:：]|{_NUMBER}个?(?:小时|分钟|钟头|公里|千米|公斤)"
                           r"|提醒(?:我|一下)")
LONGEST = 8
COMMON = 20  # a word seen this often in the corpus is a word, not a slip


def _cjk(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff"


@dataclass(frozen=True, slots=True)
class Repair:
    """One repaired stretch: where it starts, what was typed and the word meant."""

    start: int
    typed: str
    meant: str


class TypoRepair:
    """Repairs sound-alike slips to words of ``vocabulary``; the word list loads on the first candidate."""

    def __init__(self, vocabulary: Iterable[str], words: Words | None = None) -> None:
        self._vocab = frozenset(w for w in vocabulary if 2 <= len(w) <= LONGEST and all(map(_cjk, w)))
        self._words = words
        self._index: dict[tuple[int, str], list[str]] | None = None

    def _table(self) -> Words:
        if self._words is None:
            self._words = load_words()
        return self._words

    def _by_sound(self) -> dict[tuple[int, str], list[str]]:
        """Vocabulary words by (length, a reading of their first character)."""
        if self._index is None:
            words = self._table()
            index: dict[tuple[int, str], list[str]] = {}
            for word in sorted(self._vocab):
                for said in words.reads(word[0]):
                    index.setdefault((len(word), said), []).append(word)
            self._index = index
        return self._index

    def repair(self, text: str) -> tuple[str, tuple[Repair, ...]]:
        """``text`` with its slips repaired, and the repairs made (none: ``text`` itself)."""
        if not self._vocab or not any(map(_cjk, text)):
            return text, ()
        return _repair(self, text)

    def _candidates(self, text: str) -> list[tuple[int, str]]:
        """(start, word) for every stretch that sounds like a vocabulary word and differs from it a little."""
        words, index = self._table(), self._by_sound()
        found: list[tuple[int, str]] = []
        for i, ch in enumerate(text):
            for said in words.reads(ch):
                for length in range(2, LONGEST + 1):
                    typed = text[i:i + length]
                    if len(typed) < length:
                        break
                    for word in index.get((length, said), ()):
                        if typed == word or typed in self._vocab:
                            continue
                        differ = sum(a != b for a, b in zip(typed, word, strict=True))
                        if differ > (1 if length <= 3 else 2):
                            continue
                        if all(set(words.reads(a)) & set(words.reads(b)) for a, b in zip(typed, word, strict=True)):
                            found.append((i, word))
        return found

    def vocabulary_spans(self, text: str) -> list[tuple[int, int]]:
        """Where ``text`` says a vocabulary word exactly (those characters are no slip of another word)."""
        return [(i, i + n) for i in range(len(text)) for n in range(2, LONGEST + 1)
                if i + n <= len(text) and text[i:i + n] in self._vocab]

    def likelihood(self, text: str) -> float:
        """The log-probability of the best segmentation of ``text`` (non-Chinese characters are neutral)."""
        return self._segment(text)[0]

    def orphans(self, text: str) -> frozenset[int]:
        """Where the best segmentation of ``text`` leaves a Chinese character outside every common word:
        only such a character may be a slip (行 of 行李 belongs to a word; 题 of 题醒 stands alone, and so it
        does beside a rare word it could also belong to, the 点题 of "8点题醒")."""
        return self._segment(text)[1]

    def _segment(self, text: str) -> tuple[float, frozenset[int]]:
        words = self._table()
        logp, vocab = words.logp, self._vocab
        rare = words.floor + math.log(MIN_FREQ)  # a vocabulary word the list lacks reads as its rarest word
        best = [0.0] * (len(text) + 1)
        step = [1] * (len(text) + 1)
        for i in range(len(text) - 1, -1, -1):
            if not _cjk(text[i]):
                best[i] = best[i + 1]
                continue
            top, width = logp.get(text[i], words.floor) + best[i + 1], 1
            for length in range(2, min(LONGEST, len(text) - i) + 1):
                piece = text[i:i + length]
                p = logp.get(piece)
                if p is None and piece in vocab:
                    p = rare
                if p is not None and p + best[i + length] > top:
                    top, width = p + best[i + length], length
            best[i], step[i] = top, width
        common = words.floor + math.log(COMMON)
        alone: set[int] = set()
        i = 0
        while i < len(text):
            width = step[i]
            if _cjk(text[i]) and (width == 1 or logp.get(text[i:i + width], rare) < common):
                alone.update(range(i, i + width))
            i += width
        return best[0], frozenset(alone)


def _fits(text: str, start: int, length: int) -> bool:
    """Whether the word at ``start`` stands in a collocation everyday words stand in."""
    return any(m.start() <= start + length and start < m.end()
               for m in _COLLOCATIONS.finditer(text, max(0, start - 4), start + length + 4))


@lru_cache(maxsize=4096)  # the same short texts come again and again
def _cached(repairer: TypoRepair, text: str) -> tuple[str, tuple[Repair, ...]]:
    return _repair_uncached(repairer, text)


def _repair(repairer: TypoRepair, text: str) -> tuple[str, tuple[Repair, ...]]:
    return _cached(repairer, text)


def _repair_uncached(repairer: TypoRepair, text: str) -> tuple[str, tuple[Repair, ...]]:
    done: list[Repair] = []
    for _ in range(4):  # a message rarely holds more than a slip or two
        candidates = repairer._candidates(text)
        if not candidates:
            break
        base = repairer.likelihood(text)
        alone = repairer.orphans(text)
        kept = repairer.vocabulary_spans(text)
        best: tuple[float, int, str] | None = None
        for start, word in candidates:
            typed = text[start:start + len(word)]
            end = start + len(word)
            differ = [k for k, (a, b) in enumerate(zip(typed, word, strict=True)) if a != b]
            fixed = text[:start] + word + text[start + len(word):]
            fits = _fits(fixed, start, len(word)) and not _fits(text, start, len(word))
            if typed in repairer._table().logp or (len(word) < 3 and any(typed[k] in _FUNCTION for k in differ)) \
                    or (not fits and any(start + k not in alone for k in differ)):
                continue  # a real word as typed, a short word's character that means itself (老是醒), or one that
                # belongs to a word — unless the repair then stands where such words stand (后天下五四点 → 下午)
            if any(s < end and start < e and not (start <= s and e <= end) for s, e in kept):
                continue  # it would cut a word of the domain said as it is ("前天骑了": not 前天气了)
            gain = repairer.likelihood(fixed) - base + SLIP * len(differ) + (FITS if fits else 0.0)
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, start, word)
        if best is None:
            break
        _, start, word = best
        done.append(Repair(start, text[start:start + len(word)], word))
        text = text[:start] + word + text[start + len(word):]
    return text, tuple(done)
