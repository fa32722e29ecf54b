"""Several requests in one message ("明早8点提醒我带身份证，明晚7点提醒我取蛋糕", "3个人吃饭预算120 顺便5点
提醒我去买菜"): where one request ends and the next begins, and what each asks for by itself.

The message is cut where people join requests (punctuation, spaces, 顺便/另外/还有…); each piece that a
rule, operation × object or the local model's sure reading of a complete request reads as a request
starts a part, and the pieces nothing reads (预算120, 不吃辣) stay with the request before them. The same
request said in two pieces is one ("设一个明早8点的提醒，提醒我带伞") unless each piece is complete; a
piece that would be a confirmed write of its own is a value of the request beside it when that request
takes it ("6个人聚餐，孩子对花生过敏": the restriction of the dinner); a piece that holds everything a
request of the kind before it needs, and would not read as one with it, is one more of a list ("设三个提醒：
周三…，周四…，周五…"). Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from runtime.skill import UNKNOWN, SkillRegistry, missing_slots
from runtime.understand.domain import domain_guesses, domain_intents
from runtime.understand.lexicon import explained, operations
from runtime.understand.reasons import says_why
from runtime.understand.slots import extract_all

__all__ = ["Request", "Requests"]

_JOINS = re.compile(r"[，,。；;：:！!？?\s]+|(?=顺便|另外|还有|然后|同时|再帮我|也帮我|还要|并且)")
_STARTS = re.compile(r"(?:开始|起)$")
Predict = Callable[[str], Any]  # the local intent model's reading of some words, or None


@dataclass(frozen=True, slots=True)
class Request:
    """One request of a message: its intent, its words, and whether it was read as one more of a list
    (its intent is then the list's)."""

    intent: str
    words: str
    listed: bool = False


class Requests:
    """Reads a message's pieces with the skills' rules, their domain and the local model."""

    def __init__(self, registry: SkillRegistry, classify: Callable[[str], tuple[str, str] | None],
                 predict: Predict, threshold: float) -> None:
        self._registry = registry
        self._classify = classify
        self._predict = predict
        self._threshold = threshold
        talk = registry.fallback()
        self._small_talk = talk[1].intent if talk else None
        self._read_only = registry.read_only_intents()
        self._confirms = registry.write_intents()

    @staticmethod
    def several(text: str) -> bool:
        """Whether ``text`` has more than one piece at all (one piece holds one request: nothing to read)."""
        return sum(1 for p in _JOINS.split(text) if p.strip()) > 1

    def split(self, text: str) -> list[Request]:
        """Each request in ``text``, in order; one when it is a single request."""
        parts: list[tuple[str | None, str]] = []
        listed: set[str] = set()
        lead = ""
        for piece in (p.strip() for p in _JOINS.split(text)):
            if not piece:
                continue
            if _STARTS.search(piece):
                lead = f"{lead}{piece}"  # "从明年元旦开始，每周六…": where the next request starts, not a request
                continue
            piece, lead = f"{lead}{piece}", ""
            intent = self.read(piece)
            if intent is None and parts and (kind := parts[-1][0]) is not None and not says_why(piece) \
                    and self.separate(kind, parts[-1][1], piece):  # "明天升旗要穿" says why, not one more
                intent = kind  # one more of a list of requests of a kind ("设三个提醒：周三…，周四…，周五…")
                listed.add(piece)
            if parts and (intent is None or parts[-1][0] is None or self._same(parts[-1], (intent, piece))):
                before, said = parts[-1]
                parts[-1] = (before or intent, f"{said}，{piece}")
            else:
                parts.append((intent, piece))
        if lead and parts:
            parts[-1] = (parts[-1][0], f"{parts[-1][1]}，{lead}")
        merged = True
        while merged and len(parts) > 1:  # a confirmed write beside a request that takes it is its value
            merged = False
            for n in range(len(parts) - 1):
                winner = self._taker(parts[n], parts[n + 1])
                if winner is not None:
                    parts[n:n + 2] = [(winner, f"{parts[n][1]}，{parts[n + 1][1]}")]
                    merged = True
                    break
        return [Request(i, w, w in listed) for i, w in parts if i]

    def request_after(self, pieces: list[str]) -> int:
        """The first of ``pieces`` that asks for something by itself in so many words (a rule, operation ×
        object — never the local model's guess); ``len(pieces)`` when none does ("还一直出冷汗" beside a
        crisis is no request)."""
        return next((n for n, piece in enumerate(pieces) if self.read(piece, by_model=False) is not None
                     or (operations(piece) and domain_guesses(piece, self._registry.objects))), len(pieces))

    def read(self, text: str, *, by_model: bool = True) -> str | None:
        """The intent one piece of a message asks for by itself (a rule, operation × object, or — with
        ``by_model`` — the local model's sure reading of a complete request), if any."""
        if explained(text, []):
            return None  # "还有还有", "那个": connectors and fillers ask for nothing
        found = self._classify(text)
        if found is not None:
            return None if found[0] in (UNKNOWN, self._small_talk) else found[0]
        domain = domain_intents(text, self._registry.objects)
        if len(domain) == 1 and (domain[0] not in self._read_only or self.complete(domain[0], text)):
            return domain[0]  # a question that cannot be asked alone ("能做点啥") asks about the piece before it
        if not by_model:
            return None
        # the local model, when sure, for a piece that holds everything its request needs ("还跑了半小时步")
        pred = self._predict(text)
        if pred is not None and float(pred.confidence) >= self._threshold and pred.label not in (
                UNKNOWN, self._small_talk) and pred.label in self._registry.intents() and self.complete(pred.label, text) \
                and self._hints_at(str(pred.label), text):
            return str(pred.label)
        return None

    def _hints_at(self, intent: str, text: str) -> bool:
        """Whether ``text`` says a word or signal of an object ``intent`` acts on ("还跑了半小时步" does; "明天升旗要穿"
        beside a reminder says nothing of one: a statement, not a second request). True when no object owns it."""
        owners = [o for o in self._registry.objects if any(i == intent for _, i in o.ops)]
        return not owners or any(o.hints.search(text) for o in owners)

    def _values(self, intent: str, words: str) -> dict[str, Any]:
        found = self._registry.for_intent(intent)
        return extract_all(found[1], words, datetime.now().astimezone()) if found is not None else {}

    def shares(self, taker: str, owner: str, words: str) -> bool:
        """Whether ``taker``'s action reads in ``words`` a value ``owner``'s action reads there too ("花生" is
        both a dinner's restriction and the profile's allergy; "今天" of a workout is not a weight)."""
        def values(intent: str) -> set[str]:
            read = self._values(intent, words).values()
            return {str(x) for v in read for x in (v if isinstance(v, list) else [v]) if isinstance(x, str | int | float)}

        mine, theirs = values(taker), values(owner)
        return any(a == b or (len(a) > 1 and a in b) or (len(b) > 1 and b in a) for a in mine for b in theirs)

    def extends(self, intent: str, before: str, piece: str) -> bool:
        """Whether ``piece`` adds items to a list ``intent`` reads in ``before`` ("冰箱里有6个土豆，一块豆腐":
        the tofu is one more item, not a question about tofu)."""
        alone, joined = self._values(intent, before), self._values(intent, f"{before}，{piece}")
        return any(isinstance(v, list) and isinstance(alone.get(k), list) and len(v) > len(alone[k])
                   for k, v in joined.items())

    def separate(self, intent: str, before: str, piece: str) -> bool:
        """Whether ``piece`` is one more request of ``intent`` beside ``before`` rather than more of it: each
        holds every required value by itself, and said together those values would not read as one (two
        times: "周三早上7点半交水费，周四中午12点给妈妈打电话"; not "后天下午提醒我取快递，大概4点吧")."""
        found = self._registry.for_intent(intent)
        required = [s for s in found[1].slots if s.required] if found is not None else []
        if found is None or not required:
            return False
        alone = self._values(intent, before), self._values(intent, piece)
        if any(s.name not in said for s in required for said in alone):
            return False
        joined = self._values(intent, f"{before}，{piece}")
        return any(s.check is not None and joined.get(s.name) is not None and s.check(joined[s.name]) is not None
                   for s in found[1].slots)

    def complete(self, intent: str, words: str) -> bool:
        """Whether ``words`` give ``intent`` everything it needs."""
        found = self._registry.for_intent(intent)
        return found is not None and not missing_slots(found[1], self._values(intent, words), [])

    def _same(self, before: tuple[str | None, str], piece: tuple[str, str]) -> bool:
        return before[0] == piece[0] and not (self.complete(piece[0], before[1]) and self.complete(*piece))

    def _taker(self, left: tuple[str | None, str], right: tuple[str | None, str]) -> str | None:
        (a, said_a), (b, said_b) = left, right
        if a is None or b is None:
            return a or b
        if a in self._confirms and self.shares(b, a, said_a):
            return b
        if b in self._confirms and self.shares(a, b, said_b):
            return a
        if b in self._read_only and self.extends(a, said_a, said_b):
            return a  # "冰箱里有6个土豆，一块豆腐": one more item of the list, not a question of its own
        return None
