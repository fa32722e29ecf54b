"""Train the local intent model: ``python -m runtime.intent.train [--data-dir DIR] [--out FILE]``.

Compares a few scikit-learn linear models on character n-gram TF-IDF features, picks the one with
the best dev accuracy, chooses the confidence threshold on the dev split (lowest threshold whose
false-task rate is within target), exports the weights to a NumPy-only artifact, calibrates it
(:mod:`runtime.intent.calibrate`) and prints dev accuracy, macro F1, false-task rate, the
calibration, load time and artifact size. Deterministic (fixed seeds).
scikit-learn is needed here only; run-time inference uses :mod:`runtime.intent._linear`.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.calibration import CalibratedClassifierCV
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.svm import LinearSVC

from skills import registry  # the training tool reads the label facts from the skills, like the engine

from ._features import FeatureConfig, char_ngrams
from ._linear import DEFAULT_ARTIFACT, LinearIntentModel, load_artifact, save_artifact
from .calibrate import calibrate, with_calibration
from .corpus import DEFAULT_DATA_DIR, SEED, Example, load_split
from .metrics import DevReport, choose_threshold, report, use_labels

UNKNOWN = "unknown"  # the corpus' label for out-of-scope sentences
SMALL_TALK = "chitchat"  # the corpus' label for small talk (the public data's chat/Chat)


@dataclass(frozen=True, slots=True)
class Candidate:
    """One model option: feature config plus a factory for the scikit-learn classifier."""

    name: str
    features: FeatureConfig
    make: Callable[[], Any]
    chitchat_weight: float = 1.0
    """Sample weight of small-talk sentences (the public data has 4× more ``unknown``)."""


def _lr(c: float, balanced: bool = False) -> Callable[[], Any]:
    weight = "balanced" if balanced else None
    return lambda: LogisticRegression(C=c, max_iter=3000, class_weight=weight, random_state=SEED)


def _svc(c: float, balanced: bool = False) -> Callable[[], Any]:
    weight = "balanced" if balanced else None
    return lambda: CalibratedClassifierCV(
        LinearSVC(C=c, class_weight=weight, random_state=SEED, max_iter=5000), method="sigmoid", cv=3,
        ensemble=False,
    )


_FOLD = FeatureConfig(fold_traditional=True)

CANDIDATES: tuple[Candidate, ...] = (
    Candidate("char1-3 tfidf + logreg C=10, traditional folded", _FOLD, _lr(10.0)),
    Candidate("char1-3 tfidf + linear SVM C=0.5 + sigmoid, traditional folded", _FOLD, _svc(0.5)),
    Candidate("char1-3 tfidf + linear SVM C=1 + sigmoid, traditional folded", _FOLD, _svc(1.0)),
    Candidate("char1-3 tfidf + linear SVM C=1 + sigmoid, chitchat weight 1.5, traditional folded", _FOLD,
              _svc(1.0), chitchat_weight=1.5),
    Candidate("char1-4 tfidf + linear SVM C=0.5 + sigmoid, traditional folded",
              FeatureConfig(max_n=4, fold_traditional=True), _svc(0.5)),
    Candidate("char1-2 tfidf + logreg C=10, traditional folded", FeatureConfig(max_n=2, fold_traditional=True),
              _lr(10.0)),
    Candidate("char1-4 tfidf + linear SVM C=0.5 balanced + sigmoid, traditional folded",
              FeatureConfig(max_n=4, fold_traditional=True), _svc(0.5, balanced=True)),
)


def fit(candidate: Candidate, train: Sequence[Example]) -> LinearIntentModel:
    """Fit one candidate and export it as a NumPy-only model."""
    vectorizer = TfidfVectorizer(
        analyzer=partial(char_ngrams, config=candidate.features),
        min_df=2,
        sublinear_tf=True,
        dtype=np.float32,
    )
    x = vectorizer.fit_transform([ex.text for ex in train])
    classifier = candidate.make()
    labels = [ex.label for ex in train]
    weights = np.array([candidate.chitchat_weight if label == SMALL_TALK else 1.0 for label in labels])
    classifier.fit(x, labels, sample_weight=weights)
    calibration = None
    if isinstance(classifier, CalibratedClassifierCV):
        fitted = classifier.calibrated_classifiers_[0]
        linear = fitted.estimator
        calibration = np.array(
            [[c.a_ for c in fitted.calibrators], [c.b_ for c in fitted.calibrators]], dtype=np.float32
        )
    else:
        linear = classifier
    vocabulary = {str(gram): int(index) for gram, index in vectorizer.vocabulary_.items()}
    return LinearIntentModel(
        labels=tuple(str(label) for label in linear.classes_),
        vocabulary=vocabulary,
        idf=vectorizer.idf_.astype(np.float32),
        coef=np.ascontiguousarray(linear.coef_.T, dtype=np.float32),
        intercept=linear.intercept_.astype(np.float32),
        features=candidate.features,
        calibration=calibration,
        meta={"model": candidate.name},
    )


def evaluate(model: LinearIntentModel, dev: Sequence[Example], threshold: float | None = None) -> DevReport:
    """Dev metrics of ``model``; the threshold is chosen on ``dev`` when not given."""
    gold = [ex.label for ex in dev]
    predictions = [model.predict(ex.text) for ex in dev]
    pred = [p.label for p in predictions]
    conf = [p.confidence for p in predictions]
    chosen = choose_threshold(gold, pred, conf) if threshold is None else threshold
    return report(gold, pred, conf, chosen)


def _line(name: str, r: DevReport) -> str:
    return (
        f"{name:<76} n={r.n:5d} acc={r.accuracy:.4f} macroF1={r.macro_f1:.4f} thr={r.threshold:.2f} "
        f"false-task={r.false_task_rate:.4f} coverage={r.coverage:.4f} acc@accepted={r.accepted_accuracy:.4f} "
        f"routing@accepted={r.accepted_routing_accuracy:.4f}"
    )


def _traditional_copy(dev: Sequence[Example]) -> list[Example]:
    """The dev sentences written in traditional characters (how users in Hong Kong and Taiwan type)."""
    import opencc

    converter = opencc.OpenCC("s2t")
    return [replace(ex, text=converter.convert(ex.text)) for ex in dev]


def main(argv: Sequence[str] | None = None) -> int:
    """Train, compare, export; print the measurements."""
    parser = argparse.ArgumentParser(prog="python -m runtime.intent.train", description=__doc__)
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--out", type=Path, default=DEFAULT_ARTIFACT)
    args = parser.parse_args(argv)
    skills = registry()
    talk = skills.fallback()
    use_labels(not_a_skill=frozenset({UNKNOWN, *((talk[1].intent,) if talk else ())}), writes=skills.task_intents())

    train, dev = load_split(args.data_dir)
    print(f"train={len(train)} dev={len(dev)} (dev share 0.2, seed {SEED})")
    best: tuple[float, float, LinearIntentModel, DevReport, Candidate] | None = None
    for candidate in CANDIDATES:
        started = time.perf_counter()
        model = fit(candidate, train)
        result = evaluate(model, dev)
        print(_line(candidate.name, result) + f" fit={time.perf_counter() - started:.1f}s")
        if best is None or (result.accuracy, result.macro_f1) > (best[0], best[1]):
            best = (result.accuracy, result.macro_f1, model, result, candidate)
    assert best is not None
    _, _, model, chosen, picked = best
    traditional = _traditional_copy(dev)
    unfolded = fit(replace(picked, features=replace(picked.features, fold_traditional=False)), train)
    public = evaluate(model, [ex for ex in dev if not ex.source.startswith("own:")], chosen.threshold)
    own = evaluate(model, [ex for ex in dev if ex.source.startswith("own:")], chosen.threshold)
    meta = dict(
        model.meta,
        seed=SEED,
        threshold=chosen.threshold,
        dev=asdict(chosen),
        dev_public=asdict(public),
        dev_own=asdict(own),
        dev_traditional=asdict(evaluate(model, traditional, chosen.threshold)),
        train_size=len(train),
    )
    final = LinearIntentModel(
        model.labels,
        model.vocabulary,
        model.idf,
        model.coef,
        model.intercept,
        model.features,
        model.calibration,
        meta,
    )
    save_artifact(final, args.out)
    # the temperature is fitted on the weights as shipped (float16), exactly as the calibrate command does
    save_artifact(with_calibration(load_artifact(args.out), calibrate(load_artifact(args.out), dev)), args.out)

    started = time.perf_counter()
    loaded = load_artifact(args.out)
    load_s = time.perf_counter() - started
    started = time.perf_counter()
    reloaded = evaluate(loaded, dev, chosen.threshold)
    per_msg_ms = (time.perf_counter() - started) * 1000 / len(dev)
    print(f"\nchosen: {model.meta['model']}")
    print(_line("dev (all), float16 artifact", reloaded))
    print(_line("dev (public data only)", public))
    print(_line("dev (own examples only)", own))
    print(_line("dev in traditional script (OpenCC s2t)", evaluate(loaded, traditional, chosen.threshold)))
    print(_line("  the same without folding, traditional", evaluate(unfolded, traditional, chosen.threshold)))
    print(_line("  the same without folding, dev (all)", evaluate(unfolded, dev, chosen.threshold)))
    print(f"calibration: {loaded.meta['calibration']}")
    print(
        f"artifact={args.out} size={args.out.stat().st_size / 1e6:.2f} MB features={len(loaded.vocabulary)} "
        f"load={load_s * 1000:.0f} ms predict={per_msg_ms:.2f} ms/message"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
