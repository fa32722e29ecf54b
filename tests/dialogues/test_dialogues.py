"""Dialogue tests: every ``*.jsonl`` script here runs through the same code path as
``wxbot chat --script`` and is compared line by line with ``<name>.expected.jsonl``.

An expected line is a subset of the output line: listed keys must be equal, except
``reply_contains`` (each string must occur in the joined replies), ``reply_lacks`` and
``push_contains`` (each string must occur in some push text); ``"error": true`` wants an error line.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from bot.app import build_runtime
from bot.script import ScriptRunner
from bot.settings import Settings

HERE = Path(__file__).parent
SCRIPTS = sorted(p for p in HERE.glob("*.jsonl") if not p.name.endswith(".expected.jsonl"))


def run_script(path: Path, tmp_path: Path) -> list[dict[str, Any]]:
    settings = Settings.from_env({"DATA_DIR": str(tmp_path), "WEATHER_FAKE": "true"})
    runtime = build_runtime(settings)
    due = None
    try:
        from skills.reminders import run_due

        def due(now: datetime) -> list[Any]:
            return run_due(runtime.services, now)
    except ImportError:
        pass
    try:
        runner = ScriptRunner(runtime.engine, due_pushes=due)
        return list(runner.run_lines(path.read_text(encoding="utf-8").splitlines()))
    finally:
        runtime.services.db.dispose()


def _check(expected: dict[str, Any], actual: dict[str, Any], where: str) -> None:
    joined = "\n".join(actual.get("replies", []))
    for key, want in expected.items():
        if key == "reply_contains":
            for piece in want:
                assert piece in joined, f"{where}: reply lacks {piece!r}: {joined!r}"
        elif key == "reply_lacks":
            for piece in want:
                assert piece not in joined, f"{where}: reply has {piece!r}: {joined!r}"
        elif key == "push_contains":
            texts = " | ".join(p["text"] for p in actual.get("pushes", []))
            for piece in want:
                assert piece in texts, f"{where}: pushes lack {piece!r}: {texts!r}"
        elif key == "error" and want is True:
            assert "error" in actual, f"{where}: expected an error line, got {actual!r}"
        elif key == "state":
            for skey, svalue in want.items():
                assert actual["state"][skey] == svalue, f"{where}: state.{skey} {actual['state'][skey]!r}"
        else:
            assert actual.get(key) == want, f"{where}: {key} = {actual.get(key)!r}, want {want!r}; {joined!r}"


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_dialogue(script: Path, tmp_path: Path) -> None:
    expected_path = script.with_name(script.stem + ".expected.jsonl")
    expected = [json.loads(line) for line in expected_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    outputs = run_script(script, tmp_path)
    assert len(outputs) == len(expected), f"{len(outputs)} outputs for {len(expected)} expectations"
    for n, (want, got) in enumerate(zip(expected, outputs, strict=True), 1):
        _check(want, got, f"{script.name}:{n}")
    assert all(o.get("llm_calls", 0) == 0 for o in outputs), "dialogue tests never call a model"
