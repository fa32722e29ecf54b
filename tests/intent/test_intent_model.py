"""The shipped local intent model: load time, obvious answers, out-of-scope safety, dev metrics."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from runtime.intent import (
    DEFAULT_THRESHOLD,
    IntentModel,
    IntentPrediction,
    LinearIntentModel,
    load_default_model,
)
from runtime.intent.corpus import DEFAULT_DATA_DIR, load_split
from runtime.intent.metrics import report
from skills import registry

# Measured by `python -m runtime.intent.train` (see runtime/intent/REPORT.md): accuracy 0.9771,
# macro F1 0.9877, false-task rate 0.0008 at threshold 0.55. Floors leave 0.02 of slack.
DEV_ACCURACY_FLOOR = 0.955
DEV_MACRO_F1_FLOOR = 0.965
DEV_FALSE_TASK_CEILING = 0.003


@pytest.fixture(scope="module")
def model() -> LinearIntentModel:
    loaded = load_default_model()
    assert isinstance(loaded, LinearIntentModel)
    return loaded


def test_loads_fast() -> None:
    started = time.perf_counter()
    loaded = load_default_model()
    elapsed = time.perf_counter() - started
    assert isinstance(loaded, IntentModel)
    assert elapsed < 2.0, f"loading took {elapsed:.2f}s"


TRAINING_ONLY = ("sklearn", "scipy")
"""Modules of the ``train`` extra: nothing at run time may import them."""


def test_runtime_does_not_import_training_packages() -> None:
    code = (
        "import sys, runtime.intent as i; i.load_default_model().predict('現在幾點了'); "
        f"sys.exit(1 if any(m in sys.modules for m in {TRAINING_ONLY + ('opencc',)!r}) else 0)"
    )
    root = Path(__file__).resolve().parents[2]
    assert subprocess.run([sys.executable, "-c", code], cwd=root, check=False).returncode == 0


def test_the_bot_runs_a_turn_without_training_packages(tmp_path: Path) -> None:
    code = (
        "import sys, datetime as d; from bot.compose import core; from bot.settings import Settings; "
        "from runtime.turn import Inbound; "
        f"s = Settings.from_env({{}}, env_file=None).model_copy(update={{'data_dir': __import__('pathlib').Path({str(tmp_path)!r}), 'weather_fake': True}}); "
        "r = core(s); t = r.engine.handle(Inbound(user='u', text='10分钟计时器', msg_id='m', "
        "at=d.datetime(2026, 12, 1, 10, tzinfo=d.timezone.utc))).trace; "
        f"sys.exit(2 if any(m in sys.modules for m in {TRAINING_ONLY!r}) else 0 if t.stage else 3)"
    )
    root = Path(__file__).resolve().parents[2]
    assert subprocess.run([sys.executable, "-c", code], cwd=root, check=False).returncode == 0


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("明天北京天气怎么样", "weather.query"),
        ("现在几点了", "datetime.query"),
        ("今天星期几", "datetime.query"),
        ("周四晚上9点提醒我倒垃圾", "reminder.create"),
        ("取消明天的提醒", "reminder.cancel"),
        ("我有哪些提醒", "reminder.list"),
        ("红烧肉怎么做", "recipe.query"),
        ("帮我规划一下晚饭，4个人，预算200", "dinner.plan"),
        ("今天跑了5公里", "exercise.log"),
        ("我这周运动了多少", "exercise.history"),
        ("我的体重改成65公斤", "profile.update"),
        ("冰箱里有3个鸡蛋", "pantry.update"),
        ("你好", "chitchat"),
        ("10分钟计时器", "reminder.create"),
        ("帮我定个七分钟的计时器", "reminder.create"),
        ("停止计时器", "reminder.cancel"),
        ("谢谢你", "chitchat"),
        ("哈哈哈", "chitchat"),
        ("明天台北天氣如何", "weather.query"),
        ("現在幾點", "datetime.query"),
    ],
)
def test_obvious_examples(model: LinearIntentModel, text: str, label: str) -> None:
    prediction = model.predict(text)
    assert prediction.label == label, prediction
    assert prediction.confidence >= DEFAULT_THRESHOLD, prediction


@pytest.mark.parametrize(
    "text",
    [
        "帮我订一张去上海的机票",
        "我想听周杰伦的歌",
        "打开客厅的灯",
        "把空调调到26度",
        "头疼吃什么药好",
        "播放新闻",
    ],
)
def test_out_of_scope_never_starts_a_task(model: LinearIntentModel, text: str) -> None:
    prediction = model.predict(text)
    assert prediction.label in {"unknown", "chitchat"}, prediction
    assert prediction.label not in registry().write_intents()
    probabilities = dict(zip(model.labels, model.probabilities(text).tolist(), strict=True))
    task_risk = sum(p for label, p in probabilities.items() if label in registry().write_intents())
    assert task_risk < 0.1, (text, task_risk)


@pytest.mark.parametrize("text", ["计时器还剩多久", "计时器还有多久结束", "設定十分鐘計時器", "把计时器停了"])
def test_timers_are_reminders(model: LinearIntentModel, text: str) -> None:
    prediction = model.predict(text)
    assert prediction.label.startswith("reminder."), prediction
    assert prediction.confidence >= DEFAULT_THRESHOLD, prediction


@pytest.mark.parametrize(
    "text",
    ["周末想跟朋友聚聚吃点啥好", "最近动得咋样", "帮我把那个事儿取消了吧", "你是谁呀", "再见啦", "你真没用",
     "晚饭吃得好撑", "你的提醒还挺准的"],
)
def test_small_talk_and_vague_requests_are_confidently_not_tasks(model: LinearIntentModel, text: str) -> None:
    prediction = model.predict(text)
    assert prediction.label in {"chitchat", "unknown"}, prediction
    assert prediction.confidence >= DEFAULT_THRESHOLD, prediction


@pytest.mark.parametrize("text", ["", "   ", "？？？", "😀😀", "a" * 5000, "\x00\n\t", "１２３４"])
def test_odd_input_gives_a_valid_prediction(model: LinearIntentModel, text: str) -> None:
    prediction = model.predict(text)
    assert prediction.label in registry().labels()
    assert 0.0 <= prediction.confidence <= 1.0


def test_prediction_shape(model: LinearIntentModel) -> None:
    prediction = model.predict("后天上海会下雨吗")
    assert isinstance(prediction, IntentPrediction)
    assert len(prediction.alternatives) == 3
    assert prediction.alternatives[0] == (prediction.label, prediction.confidence)
    probs = [p for _, p in prediction.alternatives]
    assert probs == sorted(probs, reverse=True)
    assert float(model.probabilities("后天上海会下雨吗").sum()) == pytest.approx(1.0, abs=1e-5)
    with pytest.raises(AttributeError):
        prediction.label = "unknown"  # type: ignore[misc]


def test_model_knows_exactly_the_design_labels(model: LinearIntentModel) -> None:
    assert set(model.labels) == set(registry().labels())


def test_default_threshold_matches_the_artifact(model: LinearIntentModel) -> None:
    assert model.meta["threshold"] == DEFAULT_THRESHOLD


@pytest.mark.skipif(not DEFAULT_DATA_DIR.is_dir(), reason="shared training data not present")
def test_dev_metrics_stay_above_measured_floor(model: LinearIntentModel) -> None:
    _, dev = load_split()
    gold = [ex.label for ex in dev]
    predictions = [model.predict(ex.text) for ex in dev]
    result = report(
        gold, [p.label for p in predictions], [p.confidence for p in predictions], DEFAULT_THRESHOLD
    )
    assert result.n == model.meta["dev"]["n"]
    assert result.accuracy >= DEV_ACCURACY_FLOOR
    assert result.macro_f1 >= DEV_MACRO_F1_FLOOR
    assert result.false_task_rate <= DEV_FALSE_TASK_CEILING
    assert result.accuracy == pytest.approx(model.meta["dev"]["accuracy"], abs=1e-9)


def test_no_dev_sentence_is_in_train() -> None:
    if not DEFAULT_DATA_DIR.is_dir():
        pytest.skip("shared training data not present")
    train, dev = load_split()
    assert {ex.text for ex in train}.isdisjoint(ex.text for ex in dev)
    assert np.isclose(len(dev) / (len(dev) + len(train)), 0.2, atol=0.01)
