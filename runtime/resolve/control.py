"""Stage ``control``: short commands that steer the conversation itself. No model, exact words only; the
words are read by the parser (:class:`runtime.understand.control.ControlReading`), decided here."""

from __future__ import annotations

from runtime.resolve._match import Kind, Match
from runtime.resolve.turn import Turn
from runtime.turn import Stage


class ControlStage:
    """取消 / 继续 / 确认 (only when something is pending) / 重置 / 帮助."""

    stage = Stage.CONTROL

    def match(self, turn: Turn) -> Match | None:
        view = turn.view
        if view.origin not in ("text", "voice", "menu"):
            return None
        said = turn.frame.control
        if not said.word:
            return None
        if view.pending_confirmation:
            if said.reply is not None:  # and what it goes on to ask, carried out after it
                more = turn.frame.part_of(said.then) if said.then else None
                asks = more is not None and (more.rule is not None or more.question)  # "对 就是昨晚" asks nothing
                then = {"then": more} if asks else {}
                return Match(self.stage, Kind.CONFIRM if said.reply else Kind.CANCEL, detail=said.reply_detail,
                             params=then)
        elif said.confirm_word:
            return Match(self.stage, Kind.CONFIRM, detail="nothing pending")
        if said.cancel:
            return Match(self.stage, Kind.CANCEL, detail=said.word)
        if said.continue_exact or ((view.has_paused or view.active_skill) and said.continue_loose):
            return Match(self.stage, Kind.CONTINUE, detail=said.word)
        if said.reset:
            return Match(self.stage, Kind.RESET, detail=said.word)
        if said.help:
            return Match(self.stage, Kind.HELP, detail=said.word)
        return None
