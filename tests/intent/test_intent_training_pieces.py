"""Pure pieces behind the model: features, label mapping, metrics, own-example data."""

from __future__ import annotations

import json

import pytest

from runtime.intent import (
    TABLE_FILE,
    FeatureConfig,
    build_pairs,
    char_ngrams,
    normalize,
    to_simplified,
    translation,
)
from runtime.intent.corpus import map_cais, map_dialogflow, map_smp, reminder_label
from runtime.intent.metrics import choose_threshold, false_task_rate, macro_f1, report, use_labels
from runtime.intent.synth import OWN_EXAMPLES, generate
from skills import registry


def test_normalize_folds_width_case_digits_and_punctuation() -> None:
    assert normalize("明天８:１０ 叫我！！OK") == "明天0 00 叫我 ok"
    assert normalize("明天8:10", fold_digits=False) == "明天8 10"


def test_char_ngrams_with_boundaries() -> None:
    grams = char_ngrams("你好", FeatureConfig(min_n=1, max_n=3))
    assert grams == ["你", "好", "^你", "你好", "好$", "^你好", "你好$"]


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("取消明天的闹钟", "reminder.cancel"),
        ("清空提醒", "reminder.cancel"),
        ("查看最近的日程", "reminder.list"),
        ("本周还有什么待办事项", "reminder.list"),
        ("明天8:10叫我起床", "reminder.create"),
    ],
)
def test_reminder_split(text: str, label: str) -> None:
    assert reminder_label(text) == label


def test_public_label_mapping() -> None:
    assert map_smp("weather", "x") == "weather.query"
    assert map_smp("cookbook", "x") == "recipe.query"
    assert map_smp("flight", "帮我订机票") == "unknown"
    assert map_smp("health", "头疼怎么办") == "unknown"
    assert map_cais("Remind", "十分钟后叫我") == "reminder.create"
    assert map_cais("PlayMusic", "放首歌") == "unknown"
    assert map_dialogflow("smalltalk.greetings.hello") == "chitchat"
    assert map_dialogflow("weather.temperature") == "weather.query"


def test_false_task_rate_counts_only_confident_task_guesses_on_non_task_gold() -> None:
    use_labels(not_a_skill=frozenset({"unknown", "chitchat"}), writes=registry().task_intents())
    gold = ["unknown", "chitchat", "weather.query", "reminder.create"]
    pred = ["reminder.create", "pantry.update", "weather.query", "unknown"]
    conf = [0.9, 0.4, 0.9, 0.9]
    assert false_task_rate(gold, pred, conf, 0.5) == pytest.approx(1 / 3)
    assert false_task_rate(gold, pred, conf, 0.3) == pytest.approx(2 / 3)
    assert false_task_rate(gold, pred, conf, 0.95) == 0.0


def test_report_and_macro_f1() -> None:
    gold = ["a", "a", "b", "b"]
    pred = ["a", "b", "b", "b"]
    assert macro_f1(gold, pred) == pytest.approx((2 / 3 + 0.8) / 2)
    result = report(gold, pred, [0.9, 0.3, 0.9, 0.9], 0.5)
    assert result.accuracy == 0.75
    assert result.coverage == 0.75
    assert result.accepted_accuracy == 1.0


def test_choose_threshold_rises_until_targets_hold() -> None:
    gold = ["unknown"] * 10 + ["weather.query"] * 90
    pred = ["reminder.create"] * 10 + ["weather.query"] * 90
    conf = [0.42] * 10 + [0.99] * 90
    assert choose_threshold(gold, pred, conf) == 0.45


def test_own_examples_file_matches_the_generator() -> None:
    with OWN_EXAMPLES.open(encoding="utf-8") as handle:
        stored = [(row["text"], row["label"]) for row in map(json.loads, handle)]
    assert stored == generate()
    assert {label for _, label in stored} <= set(registry().labels())


def test_traditional_characters_fold_to_simplified() -> None:
    assert to_simplified("計時器還剩幾耐？天氣點樣") == "计时器还剩几耐？天气点样"
    simplified = "今天天气怎么样？几点了，后天干什么，里面有什么"
    assert to_simplified(simplified) == simplified
    assert normalize("明天天氣", fold_traditional=True) == "明天天气"
    assert normalize("明天天氣") == "明天天氣"
    grams = char_ngrams("天氣", FeatureConfig(max_n=2, fold_traditional=True))
    assert grams == ["天", "气", "^天", "天气", "气$"]


def test_traditional_table_file_is_well_formed() -> None:
    first, second = TABLE_FILE.read_text(encoding="utf-8").splitlines()
    assert len(first) == len(second) > 3500
    assert len(set(first)) == len(first)
    assert all(a != b for a, b in zip(first, second, strict=True))
    assert to_simplified("後來怎麼樣") == "后来怎么样"
    assert ord("後") in translation()


def test_traditional_table_file_matches_opencc() -> None:
    pytest.importorskip("opencc")
    first, second = TABLE_FILE.read_text(encoding="utf-8").splitlines()
    assert list(zip(first, second, strict=True)) == build_pairs()


def test_own_examples_cover_timers_small_talk_and_vague_requests() -> None:
    rows = dict(generate())
    assert rows["最近动得咋样"] == "chitchat"
    assert rows["周末想跟朋友聚聚吃点啥好"] == "chitchat"
    assert any(label == "unknown" and text.startswith("帮我把那个事儿取消了") for text, label in rows.items())
    timers = {label for text, label in rows.items() if "计时器" in text}
    assert timers == {"reminder.create", "reminder.list", "reminder.cancel"}
