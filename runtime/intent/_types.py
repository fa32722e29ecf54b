"""Intent labels, the prediction record and the model port."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

INTENT_LABELS: tuple[str, ...] = (
    "weather.query",
    "datetime.query",
    "reminder.create",
    "reminder.list",
    "reminder.cancel",
    "dinner.plan",
    "recipe.query",
    "exercise.plan",
    "exercise.log",
    "exercise.history",
    "profile.view",
    "profile.update",
    "pantry.update",
    "chitchat",
    "unknown",
)
"""Every label the model may return (DESIGN §3.2), in a fixed order."""

WRITE_INTENTS: frozenset[str] = frozenset(
    {
        "reminder.create",
        "reminder.cancel",
        "dinner.plan",
        "exercise.plan",
        "exercise.log",
        "profile.update",
        "pantry.update",
    }
)
"""Intents that start a task (a write or a multi-turn plan); a wrong guess here costs the most."""


@dataclass(frozen=True, slots=True)
class IntentPrediction:
    """What the local model thinks a message is about.

    ``label`` is the most probable intent and ``confidence`` its probability (0..1).
    ``alternatives`` holds the top three ``(label, probability)`` pairs, best first; the first pair
    is ``(label, confidence)`` itself. The model never applies a threshold: the cascade compares
    ``confidence`` with its threshold and hands uncertain turns on.
    """

    label: str
    confidence: float
    alternatives: tuple[tuple[str, float], ...]

    @property
    def starts_task(self) -> bool:
        """True when the predicted label is a write/task intent."""
        return self.label in WRITE_INTENTS


@runtime_checkable
class IntentModel(Protocol):
    """Port for a local, offline intent classifier."""

    def predict(self, text: str) -> IntentPrediction:
        """Classify one message (any length, any script); never raises on odd input."""
        ...
