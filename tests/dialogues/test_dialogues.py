"""Dialogue tests: every ``*.jsonl`` script here runs through the same code path as
``wxbot chat --script`` and is compared line by line with ``<name>.expected.jsonl``.

An expected line is a subset of the output line, read by the same judge as ``wxbot bench dialogues``
(:func:`bot.bench.dialogues.failures`): ``intent`` (one label or a list), ``reply_contains``,
``reply_any``, ``reply_lacks``, ``asks``, ``state`` (a subset), ``push_contains`` / ``push_any``,
``"error": true``; any other key must be equal.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.bench.dialogues import failures, run_script

HERE = Path(__file__).parent
SCRIPTS = sorted(p for p in HERE.glob("*.jsonl") if not p.name.endswith(".expected.jsonl"))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_dialogue(script: Path, tmp_path: Path) -> None:
    expected_path = script.with_name(script.stem + ".expected.jsonl")
    expected = [json.loads(line) for line in expected_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    outputs = run_script(script, tmp_path)
    assert len(outputs) == len(expected), f"{len(outputs)} outputs for {len(expected)} expectations"
    missed = [f"{script.name}:{n}: {miss}; got {' / '.join(got.get('replies', []))!r}"
              for n, (want, got) in enumerate(zip(expected, outputs, strict=True), 1) if (miss := failures(want, got))]
    assert missed == []
    assert all(o.get("llm_calls", 0) == 0 for o in outputs), "dialogue tests never call a model"
