"""NumPy-only inference for the shipped linear model, and its artifact format.

The artifact is an ``.npz`` (zip of ``.npy`` arrays, no pickles): the n-gram vocabulary, idf
weights, the coefficient matrix (float16 to stay small), intercepts, optional per-class sigmoid
calibration, the labels, and a JSON ``meta`` string. It is written with fixed zip timestamps so
the same model always gives the same bytes.
"""

from __future__ import annotations

import io
import json
import math
import zipfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ._features import FeatureConfig, char_ngrams
from ._types import IntentPrediction, IntentReading

FloatArray = npt.NDArray[np.float32]
DEFAULT_ARTIFACT = Path(__file__).with_name("model.npz")
FORMAT_VERSION = 1
UNCALIBRATED_UNSURE_BELOW = 0.55
"""The unsure threshold of an artifact that carries no calibration (the dev-chosen raw threshold)."""


def temper(probs: npt.NDArray[np.float64], temperature: float) -> npt.NDArray[np.float64]:
    """Temperature scaling of probabilities (along the last axis): ``p ** (1/T)``, renormalised.

    Equivalent to dividing the log-probabilities by ``T``; it never changes the top label.
    """
    if temperature == 1.0:
        return probs
    logs = np.log(np.clip(probs, 1e-12, 1.0)) / temperature
    logs -= logs.max(axis=-1, keepdims=True)
    scaled = np.exp(logs)
    out: npt.NDArray[np.float64] = scaled / scaled.sum(axis=-1, keepdims=True)
    return out


class ArtifactError(ValueError):
    """The artifact file is missing, of another format version, or inconsistent."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


@dataclass(frozen=True, slots=True, eq=False)
class LinearIntentModel:
    """Character n-gram TF-IDF features times a linear layer, then softmax or sigmoid calibration."""

    labels: tuple[str, ...]
    vocabulary: dict[str, int]
    idf: FloatArray
    coef: FloatArray  # (n_features, n_labels)
    intercept: FloatArray  # (n_labels,)
    features: FeatureConfig = FeatureConfig()
    calibration: FloatArray | None = None  # (2, n_labels): sigmoid a, b; None means softmax
    meta: dict[str, Any] = field(default_factory=dict)

    def scores(self, text: str) -> FloatArray:
        """Raw decision scores per label."""
        counts: dict[int, int] = {}
        for gram in char_ngrams(text, self.features):
            index = self.vocabulary.get(gram)
            if index is not None:
                counts[index] = counts.get(index, 0) + 1
        if not counts:
            return self.intercept.copy()
        idx = np.fromiter(counts.keys(), dtype=np.int64, count=len(counts))
        tf = np.fromiter((1.0 + math.log(c) for c in counts.values()), dtype=np.float32, count=len(counts))
        weights = tf * self.idf[idx]
        norm = float(np.linalg.norm(weights)) or 1.0
        result = (weights / norm) @ self.coef[idx] + self.intercept
        return np.asarray(result, dtype=np.float32)

    @property
    def temperature(self) -> float:
        """The temperature fitted on the dev split (``runtime.intent.calibrate``); 1.0 when none was."""
        found = self.meta.get("calibration")
        return float(found["temperature"]) if isinstance(found, dict) else 1.0

    @property
    def unsure_below(self) -> float:
        """Calibrated probability under which a reading is unsure (stored with the temperature)."""
        found = self.meta.get("calibration")
        return float(found["unsure_below"]) if isinstance(found, dict) else UNCALIBRATED_UNSURE_BELOW

    def probabilities(self, text: str, *, calibrated: bool = False) -> FloatArray:
        """Probability per label (sums to 1); ``calibrated`` applies the stored temperature."""
        raw = self.scores(text).astype(np.float64)
        if self.calibration is None:
            exp = np.exp(raw - raw.max())
            probs = exp / exp.sum()
        else:
            a, b = self.calibration[0].astype(np.float64), self.calibration[1].astype(np.float64)
            sig = 1.0 / (1.0 + np.exp(a * raw + b))
            total = sig.sum()
            probs = sig / total if total > 0 else np.full_like(sig, 1.0 / len(sig))
        if calibrated:
            probs = temper(probs, self.temperature)
        out: FloatArray = probs.astype(np.float32)
        return out

    def predict(self, text: str) -> IntentPrediction:
        """Most probable label with its probability and the top three alternatives (kept per text: the
        same short messages come again and again, and a prediction is immutable)."""
        return _predicted(self, text)

    def _predict(self, text: str) -> IntentPrediction:
        probs = self.probabilities(text)
        order = np.argsort(-probs, kind="stable")[:3]
        top = tuple((self.labels[int(i)], round(float(probs[int(i)]), 4)) for i in order)
        return IntentPrediction(label=top[0][0], confidence=top[0][1], alternatives=top)

    def read(self, text: str) -> IntentReading:
        """The calibrated reading: top label, its probability, the alternatives and whether it is unsure."""
        probs = self.probabilities(text, calibrated=True)
        order = np.argsort(-probs, kind="stable")[:3]
        top = tuple((self.labels[int(i)], round(float(probs[int(i)]), 4)) for i in order)
        threshold = self.unsure_below
        return IntentReading(label=top[0][0], probability=top[0][1], alternatives=top,
                             unsure=top[0][1] < threshold, threshold=threshold)


def save_artifact(model: LinearIntentModel, path: Path) -> None:
    """Write ``model`` as a deterministic ``.npz``."""
    vocab = np.empty(len(model.vocabulary), dtype=object)
    for gram, index in model.vocabulary.items():
        vocab[index] = gram
    meta = dict(model.meta, format_version=FORMAT_VERSION, features=_config_dict(model.features))
    arrays: dict[str, npt.NDArray[Any]] = {
        "labels": np.array(model.labels, dtype=str),
        "vocabulary": vocab.astype(str),
        "idf": model.idf.astype(np.float32),
        "coef": model.coef.astype(np.float16),
        "intercept": model.intercept.astype(np.float32),
        "meta": np.array(json.dumps(meta, sort_keys=True, ensure_ascii=False)),
    }
    if model.calibration is not None:
        arrays["calibration"] = model.calibration.astype(np.float32)
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name in sorted(arrays):
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, arrays[name], allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, buffer.getvalue())


def load_artifact(path: Path = DEFAULT_ARTIFACT) -> LinearIntentModel:
    """Read an artifact written by :func:`save_artifact` (no pickles, no scikit-learn)."""
    if not path.is_file():
        raise ArtifactError(path, "artifact file not found")
    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
        if meta.get("format_version") != FORMAT_VERSION:
            raise ArtifactError(path, f"format version {meta.get('format_version')!r} != {FORMAT_VERSION}")
        labels = tuple(str(x) for x in data["labels"].tolist())
        grams: list[str] = data["vocabulary"].tolist()
        coef = data["coef"].astype(np.float32)
        calibration = data["calibration"].astype(np.float32) if "calibration" in data.files else None
        idf, intercept = data["idf"].astype(np.float32), data["intercept"].astype(np.float32)
    if coef.shape != (len(grams), len(labels)) or intercept.shape != (len(labels),):
        raise ArtifactError(
            path, f"shape mismatch: coef {coef.shape}, {len(grams)} grams, {len(labels)} labels"
        )
    return LinearIntentModel(
        labels=labels,
        vocabulary=dict(zip(grams, range(len(grams)), strict=True)),
        idf=idf,
        coef=coef,
        intercept=intercept,
        features=FeatureConfig(**meta["features"]),
        calibration=calibration,
        meta=meta,
    )


def _config_dict(config: FeatureConfig) -> dict[str, Any]:
    return {
        "min_n": config.min_n,
        "max_n": config.max_n,
        "fold_digits": config.fold_digits,
        "boundaries": config.boundaries,
        "fold_traditional": config.fold_traditional,
    }


@lru_cache(maxsize=4096)
def _predicted(model: LinearIntentModel, text: str) -> IntentPrediction:
    return model._predict(text)
