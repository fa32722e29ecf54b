"""The parser's language (DESIGN §1, §3.4): what a message is read with, built once from the skills."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from runtime.skill import UNKNOWN, SkillRegistry
from runtime.understand.lexicon import VOCABULARY
from runtime.understand.normalise import Normaliser
from runtime.understand.pieces import Requests
from runtime.understand.rules import RuleRouter, rules_from

__all__ = ["Language"]


@dataclass(frozen=True, slots=True)
class Language:
    """What the parser reads with, built once from the skills: their registry, their routing rules, the
    local intent model and the normaliser (typo repair knows the domain's vocabulary)."""

    registry: SkillRegistry
    rules: RuleRouter
    normalise: Normaliser
    requests: Requests
    model: Any = None  # the local intent model (``predict``/``read``), or None

    @classmethod
    def of(cls, registry: SkillRegistry, *, model: Any = None, threshold: float = 0.6) -> Language:
        """The language of ``registry``'s skills (``threshold``: the local model's sure reading)."""
        rules = RuleRouter(rules_from(registry.triggers()), known_intents=registry.intents() | {UNKNOWN})

        def predict(words: str) -> Any:
            return model.predict(words) if model is not None and words.strip() else None

        requests = Requests(registry, lambda words: rules.classify(words.strip()) if words.strip() else None,
                            predict, threshold)
        return cls(registry, rules, Normaliser([*VOCABULARY, *registry.vocabulary()]), requests, model)
