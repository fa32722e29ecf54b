"""Stage ``expected_input``: the bot just asked for a field; is this message the answer?"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from runtime.cascade._match import Kind, Match
from runtime.cascade.rules import RuleRouter
from runtime.parsers.slots import parse_choice
from runtime.turn import Stage
from runtime.views import RouterView

_FREE_TYPES = ("text", "text_list")
_CLAUSES = re.compile(r"[，,。；;！!？?]|顺便|另外|还有|对了")

AnswerParser = Callable[[str], Any]


class ExpectedInputStage:
    """Parses the answer by the expected field's type; notices a read-only question beside it (mixed)."""

    stage = Stage.EXPECTED_INPUT

    def __init__(self, rules: RuleRouter, read_only: frozenset[str]) -> None:
        self._rules = rules
        self._read_only = read_only

    def match_choice(self, view: RouterView) -> Match | None:
        """An answer to a clarifying question (numbered options)."""
        choice = parse_choice(view.text, True, view.expected_options)
        if choice is None or not 1 <= choice <= len(view.expected_options):
            return None
        return Match(self.stage, Kind.CHOICE, params={"choice": choice}, detail=f"option {choice}")

    def match(self, view: RouterView, parse: AnswerParser) -> Match | None:
        """``parse`` turns text into the field's value (None when it is not one)."""
        if view.expected_field is None or view.origin not in ("text", "voice", "menu"):
            return None
        text = view.text.strip()
        routed = self._rules.classify(text)
        clauses = [c.strip() for c in _CLAUSES.split(text) if c.strip()]
        also, also_text = None, ""
        for clause in clauses if len(clauses) > 1 else []:
            found = self._rules.classify(clause)
            if found and found[0] in self._read_only and found[0] != "chitchat":
                also, also_text = found[0], clause
                break
        if view.expected_type in _FREE_TYPES and routed and routed[0] != view.active_intent and also is None:
            return None  # a request in its own right, not free-text content
        rest = [c for c in clauses if c != also_text] if also else clauses
        value = parse("，".join(rest)) if rest else None
        if value is None and len(rest) > 1:
            value = next((v for v in map(parse, rest) if v is not None), None)
        if value is None:
            return None
        if routed and routed[0] != view.active_intent and routed[0] not in self._read_only \
                and also is None:
            return None  # "明早8点提醒我…" while asked for a budget: a new task, not an answer
        return Match(self.stage, Kind.ANSWER, intent=view.active_intent or "unknown",
                     params={"value": value}, detail=f"field {view.expected_field}", also=also,
                     also_text=also_text)
