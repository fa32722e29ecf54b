from __future__ import annotations

import argparse
import json

import pytest

from bot.bench import tokens as bench_tokens
from runtime.llm.bench import run_bench
from runtime.llm.routing import PROMPT_TOKEN_BUDGET


def test_our_prompts_cost_at_most_a_third_of_the_naive_baseline() -> None:
    report = run_bench()
    assert len(report.turns) == 10
    assert report.ratio <= 1 / 3 and report.within_target
    for turn in report.turns:
        assert turn.ours < turn.baseline
        if turn.stage == "llm_router":
            assert turn.ours <= PROMPT_TOKEN_BUDGET  # the whole request, schema included
    chat = next(t for t in report.turns if t.text == "你真有意思")
    assert chat.ours < 100  # chit-chat carries no tools


def test_cli_prints_json_and_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    bench_tokens.add_arguments(parser)
    assert bench_tokens.run(parser.parse_args(["--summary"]), settings=None) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= {"ours_total", "baseline_total", "ratio"} and "turns" not in out
    assert out["ratio"] == pytest.approx(out["ours_total"] / out["baseline_total"], abs=1e-3)
