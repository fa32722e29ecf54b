"""Temperature calibration: the math, the stored figures, and the typed reading the cascade uses."""

from __future__ import annotations

import numpy as np
import pytest

from runtime.intent import CalibratedIntentModel, IntentReading, load_default_model, temper
from runtime.intent.calibrate import (
    CalibrationReport,
    calibrate,
    expected_calibration_error,
    fit_temperature,
    split_dev,
    stored,
    unsure_threshold,
)
from runtime.intent.corpus import DEFAULT_DATA_DIR, load_split

RNG = np.random.default_rng(7)


def _synthetic(n: int, sharpness: float) -> tuple[np.ndarray, np.ndarray]:
    """Three-class probabilities whose labels are drawn from the *true* distribution, then sharpened
    (``sharpness`` > 1: over-confident) or flattened (< 1: under-confident)."""
    logits = RNG.normal(0, 2.0, size=(n, 3))
    true = np.exp(logits) / np.exp(logits).sum(1, keepdims=True)
    gold = np.array([RNG.choice(3, p=row) for row in true])
    shown = temper(true, 1 / sharpness)
    return shown, gold


def test_temper_keeps_the_top_label_and_sums_to_one() -> None:
    probs = np.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3]])
    for t in (0.5, 1.0, 2.0):
        scaled = temper(probs, t)
        assert np.allclose(scaled.sum(1), 1.0)
        assert (scaled.argmax(1) == probs.argmax(1)).all()
    assert temper(probs, 0.5)[0, 0] > 0.6 > temper(probs, 2.0)[0, 0]
    assert temper(probs, 1.0) is probs


@pytest.mark.parametrize(("sharpness", "direction"), [(2.0, 1), (0.5, -1)])
def test_fit_temperature_undoes_over_and_under_confidence(sharpness: float, direction: int) -> None:
    probs, gold = _synthetic(4000, sharpness)
    t = fit_temperature(probs, gold)
    assert (t - 1.0) * direction > 0.3  # over-confident → T > 1, under-confident → T < 1
    assert expected_calibration_error(temper(probs, t), gold) < expected_calibration_error(probs, gold)


def test_a_calibrated_model_has_a_small_ece() -> None:
    probs, gold = _synthetic(6000, 1.0)
    assert expected_calibration_error(probs, gold) < 0.03
    assert abs(fit_temperature(probs, gold) - 1.0) < 0.15


def test_unsure_threshold_is_the_lowest_grid_point_meeting_the_target() -> None:
    # 100 sure-and-right at 0.95, 10 at 0.62 of which 5 are wrong
    probs = np.array([[0.95, 0.05]] * 100 + [[0.62, 0.38]] * 10)
    gold = np.array([0] * 100 + [0, 1] * 5)
    assert unsure_threshold(probs, gold, target=0.99) == 0.65
    assert unsure_threshold(probs, gold, target=0.95) == 0.3  # 105/110 right: the grid's lowest point keeps all


# the training data lives beside the checkout (shared/data/train), as for tests/intent/test_intent_model.py
needs_training_data = pytest.mark.skipif(not DEFAULT_DATA_DIR.is_dir(), reason="shared training data not present")


@needs_training_data
def test_split_dev_is_stable_disjoint_and_stratified() -> None:
    _, dev = load_split(DEFAULT_DATA_DIR)
    fit, check = split_dev(dev)
    assert split_dev(dev) == (fit, check)
    assert len(fit) + len(check) == len(dev)
    assert not {e.text for e in fit} & {e.text for e in check}
    for label in {e.label for e in dev}:
        assert abs(sum(e.label == label for e in fit) - sum(e.label == label for e in check)) <= 1


def test_the_shipped_artifact_carries_its_calibration() -> None:
    model = load_default_model()
    report = stored(model.meta)
    assert isinstance(report, CalibrationReport)
    assert model.temperature == report.temperature and model.unsure_below == report.unsure_below
    assert report.ece_after < report.ece_before


@needs_training_data
def test_the_shipped_calibration_reproduces() -> None:
    model = load_default_model()
    report = stored(model.meta)
    _, dev = load_split(DEFAULT_DATA_DIR)
    again = calibrate(model, dev)
    assert again == report  # the figures in the artifact are what the command measures
    assert report.ece_after < report.ece_before
    assert report.check_sure_accuracy > report.check_accuracy


def test_read_is_the_calibrated_probability_with_unsure_below_the_threshold() -> None:
    model = load_default_model()
    assert isinstance(model, CalibratedIntentModel)
    for text in ("明天北京天气怎么样", "我老是忘记吃药，你能不能管管我", "嗯", ""):
        reading = model.read(text)
        assert isinstance(reading, IntentReading)
        raw = model.probabilities(text).astype(np.float64)
        expected = temper(raw / raw.sum(), model.temperature)
        assert reading.label == model.predict(text).label  # calibration never changes the top label
        assert reading.probability == pytest.approx(float(expected.max()), abs=1e-3)
        assert reading.alternatives[0] == (reading.label, reading.probability)
        assert reading.unsure == (reading.probability < reading.threshold)
        assert reading.margin == pytest.approx(reading.probability - reading.alternatives[1][1], abs=1e-4)
    assert not model.read("明天北京天气怎么样").unsure
    assert model.read("我老是忘记吃药，你能不能管管我").unsure
