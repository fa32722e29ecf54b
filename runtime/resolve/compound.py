"""Stage ``rules`` (compound): one message, several requests ("明早8点提醒我带身份证，明晚7点提醒我取蛋糕",
"3个人吃饭预算120 顺便5点提醒我去买菜"), read by the parser (:mod:`runtime.understand.pieces`). Each request
is carried out in turn, none is dropped. Pure.
"""

from __future__ import annotations

from runtime.resolve._match import Kind, Match
from runtime.resolve.turn import Turn
from runtime.turn import Stage

__all__ = ["CompoundStage"]


class CompoundStage:
    """Several requests in one message, in the order they are carried out: a request that needs no yes before
    one that waits for it ("今天游了1000米，明晚7点提醒我续卡": the reminder is set, then the workout asked
    about), so nothing said together waits on another's yes."""

    stage = Stage.RULES

    def __init__(self, read_only: frozenset[str], confirms: frozenset[str]) -> None:
        self._read_only = read_only
        self._confirms = confirms

    def match(self, turn: Turn) -> Match | None:
        if turn.session is not None or turn.pending is not None or turn.view.origin not in ("text", "voice"):
            return None
        if not turn.frame.several_pieces():
            return None  # one piece: one request
        frame = turn.frame.without_reasons() if turn.focus is not None else turn.frame
        found = frame.requests()  # "银行那个改到周五吧 周四要开会": why the change, not a second request
        if len(found) < 2 or not any(intent not in self._read_only for intent, _, _ in found):
            return None  # one request (a question beside a task is the rules' "also")
        found = [r for r in found if r[0] not in self._confirms] + [r for r in found if r[0] in self._confirms]
        return Match(self.stage, Kind.COMPOUND, intent=found[0][0], confidence=0.9,
                     params={"parts": [part for _, part, _ in found],
                             "together": [intent in self._confirms and part.complete(intent) for intent, part, _ in found],
                             "reads": [intent in self._read_only for intent, _, _ in found],
                             # a request is carried out as read here; a question is read again when its turn
                             # comes, against what the parts before it showed ("…，只能周六周日练" after a plan)
                             "intents": [intent if listed or intent not in self._read_only else None
                                         for intent, _, listed in found]},
                     detail="compound: " + " + ".join(intent for intent, _, _ in found))
