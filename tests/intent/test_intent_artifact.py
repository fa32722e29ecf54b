"""Artifact format: round trip, byte-for-byte determinism, clear errors."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from runtime.intent import (
    DEFAULT_ARTIFACT,
    ArtifactError,
    FeatureConfig,
    LinearIntentModel,
    load_artifact,
    load_default_model,
    save_artifact,
)

SAMPLES = ["明天北京天气怎么样", "取消明天的提醒", "我想听周杰伦的歌", "", "今晚3个人吃饭预算100"]


def _tiny_model(calibrated: bool) -> LinearIntentModel:
    labels = ("chitchat", "weather.query", "unknown")
    vocabulary = {"天": 0, "气": 1, "天气": 2, "你": 3, "好": 4, "^你好": 5}
    coef = np.array([[0, 2, 0], [0, 2, 0], [0, 3, 0], [2, 0, 0], [1, 0, 0], [2, 0, 0]], dtype=np.float32)
    calibration = np.array([[-3, -3, -3], [1, 1, 1]], dtype=np.float32) if calibrated else None
    return LinearIntentModel(
        labels=labels,
        vocabulary=vocabulary,
        idf=np.ones(6, dtype=np.float32),
        coef=coef,
        intercept=np.array([0.0, 0.0, 0.5], dtype=np.float32),
        features=FeatureConfig(),
        calibration=calibration,
        meta={"model": "tiny"},
    )


@pytest.mark.parametrize("calibrated", [False, True])
def test_tiny_model_scores_and_round_trip(tmp_path: Path, calibrated: bool) -> None:
    model = _tiny_model(calibrated)
    assert model.predict("今天天气").label == "weather.query"
    assert model.predict("你好").label == "chitchat"
    assert model.predict("xyz").label == "unknown"  # no known n-gram: the intercept decides
    path = tmp_path / "tiny.npz"
    save_artifact(model, path)
    loaded = load_artifact(path)
    assert loaded.labels == model.labels
    assert loaded.vocabulary == model.vocabulary
    assert (loaded.calibration is None) == (not calibrated)
    for text in ["今天天气", "你好", "xyz", ""]:
        assert loaded.predict(text) == model.predict(text)


def test_shipped_artifact_round_trip_is_byte_identical(tmp_path: Path) -> None:
    model = load_default_model()
    assert isinstance(model, LinearIntentModel)
    first, second = tmp_path / "a.npz", tmp_path / "b.npz"
    save_artifact(model, first)
    save_artifact(model, second)
    assert first.read_bytes() == second.read_bytes()
    reloaded = load_artifact(first)
    for text in SAMPLES:
        assert reloaded.predict(text) == model.predict(text)


def test_shipped_artifact_is_small_and_pickle_free() -> None:
    assert DEFAULT_ARTIFACT.stat().st_size < 5_000_000
    with np.load(DEFAULT_ARTIFACT, allow_pickle=False) as data:
        assert {"labels", "vocabulary", "idf", "coef", "intercept", "meta"} <= set(data.files)


def test_missing_file_is_an_artifact_error(tmp_path: Path) -> None:
    with pytest.raises(ArtifactError) as caught:
        load_artifact(tmp_path / "nope.npz")
    assert caught.value.path == tmp_path / "nope.npz"


def test_other_format_version_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "old.npz"
    save_artifact(_tiny_model(False), path)
    rewritten = tmp_path / "rewritten.npz"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(rewritten, "w") as dst:
        for name in src.namelist():
            payload = src.read(name)
            if name == "meta.npy":
                meta = json.loads(str(np.load(io.BytesIO(payload))))
                meta["format_version"] = 99
                buffer = io.BytesIO()
                np.save(buffer, np.array(json.dumps(meta)))
                payload = buffer.getvalue()
            dst.writestr(name, payload)
    with pytest.raises(ArtifactError, match="format version"):
        load_artifact(rewritten)
