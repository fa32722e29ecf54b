"""Stage ``rules``: precise, high-confidence patterns for the intents of DESIGN §3.2.

Each skill declares its own rules (``SkillSpec.triggers``); the engine compiles them once, in their
``order``. Only wording is looked at — never the user's lists or business data (DESIGN §6.2). The
first rule that matches and is not vetoed by its ``unless`` pattern wins. Parameters are extracted
afterwards by the engine from the skill's slot specs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from runtime.cascade._match import Kind, Match
from runtime.skill import UNKNOWN, Trigger
from runtime.turn import Stage
from runtime.views import RouterView

CONFIDENCE = 0.95


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
    """Pure pattern matching over the router view's text."""

    stage = Stage.RULES

    def __init__(self, rules: tuple[Rule, ...], known_intents: frozenset[str] | None = None,
                 small_talk: str | None = None) -> None:
        self._rules = rules
        self._known = known_intents
        self._small_talk = small_talk
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

    def match(self, view: RouterView) -> Match | None:
        if view.origin not in ("text", "voice", "menu") or not view.text.strip():
            return None
        found = self.classify(view.text.strip())
        if found is None:
            return None
        intent, name = found
        kind = Kind.CHITCHAT if intent == self._small_talk else Kind.UNKNOWN if intent == UNKNOWN else Kind.INTENT
        return Match(self.stage, kind, intent=intent, confidence=CONFIDENCE, detail=f"rule {name}")
