"""Local intent model (cascade stage ``intent_model``): offline, NumPy-only, loads in milliseconds.

>>> model = load_default_model()
>>> prediction = model.predict("明天北京天气怎么样")
>>> prediction.label, prediction.confidence >= DEFAULT_THRESHOLD
('weather.query', True)
>>> reading = model.read("明天北京天气怎么样")
>>> reading.label, reading.unsure
('weather.query', False)

``predict`` gives the classifier's own probabilities; below ``DEFAULT_THRESHOLD`` the cascade hands
the turn on. ``read`` gives the calibrated reading (temperature fitted on the dev split of the
training data, stored in the artifact): its ``probability`` means what it says on that data, and
``unsure`` is True below the artifact's calibrated threshold. Retrain with ``python -m
runtime.intent.train`` (it calibrates too); recalibrate alone with ``python -m runtime.intent.calibrate``.
"""

from __future__ import annotations

from pathlib import Path

from ._features import FeatureConfig, char_ngrams, normalize
from ._linear import DEFAULT_ARTIFACT, ArtifactError, LinearIntentModel, load_artifact, save_artifact, temper
from ._traditional import TABLE_FILE, build_pairs, to_simplified, translation
from ._types import (
    CalibratedIntentModel,
    IntentModel,
    IntentPrediction,
    IntentReading,
)

__all__ = [
    "DEFAULT_ARTIFACT",
    "DEFAULT_THRESHOLD",
    "TABLE_FILE",
    "ArtifactError",
    "CalibratedIntentModel",
    "FeatureConfig",
    "IntentModel",
    "IntentPrediction",
    "IntentReading",
    "LinearIntentModel",
    "build_pairs",
    "char_ngrams",
    "load_artifact",
    "load_default_model",
    "normalize",
    "save_artifact",
    "temper",
    "to_simplified",
    "translation",
]

DEFAULT_THRESHOLD = 0.55
"""Chosen on the dev split by ``runtime.intent.train``: the lowest confidence (0.05 grid) at which the
false-task rate is <= 0.1 % and accuracy on the accepted turns is >= 98 % (see REPORT.md)."""


def load_default_model(path: Path = DEFAULT_ARTIFACT) -> LinearIntentModel:
    """Load the shipped artifact (``runtime/intent/model.npz``); raises :class:`ArtifactError` if unusable."""
    return load_artifact(path)
