"""The token pass: raw tokens from every rule module, then the combinations that span several tokens.

Combinations: a clock window (9点到18点), a day range (下周一到周五), 每天 folded into a range or a
weekly repeat it follows (周一到周五每天早上7点), and a vague 前/后 right after a named day (春节前),
which becomes a weak OFFSET so it is reported as not understood rather than dropped.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from runtime.parsers import _time_named, _time_repeat  # noqa: F401  (they register their rules)
from runtime.parsers._time_tokens import Kind, Token, raw_tokens

__all__ = ["DATE_KINDS", "tokenize"]

DATE_KINDS = frozenset({Kind.DAY, Kind.WEEK, Kind.MONTHDAY, Kind.NAMED})
_SEP = re.compile(r"\s*(?:开始|起)?\s*[,，]?\s*(?:到|至|~|～|-|—|－|一直到)\s*")
_GAP = re.compile(r"[\s的]*")
_DAILY_GAP = re.compile(r"[\s,，的]*")
_BETWEEN = re.compile(r"\s*(?:之间|期间|这段时间)")
_VAGUE = re.compile(r"(?:的)?(?:之|以)?(?:前|后)(?![一二两三四五六七八九十\d半天晚])")


def _clock_at(tokens: list[Token], i: int, text: str) -> tuple[Token, int] | None:
    """A clock at ``i``, maybe preceded by its part of day: (clock with ``part`` set, next index)."""
    if i < len(tokens) and tokens[i].kind is Kind.CLOCK:
        return tokens[i], i + 1
    if (i + 1 < len(tokens) and tokens[i].kind is Kind.PART and tokens[i + 1].kind is Kind.CLOCK
            and _GAP.fullmatch(text[tokens[i].end:tokens[i + 1].start])):
        clock = tokens[i + 1]
        return replace(clock, start=tokens[i].start, part=tokens[i].part), i + 2
    return None


def _windows(text: str, tokens: list[Token]) -> list[Token]:
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        left = _clock_at(tokens, i, text)
        if left is not None:
            right = _clock_at(tokens, left[1], text)
            if right is not None and _SEP.fullmatch(text[left[0].end:right[0].start]):
                a, b = left[0], right[0]
                if b.part is None and a.part is not None:
                    b = replace(b, part=a.part)
                end = b.end
                tail = _BETWEEN.match(text, end)
                if tail:
                    end = tail.end()
                out.append(Token(Kind.WINDOW, a.start, end, parts=(a, b)))
                i = right[1]
                continue
        out.append(tokens[i])
        i += 1
    return out


def _ranges(text: str, tokens: list[Token]) -> list[Token]:
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        a = tokens[i]
        if (a.kind in DATE_KINDS and i + 1 < len(tokens) and tokens[i + 1].kind in DATE_KINDS
                and _SEP.fullmatch(text[a.end:tokens[i + 1].start])):
            b = tokens[i + 1]
            out.append(Token(Kind.RANGE, a.start, b.end, parts=(a, b)))
            i += 2
            continue
        out.append(a)
        i += 1
    return out


def _absorb_daily(text: str, tokens: list[Token]) -> list[Token]:
    out: list[Token] = []
    for token in tokens:
        if (out and token.kind is Kind.RECUR and token.rrule == "FREQ=DAILY"
                and (out[-1].kind is Kind.RANGE or out[-1].rrule.startswith("FREQ=WEEKLY"))
                and _DAILY_GAP.fullmatch(text[out[-1].end:token.start])):
            out[-1] = replace(out[-1], end=token.end, part=token.part or out[-1].part)
            continue
        out.append(token)
    return out


def _vague(text: str, tokens: list[Token]) -> list[Token]:
    out: list[Token] = []
    for n, token in enumerate(tokens):
        out.append(token)
        nxt = tokens[n + 1] if n + 1 < len(tokens) else None
        if token.kind not in DATE_KINDS or (nxt is not None and nxt.start <= token.end + 1
                                             and nxt.kind is Kind.OFFSET):
            continue
        m = _VAGUE.match(text, token.end)
        if m and (nxt is None or nxt.start >= m.end()):
            out.append(Token(Kind.OFFSET, m.start(), m.end(), weak=True))
    return out


@lru_cache(maxsize=2048)
def _scan(text: str) -> tuple[Token, ...]:
    tokens = raw_tokens(text)
    return tuple(_vague(text, _absorb_daily(text, _ranges(text, _windows(text, tokens)))))


def tokenize(text: str) -> list[Token]:
    """All time tokens of ``text`` left to right, with windows, ranges and vague offsets combined."""
    return list(_scan(text))
