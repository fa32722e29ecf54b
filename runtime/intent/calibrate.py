"""Temperature calibration of the shipped model: ``python -m runtime.intent.calibrate [--data-dir DIR]``.

The dev split of the training data (never ``heldout/``) is cut in two halves, stratified by label:
the *fit* half chooses one temperature ``T`` (lowest negative log-likelihood on a fine grid), the
*check* half measures the expected calibration error before and after, and the fit half chooses the
``unsure`` threshold: the lowest calibrated probability (0.05 grid) at which the turns the model keeps
are right at least ``SURE_ACCURACY`` of the time. Both numbers and the figures are stored in the
artifact's meta, next to the weights; the weights themselves are not touched. NumPy only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ._linear import DEFAULT_ARTIFACT, LinearIntentModel, load_artifact, save_artifact, temper
from .corpus import DEFAULT_DATA_DIR, Example, load_split

__all__ = [
    "SURE_ACCURACY",
    "CalibrationReport",
    "calibrate",
    "expected_calibration_error",
    "fit_temperature",
    "split_dev",
    "unsure_threshold",
]

SURE_ACCURACY = 0.99
"""Accuracy the model must keep on the turns it is sure of; below the threshold a turn is unsure."""
ECE_BINS = 15
_GRID = np.round(np.arange(0.30, 3.0001, 0.01), 2)

Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class CalibrationReport:
    """What calibration found, stored in the artifact meta under ``calibration``."""

    temperature: float
    unsure_below: float
    fit_n: int
    check_n: int
    ece_before: float
    ece_after: float
    nll_before: float
    nll_after: float
    check_accuracy: float
    check_unsure_share: float
    check_errors_caught: float
    """Share of the check half's wrong argmax labels that fall below the unsure threshold."""
    check_sure_accuracy: float


def split_dev(dev: Sequence[Example]) -> tuple[list[Example], list[Example]]:
    """(fit, check): every other sentence of each label, ordered by a hash of its text (stable)."""
    by_label: dict[str, list[Example]] = {}
    for ex in dev:
        by_label.setdefault(ex.label, []).append(ex)
    fit: list[Example] = []
    check: list[Example] = []
    for label in sorted(by_label):
        ordered = sorted(by_label[label], key=lambda ex: hashlib.sha256(ex.text.encode()).hexdigest())
        fit.extend(ordered[0::2])
        check.extend(ordered[1::2])
    return fit, check


def expected_calibration_error(probs: Matrix, gold: npt.NDArray[np.int64], bins: int = ECE_BINS) -> float:
    """Top-label ECE: the gap between confidence and accuracy, averaged over equal-width bins by weight."""
    confidence = probs.max(axis=1)
    right = probs.argmax(axis=1) == gold
    edges = np.linspace(0.0, 1.0, bins + 1)
    total = 0.0
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        inside = (confidence > lo) & (confidence <= hi)
        if inside.any():
            total += float(inside.mean()) * abs(float(right[inside].mean()) - float(confidence[inside].mean()))
    return total


def _nll(probs: Matrix, gold: npt.NDArray[np.int64]) -> float:
    picked = probs[np.arange(len(gold)), gold]
    return float(-np.mean(np.log(np.clip(picked, 1e-12, 1.0))))


def fit_temperature(probs: Matrix, gold: npt.NDArray[np.int64]) -> float:
    """The temperature (0.30–3.00, step 0.01) with the lowest negative log-likelihood on ``probs``."""
    losses = [_nll(temper(probs, float(t)), gold) for t in _GRID]
    return float(_GRID[int(np.argmin(losses))])


def unsure_threshold(probs: Matrix, gold: npt.NDArray[np.int64], target: float = SURE_ACCURACY) -> float:
    """Lowest probability on a 0.05 grid at which the sure turns are right at least ``target`` of the time."""
    confidence = probs.max(axis=1)
    right = probs.argmax(axis=1) == gold
    for step in range(6, 20):
        threshold = step / 20
        sure = confidence >= threshold
        if sure.any() and float(right[sure].mean()) >= target:
            return threshold
    return 0.95


def _matrix(model: LinearIntentModel, examples: Sequence[Example]) -> tuple[Matrix, npt.NDArray[np.int64]]:
    index = {label: i for i, label in enumerate(model.labels)}
    probs = np.array([model.probabilities(ex.text, calibrated=False) for ex in examples], dtype=np.float64)
    return probs, np.array([index[ex.label] for ex in examples], dtype=np.int64)


def calibrate(model: LinearIntentModel, dev: Sequence[Example]) -> CalibrationReport:
    """Fit the temperature and the unsure threshold on half of ``dev``, measure on the other half."""
    fit, check = split_dev(dev)
    fit_p, fit_y = _matrix(model, fit)
    check_p, check_y = _matrix(model, check)
    temperature = fit_temperature(fit_p, fit_y)
    unsure = unsure_threshold(temper(fit_p, temperature), fit_y)
    after = temper(check_p, temperature)
    confidence, right = after.max(axis=1), after.argmax(axis=1) == check_y
    sure = confidence >= unsure
    wrong = ~right
    return CalibrationReport(
        temperature=temperature,
        unsure_below=unsure,
        fit_n=len(fit),
        check_n=len(check),
        ece_before=round(expected_calibration_error(check_p, check_y), 4),
        ece_after=round(expected_calibration_error(after, check_y), 4),
        nll_before=round(_nll(check_p, check_y), 4),
        nll_after=round(_nll(after, check_y), 4),
        check_accuracy=round(float(right.mean()), 4),
        check_unsure_share=round(float((~sure).mean()), 4),
        check_errors_caught=round(float((wrong & ~sure).sum() / max(1, wrong.sum())), 4),
        check_sure_accuracy=round(float(right[sure].mean()), 4),
    )


def with_calibration(model: LinearIntentModel, result: CalibrationReport) -> LinearIntentModel:
    """``model`` with the temperature and threshold stored in its meta (the weights unchanged)."""
    return replace(model, meta={**model.meta, "calibration": asdict(result)})


def main(argv: Sequence[str] | None = None) -> int:
    """Calibrate the artifact in place and print the figures."""
    parser = argparse.ArgumentParser(prog="python -m runtime.intent.calibrate", description=__doc__)
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--artifact", type=Path, default=DEFAULT_ARTIFACT)
    args = parser.parse_args(argv)
    _, dev = load_split(args.data_dir)
    model = load_artifact(args.artifact)
    result = calibrate(model, dev)
    save_artifact(with_calibration(model, result), args.artifact)
    print(json.dumps(asdict(result), indent=2))
    return 0


def stored(meta: dict[str, Any]) -> CalibrationReport | None:
    """The calibration stored in an artifact's meta, if any."""
    found = meta.get("calibration")
    return CalibrationReport(**found) if isinstance(found, dict) else None


if __name__ == "__main__":
    raise SystemExit(main())
