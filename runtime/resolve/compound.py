"""Stage ``rules`` (compound): one message, several requests ("明早8点提醒我带身份证，明晚7点提醒我取蛋糕",
"3个人吃饭预算120 顺便5点提醒我去买菜"). Each request is carried out in turn, none is dropped.

The message is cut where people join requests (punctuation, spaces, 顺便/另外/还有…); each piece that a
rule or the domain reads as a request starts a part, and the pieces no rule reads (预算120, 不吃辣) stay
with the request before them. Two parts or more make a compound. Pure.
"""

from __future__ import annotations

import re
from datetime import datetime

from runtime.apply.slots import missing_slots
from runtime.resolve._input import TurnInput
from runtime.resolve._match import Kind, Match
from runtime.resolve.domain import DomainStage
from runtime.skill import UNKNOWN
from runtime.turn import Stage
from runtime.understand.frame import Frame, Language
from runtime.understand.lexicon import operations
from runtime.understand.slots import extract_all

__all__ = ["CompoundStage", "PieceReader"]

_JOINS = re.compile(r"[，,。；;：:！!？?\s]+|(?=顺便|另外|还有|然后|同时|再帮我|也帮我|还要|并且)")
_STARTS = re.compile(r"(?:开始|起)$")


class PieceReader:
    """What one piece of a message asks for by itself, and how two pieces' values relate."""

    def __init__(self, lang: Language, domain: DomainStage, threshold: float) -> None:
        self._lang = lang
        self._registry = lang.registry
        self._domain = domain
        self._threshold = threshold
        talk = lang.registry.fallback()
        self._small_talk = talk[1].intent if talk else None
        self._read_only = lang.registry.read_only_intents()

    def request_after(self, pieces: list[Frame]) -> Frame | None:
        """The pieces from the first one that asks for something by itself in so many words (a rule,
        operation × object — never the local model's guess), joined; None when none does ("还一直出冷汗"
        beside a crisis is no request)."""
        texts = [p.text for p in pieces]
        start = next((n for n, piece in enumerate(texts) if self.read(piece, by_model=False) is not None
                      or (operations(piece) and self._domain.guesses(pieces[n]))), len(texts))
        return pieces[0].joined(pieces[start:]) if start < len(texts) else None

    def read(self, text: str, *, by_model: bool = True) -> str | None:
        """The intent one piece of a message asks for by itself (a rule, operation × object, or — with
        ``by_model`` — the local model's sure reading of a complete request), if any."""
        found = self._lang.rules.classify(text)
        if found is not None:
            return None if found[0] in (UNKNOWN, self._small_talk) else found[0]
        domain = self._domain.read(text)
        if domain is not None and domain.kind is Kind.INTENT and (
                domain.intent not in self._read_only or self.complete(domain.intent, text)):
            return domain.intent  # a question that cannot be asked alone ("能做点啥") asks about the piece before it
        if not by_model:
            return None
        # the local model, when sure, for a piece that holds everything its request needs ("还跑了半小时步")
        pred = Frame(text, datetime.now().astimezone(), self._lang).model_reading()
        if pred is not None and float(pred.confidence) >= self._threshold and pred.label not in (
                UNKNOWN, self._small_talk) and pred.label in self._registry.intents() and self.complete(pred.label, text):
            return str(pred.label)
        return None

    def shares(self, taker: str, owner: str, words: str) -> bool:
        """Whether ``taker``'s action reads in ``words`` a value ``owner``'s action reads there too ("花生" is
        both a dinner's restriction and the profile's allergy; "今天" of a workout is not a weight)."""
        def values(intent: str) -> set[str]:
            found = self._registry.for_intent(intent)
            if found is None:
                return set()
            read = extract_all(found[1], words, datetime.now().astimezone()).values()
            return {str(x) for v in read for x in (v if isinstance(v, list) else [v]) if isinstance(x, str | int | float)}

        mine, theirs = values(taker), values(owner)
        return any(a == b or (len(a) > 1 and a in b) or (len(b) > 1 and b in a) for a in mine for b in theirs)

    def extends(self, intent: str, before: str, piece: str) -> bool:
        """Whether ``piece`` adds items to a list ``intent`` reads in ``before`` ("冰箱里有6个土豆，一块豆腐":
        the tofu is one more item, not a question about tofu)."""
        found = self._registry.for_intent(intent)
        if found is None:
            return False
        now = datetime.now().astimezone()
        alone, joined = extract_all(found[1], before, now), extract_all(found[1], f"{before}，{piece}", now)
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
        now = datetime.now().astimezone()
        alone = extract_all(found[1], before, now), extract_all(found[1], piece, now)
        if any(s.name not in said for s in required for said in alone):
            return False
        joined = extract_all(found[1], f"{before}，{piece}", now)
        return any(s.check is not None and joined.get(s.name) is not None and s.check(joined[s.name]) is not None
                   for s in found[1].slots)

    def complete(self, intent: str, words: str) -> bool:
        """Whether ``words`` give ``intent`` everything it needs."""
        found = self._registry.for_intent(intent)
        if found is None:
            return False
        return not missing_slots(found[1], extract_all(found[1], words, datetime.now().astimezone()), [])


class CompoundStage:
    """Several requests in one message, each read on its own.

    ``read`` gives the intent a piece asks for by itself; ``shares(taker, owner, words)`` whether the
    taker's action reads in the words the very values the owner's would (a restriction, a goal);
    ``complete(intent, words)`` whether the words are all that intent needs; ``confirms`` the intents
    that write only after a yes; ``extends(intent, before, piece)`` whether a piece adds items to a list
    the request before it reads (a read-only reading of such a piece is dropped). The same request said in two
    pieces is one ("设一个明早8点的提醒，提醒我带伞") unless each piece is complete ("明早8点提醒我带身份证，
    明晚7点提醒我取蛋糕"); a piece that would be a confirmed write of its own is a value of the request
    beside it when that request takes it ("6个人聚餐，孩子对花生过敏": the restriction of the dinner).
    """

    stage = Stage.RULES

    def __init__(self, reader: PieceReader, read_only: frozenset[str], confirms: frozenset[str]) -> None:
        self._read = reader.read
        self._extends = reader.extends
        self._shares = reader.shares
        self._complete = reader.complete
        self._separate = reader.separate
        self._read_only = read_only
        self._confirms = confirms

    def parts(self, text: str) -> list[tuple[str, str]]:
        """(intent, words) of each request in ``text``, in order; one part when it is a single request."""
        return self._split(text)[0]

    def _split(self, text: str) -> tuple[list[tuple[str, str]], set[str]]:
        """:meth:`parts`, and the pieces read as one more request of the kind before them (their intent is
        the list's, decided with the whole message)."""
        listed: set[str] = set()
        parts: list[tuple[str | None, str]] = []
        lead = ""
        for piece in (p.strip() for p in _JOINS.split(text)):
            if not piece:
                continue
            if _STARTS.search(piece):
                lead = f"{lead}{piece}"  # "从明年元旦开始，每周六…": where the next request starts, not a request
                continue
            piece, lead = f"{lead}{piece}", ""
            intent = self._read(piece)
            if intent is None and parts and (kind := parts[-1][0]) is not None \
                    and self._separate(kind, parts[-1][1], piece):
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
        return [(i, w) for i, w in parts if i], listed

    def _same(self, before: tuple[str | None, str], piece: tuple[str, str]) -> bool:
        return before[0] == piece[0] and not (self._complete(piece[0], before[1]) and self._complete(*piece))

    def _taker(self, left: tuple[str | None, str], right: tuple[str | None, str]) -> str | None:
        (a, said_a), (b, said_b) = left, right
        if a is None or b is None:
            return a or b
        if a in self._confirms and self._shares(b, a, said_a):
            return b
        if b in self._confirms and self._shares(a, b, said_b):
            return a
        if b in self._read_only and self._extends(a, said_a, said_b):
            return a  # "冰箱里有6个土豆，一块豆腐": one more item of the list, not a question of its own
        return None

    def match(self, turn: TurnInput) -> Match | None:
        if turn.session is not None or turn.pending is not None or turn.view.origin not in ("text", "voice"):
            return None
        found, listed = self._split(turn.frame.text)
        tasks = [p for p in found if p[0] not in self._read_only]
        if len(found) < 2 or not tasks:
            return None  # one request (a question beside a task is the rules' "also")
        # a request that needs no yes goes before one that waits for it ("今天游了1000米，明晚7点提醒我续卡": the
        # reminder is set, then the workout asked about), so nothing said together waits on another's yes
        found = [p for p in found if p[0] not in self._confirms] + [p for p in found if p[0] in self._confirms]
        together = [intent in self._confirms and self._complete(intent, words) for intent, words in found]
        kinds = [words in listed for _, words in found]
        parts = [Frame(words, turn.frame.now, turn.frame.lang) for _, words in found]
        reads = [intent in self._read_only for intent, _ in found]
        return Match(self.stage, Kind.COMPOUND, intent=found[0][0], confidence=0.9,
                     params={"parts": parts, "together": together, "reads": reads,
                             # a request is carried out as read here; a question is read again when its turn
                             # comes, against what the parts before it showed ("…，只能周六周日练" after a plan)
                             "intents": [intent if listed or intent not in self._read_only else None
                                         for (intent, _), listed in zip(found, kinds, strict=True)]},
                     detail="compound: " + " + ".join(intent for intent, _ in found))
