"""The skills' routing rules: precise patterns for the intents of DESIGN §3.2, read as part of the parse.

Each skill declares its own rules (``SkillSpec.triggers``); they are compiled once, in their ``order``.
Only wording is looked at — never the user's lists or business data (DESIGN §6.2). The first rule that
matches and is not vetoed by its ``unless`` pattern names the message's intent.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from runtime.skill import Trigger

__all__ = ["Rule", "RuleRouter", "rules_from"]


@dataclass(frozen=True, slots=True)
class Rule:
    """One pattern for one intent."""

    name: str
    intent: str
    pattern: re.Pattern[str]
    unless: re.Pattern[str] | None = None

    def matches(self, text: str) -> bool:
        """True when the pattern is found and the veto is not."""
        return bool(self.pattern.search(text)) and not (self.unless and self.unless.search(text))


def _r(name: str, intent: str, pattern: str, unless: str | None = None) -> Rule:
    return Rule(name, intent, re.compile(pattern, re.I), re.compile(unless, re.I) if unless else None)


def rules_from(triggers: Iterable[Trigger]) -> tuple[Rule, ...]:
    """Compiled rules for skill triggers, in the order given."""
    return tuple(_r(t.name, t.intent, t.pattern, t.unless) for t in triggers)


_SEEN_MAX = 4096


class RuleRouter:
    """Pure pattern matching over a message's text."""

    def __init__(self, rules: tuple[Rule, ...], known_intents: frozenset[str] | None = None) -> None:
        self._rules = rules
        self._known = known_intents
        self._seen: dict[str, tuple[str, str] | None] = {}  # classify's answers for texts seen lately

    def classify(self, text: str) -> tuple[str, str] | None:
        """(intent, rule name) for ``text``, or None. Pure, and asked several times per turn: the
        answer is kept per text (a hundred rules' regular expressions cost tens of µs)."""
        try:
            return self._seen[text]
        except KeyError:
            pass
        found = self._classify(text)
        if len(self._seen) >= _SEEN_MAX:
            self._seen.clear()
        self._seen[text] = found
        return found

    def _classify(self, text: str) -> tuple[str, str] | None:
        for rule in self._rules:
            if (self._known is None or rule.intent in self._known) and rule.matches(text):
                return rule.intent, rule.name
        return None

    def said_by(self, text: str) -> tuple[int, int] | None:
        """Where in ``text`` the rule that classifies it found its words (None when no rule does)."""
        for rule in self._rules:
            if (self._known is None or rule.intent in self._known) and rule.matches(text):
                m = rule.pattern.search(text)
                return m.span() if m else None
        return None
