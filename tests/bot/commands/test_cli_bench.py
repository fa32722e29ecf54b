"""``wxbot bench``: the lazy dispatcher and the dialogue-script benchmark (small, in process)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot import cli
from bot.bench.script import make_script
from bot.commands import bench
from bot.script import ScriptLine

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(autouse=True)
def _embedded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("REDIS_URL", "DATABASE_URL", "OPENAI_BASE_URL", "OPENAI_API_KEY", "OPENAI_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no stray .env


def test_generated_script_is_valid_and_deterministic() -> None:
    lines = make_script(2000)
    assert len(lines) == 2000 and lines == make_script(2000) and lines != make_script(2000, seed=8)
    parsed = [ScriptLine.model_validate_json(raw) for raw in lines]
    assert all(p.text and p.user and p.at is None for p in parsed)
    texts = [p.text or "" for p in parsed]
    assert len(set(texts)) > 100
    assert not any(word in t for t in texts for word in ("提醒", "晚饭", "天气", "跑了", "菜谱"))


def test_bench_script_through_the_cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    written = tmp_path / "bench.jsonl"
    code = cli.main(["bench", "script", "-n", "300", "--write", str(written)])
    report = json.loads(capsys.readouterr().out)
    assert {"utterances", "seconds", "per_second", "baseline_json_roundtrip_per_second"} <= set(report)
    assert report["utterances"] == 300 and report["errors"] == 0 and report["llm_calls"] == 0
    assert report["per_second"] > 0 and report["baseline_json_roundtrip_per_second"] > report["per_second"]
    assert code == (0 if report["within_target"] else 1)
    assert set(report["stages"]) <= {"rules", "intent_model", "fallback"}
    assert report["stages"]["rules"] >= 150  # the date/time questions and greetings never reach a model
    assert len(written.read_text(encoding="utf-8").splitlines()) == 300


def test_missing_benchmark_says_not_available(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(bench.BENCHES, "nothere", "a benchmark this build does not have")
    assert cli.main(["bench", "nothere"]) == 2
    err = capsys.readouterr().err
    assert "not available" in err and "nothere" in err


def test_unknown_benchmark_name_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(["bench", "nonsense"])
    assert info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_every_listed_benchmark_module_exposes_the_command_interface() -> None:
    for name in bench.BENCHES:
        path = ROOT / "bot" / "commands" / f"bench_{name}.py"
        if path.exists():
            text = path.read_text(encoding="utf-8")
            assert "def add_arguments(" in text and "def run(" in text, path


def test_benchmark_processes_start_from_the_repository_root() -> None:
    """The processes a benchmark spawns import ``bot`` from the repository (not from inside it, where
    ``bot/queue`` would shadow the standard library's ``queue``)."""
    from bot.bench import ROOT as spawn_root

    assert spawn_root == ROOT


def test_wxbot_help_lists_every_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.bench import BENCHES

    modules = {p.stem for p in (ROOT / "bot" / "bench").glob("*.py") if not p.stem.startswith("_")}
    assert modules == set(BENCHES)  # every benchmark module is declared (and so listed)
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    listed = out.split("benchmarks: ", 1)[1]
    assert all(name in listed for name in BENCHES), out
    assert "heldout" in listed
