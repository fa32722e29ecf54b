"""``wxbot bench heldout``: gold-label mapping, aggregation, and a run on made-up sets (never the held-out data)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from bot.bench.heldout import (
    Outcome,
    accepted_intents,
    add_arguments,
    expected,
    read_sets,
    run,
    score,
)
from bot.settings import Settings

REMINDERS = {"reminder.create", "reminder.list", "reminder.cancel"}


@pytest.mark.parametrize(
    ("label", "intents"),
    [
        ("weather", {"weather.query"}),
        ("GetWeather", {"weather.query"}),
        ("HassGetWeather", {"weather.query"}),
        ("datetime", {"datetime.query"}),
        ("GetDate", {"datetime.query"}),
        ("HassGetCurrentTime", {"datetime.query"}),
        ("HassGetCurrentDate", {"datetime.query"}),
        ("schedule", REMINDERS),
        ("Remind", REMINDERS),
        ("HassStartTimer", REMINDERS),
        ("HassTimerStatus", REMINDERS),
        ("HassCancelAllTimers", REMINDERS),
        ("cookbook", {"recipe.query", "dinner.plan"}),
        ("chat", {"chitchat"}),
        ("Chat", {"chitchat"}),
    ],
)
def test_in_scope_labels_map_as_the_data_readme_says(label: str, intents: set[str]) -> None:
    assert accepted_intents(label) == intents
    assert expected(label) == intents


@pytest.mark.parametrize("label", ["PlayMusic", "flight", "health", "HassTurnOn", "HassClimateGetTemperature",
                                   "HassNevermind", "calendar", ""])
def test_everything_else_is_out_of_scope_where_unknown_or_chitchat_is_right(label: str) -> None:
    assert accepted_intents(label) is None
    assert expected(label) == {"unknown", "chitchat"}


def _o(label: str, intent: str, stage: str = "intent_model", source: str = "smp2017", decider: str = "") -> Outcome:
    return Outcome(source, label, stage, intent, decider)


def test_score_counts_in_scope_accuracy_false_tasks_and_local_misses() -> None:
    outcomes = [
        _o("weather", "weather.query", "rules", decider="rules[weather.query]"),
        _o("cookbook", "dinner.plan"),                     # right: cookbook accepts dinner.plan
        _o("HassStartTimer", "reminder.list", source="ha:zh-hk"),  # right: any reminder.*
        _o("chat", "unknown", "fallback"),                 # wrong, and no local stage decided it
        _o("PlayMusic", "unknown"),
        _o("PlayMusic", "reminder.create"),                # a false task
        _o("flight", "chitchat", source="cais"),
        _o("weather", "exercise.log", source="cais"),      # wrong and a false task (weather is not a task)
    ]
    report = score(outcomes)
    assert report["sentences"] == 8
    assert report["in_scope"] == 5
    assert report["in_scope_accuracy"] == pytest.approx(3 / 5, abs=1e-4)
    # non-task gold: weather ×2, chat, PlayMusic ×2, flight (cookbook and timers allow a task)
    assert report["false_tasks"] == 2
    assert report["false_task_rate"] == pytest.approx(2 / 6, abs=1e-4)
    assert report["local_miss_share"] == pytest.approx(1 / 5, abs=1e-4)
    assert report["out_of_scope_not_ours"] == pytest.approx(2 / 3, abs=1e-4)
    assert report["within_goal"] is False
    assert set(report["per_source"]) == {"smp2017", "cais", "ha", "ha:zh-hk"}
    assert report["per_source"]["ha"]["in_scope_accuracy"] == 1.0
    assert report["per_source"]["cais"]["in_scope_accuracy"] == 0.0
    assert report["per_label"]["in_scope"]["weather"] == {"n": 2, "accuracy": 0.5}
    assert report["per_label"]["out_of_scope"]["PlayMusic"] == {"n": 2, "accuracy": 0.5}
    assert report["stages"] == {"fallback": 1, "intent_model": 6, "rules": 1}
    assert "confusion" not in report


def test_misses_reaching_the_router_are_the_unsure_ones_and_the_local_misses() -> None:
    outcomes = [
        Outcome("smp2017", "weather", "intent_model", "weather.query", unsure=True),   # right: not a miss
        Outcome("smp2017", "weather", "intent_model", "chitchat", unsure=True),        # miss, unsure: reaches
        Outcome("smp2017", "weather", "intent_model", "chitchat"),                     # miss, sure: stays
        Outcome("smp2017", "chat", "fallback", "unknown"),                             # miss, no local stage
        Outcome("cais", "PlayMusic", "intent_model", "unknown", unsure=True),          # out of scope: not counted
    ]
    report = score(outcomes)
    assert (report["in_scope_misses"], report["misses_reaching_router"]) == (3, 2)
    assert report["in_scope_unsure_share"] == pytest.approx(2 / 4, abs=1e-4)


def test_goal_and_confusion_table() -> None:
    outcomes = [_o("weather", "weather.query", "rules", decider="rules[weather.query]")] * 12 + [
        _o("weather", "unknown")] + [_o("video", "unknown")] * 30
    report = score(outcomes, confusion=True)
    assert report["in_scope_accuracy"] == pytest.approx(12 / 13, abs=1e-4)
    assert report["within_goal"] is True
    assert report["confusion"]["weather"] == {"rules[weather.query] -> weather.query": 12,
                                              "intent_model -> unknown": 1}
    one_false_task = outcomes + [_o("video", "pantry.update")]
    assert score(one_false_task)["false_task_rate"] == pytest.approx(1 / 44, abs=1e-4)


def test_empty_run_has_no_rates() -> None:
    report = score([])
    assert report["in_scope_accuracy"] is None and report["false_task_rate"] is None
    assert report["within_goal"] is False


def _write_sets(directory: Path) -> dict[str, str]:
    """Made-up rows in the three files' layouts; returns text -> label."""
    rows = {
        "smp2017_test.tsv": [("明天杭州下雨吗", "weather"), ("帮我订一张去北京的机票", "flight")],
        "cais_test.tsv": [("我想听周杰伦的稻香", "PlayMusic"), ("晚上八点提醒我收衣服", "Remind")],
    }
    for name, pairs in rows.items():
        (directory / name).write_text("text\tlabel\n" + "".join(f"{t}\t{lab}\n" for t, lab in pairs), "utf-8")
    (directory / "ha_intents_zh.tsv").write_text(
        "lang\tlabel\ttext\tslots_json\nzh-cn\tHassGetCurrentTime\t现在几点了\t{}\n"
        "zh-hk\tHassTurnOn\t開客廳燈\t{\"area\": \"x\"}\n", "utf-8")
    return {t: lab for pairs in rows.values() for t, lab in pairs} | {"现在几点了": "HassGetCurrentTime",
                                                                        "開客廳燈": "HassTurnOn"}


def test_read_sets_reads_each_layout(tmp_path: Path) -> None:
    written = _write_sets(tmp_path)
    sentences = list(read_sets(tmp_path))
    assert {s.text: s.label for s in sentences} == written
    assert {s.source for s in sentences} == {"smp2017", "cais", "ha:zh-cn", "ha:zh-hk"}


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(list(argv))


def test_run_scores_through_the_engine_and_prints_no_sentence(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    written = _write_sets(tmp_path)
    settings = Settings.from_env({}, env_file=None)
    code = run(_args("--data-dir", str(tmp_path), "--confusion"), settings)
    out = capsys.readouterr().out
    report = json.loads(out)
    assert code in (0, 1)
    assert report["sentences"] == 6 and report["in_scope"] == 3
    assert report["errors"] == {} and report["llm_calls"] == 0
    assert report["turns_per_second"] > 0
    assert 0 < report["unsure_below"] < 1 and report["misses_reaching_router"] <= report["in_scope_misses"]
    assert sum(report["stages"].values()) == 6
    for text in written:
        assert text not in out


def test_run_refuses_bad_input_with_a_clear_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings.from_env({}, env_file=None)
    assert run(_args("--data-dir", str(tmp_path)), settings) == 2
    assert "not found" in capsys.readouterr().err
    assert run(_args("--data-dir", str(tmp_path), "--sets", "nope"), settings) == 2
    assert "unknown set" in capsys.readouterr().err


def test_a_numbered_question_is_right_when_it_offers_the_gold_intent_and_never_a_false_task() -> None:
    outcomes = [
        Outcome("smp2017", "weather", "intent_model", "datetime.query", asked=("datetime.query", "weather.query")),
        Outcome("smp2017", "weather", "intent_model", "reminder.create", asked=("reminder.create",)),
        Outcome("smp2017", "PlayMusic", "intent_model", "reminder.create", asked=("reminder.create",)),
    ]
    report = score(outcomes, confusion=True)
    assert report["in_scope_accuracy"] == 0.5
    assert (report["in_scope_asked"], report["in_scope_right_by_asking"], report["out_of_scope_asked"]) == (2, 1, 1)
    assert report["false_tasks"] == 0 and report["out_of_scope_not_ours"] == 0.0
    assert report["confusion"]["PlayMusic"] == {"intent_model -> asked reminder.create": 1}
