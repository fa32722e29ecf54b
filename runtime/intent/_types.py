"""Intent labels, the prediction record and the model port."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable


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



@dataclass(frozen=True, slots=True)
class IntentReading:
    """The local model's calibrated reading of a message, for the cascade to act on.

    ``probability`` is the calibrated probability that ``label`` is right (on the dev split a
    reading of 0.8 is right about 80 % of the time); ``alternatives`` holds the top three
    ``(label, probability)`` pairs, best first (the first is ``(label, probability)``); ``unsure`` is
    True when ``probability`` is below ``threshold``, the artifact's calibrated threshold: such a
    message is not decided by the local model alone (the router, or a question, should settle it).
    """

    label: str
    probability: float
    alternatives: tuple[tuple[str, float], ...]
    unsure: bool
    threshold: float

    @property
    def runner_up(self) -> tuple[str, float] | None:
        """The second most probable label and its probability, if any."""
        return self.alternatives[1] if len(self.alternatives) > 1 else None

    @property
    def margin(self) -> float:
        """How far the top label is ahead of the runner-up (1.0 when there is none)."""
        second = self.runner_up
        return round(self.probability - (second[1] if second else 0.0), 4)



@runtime_checkable
class IntentModel(Protocol):
    """Port for a local, offline intent classifier."""

    def predict(self, text: str) -> IntentPrediction:
        """Classify one message (any length, any script); never raises on odd input."""
        ...


@runtime_checkable
class CalibratedIntentModel(IntentModel, Protocol):
    """An intent model whose probabilities are calibrated, with a notion of "unsure"."""

    def read(self, text: str) -> IntentReading:
        """The calibrated reading of one message; never raises on odd input."""
        ...
