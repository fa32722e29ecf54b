from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from bot.bench import tokens as bench_tokens
from runtime.llm import LLMConfig, NoLLM, OpenAILLM, estimate_prompt_tokens
from runtime.llm.bench import run_bench
from runtime.llm.routing import PROMPT_TOKEN_BUDGET, Router, labels_from_registry
from runtime.llm.testkit import FakeOpenAI, json_reply
from skills import all_skills, registry


def test_our_prompts_cost_at_most_a_third_of_the_naive_baseline() -> None:
    report = run_bench(registry().skills)
    assert len(report.turns) == 10
    assert report.ratio <= 1 / 3 and report.within_target
    for turn in report.turns:
        assert turn.ours < turn.baseline
        if turn.stage == "llm_router":
            assert turn.ours <= PROMPT_TOKEN_BUDGET  # the whole request, schema included
    chat = next(t for t in report.turns if t.text == "你真有意思")
    assert chat.ours < 100  # chit-chat carries no tools


def test_the_measured_prompt_is_the_request_sent_over_http() -> None:
    labels = labels_from_registry(all_skills())
    summary = "用户正在安排晚饭（已知：3个人，预算100元），机器人刚问了“有什么忌口吗？”。"
    texts = ["喝水那个以后不用催了", "我想问一下，" + "就是那个每天都要做的事情，" * 30, "好"]
    with FakeOpenAI(default=json_reply({"intent": "unknown", "confidence": 0.2})) as fake:
        llm = OpenAILLM(LLMConfig.from_env(fake.env()))
        router = Router(llm, labels)
        for text in texts:
            router.route(text, summary)
            body = fake.chat_requests[-1].body or {}
            sent = estimate_prompt_tokens(body["messages"], response_format=body["response_format"])
            assert sent == router.prompt(text, summary).tokens <= PROMPT_TOKEN_BUDGET
        llm.close()


def test_real_turns_are_collected_from_dialogue_scripts(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text(
        '{"user": "u1", "text": "3个人预算100帮我安排晚饭", "at": "2026-12-01T18:00:00+08:00"}\n'
        '{"user": "u1", "text": "不吃辣"}\n', "utf-8")
    (tmp_path / "a.expected.jsonl").write_text('{"user": "u1", "text": "never read"}\n', "utf-8")
    from bot.compose import core
    from bot.settings import Settings

    runtime = core(Settings(_env_file=None, data_dir=tmp_path / "data", weather_fake=True))  # type: ignore[call-arg]
    try:
        turns = bench_tokens.collect_dialogue_turns(runtime.engine, tmp_path)
    finally:
        runtime.services.db.dispose()
    assert [t.text for t in turns] == ["3个人预算100帮我安排晚饭", "不吃辣"]
    assert turns[0].history == () and turns[1].history[0] == ("user", "3个人预算100帮我安排晚饭")
    assert "晚饭" in turns[1].summary and turns[1].summary != turns[0].summary  # the summary the router sees
    router = Router(NoLLM(), labels_from_registry(all_skills()))
    figures = bench_tokens.measure(turns, router, [])
    assert figures["turns"] == 2 and figures["max"] <= PROMPT_TOKEN_BUDGET
    assert figures["ours_total"] == sum(router.prompt(t.text, t.summary).tokens for t in turns)
    assert figures["baseline_total"] > 0


def test_cli_prints_json_and_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    bench_tokens.add_arguments(parser)
    assert bench_tokens.run(parser.parse_args(["--summary", "--no-training"]), settings=None) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= {"ours_total", "baseline_total", "ratio", "max", "turns", "over_budget"}
    assert "fixed" not in out and out["turns"] > 500 and out["max"] <= out["budget"] == PROMPT_TOKEN_BUDGET
    assert out["ratio"] == pytest.approx(out["ours_total"] / out["baseline_total"], abs=1e-3)
    assert out["ratio"] <= 1 / 3 and out["within_target"]
