"""Every table of intent facts is derived from the skills' specs (DESIGN §3.6): no collection written in
``runtime/`` or ``bot/`` names an intent. Labels, read-only/write/task sets, task names, model labels, LLM
label descriptions and tool bundles, menu keys and the help text all come from ``SkillRegistry``.

Data, not facts, is exempt — each file below says why.
"""

from __future__ import annotations

import ast
from pathlib import Path

from skills import registry

ROOT = Path(__file__).resolve().parents[2]
DATA = {
    "runtime/intent/corpus.py": "training data: the public data sets' labels mapped onto ours",
    "runtime/intent/_templates.py": "training data: the project's own example sentences, by label",
    "runtime/intent/_templates_chat.py": "training data",
    "runtime/intent/_templates_everyday.py": "training data",
    "runtime/intent/_templates_talk.py": "training data",
    "runtime/intent/_templates_timers.py": "training data",
    "runtime/llm/testkit/_modes.py": "a test double: the fake model's scripted answers",
    "runtime/llm/_bench_data.py": "a benchmark fixture: one realistic user state",
    "bot/bench/heldout.py": "the evaluation mapping of the public held-out labels (shared/data/README.md)",
}


def _intents() -> frozenset[str]:
    return registry().intents() | frozenset(registry().labels())


def _tables(path: Path, intents: frozenset[str]) -> list[str]:
    """The collection literals in ``path`` that hold an intent label, as "line: labels"."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Set | ast.List | ast.Tuple | ast.Dict):
            items = [*node.keys, *node.values] if isinstance(node, ast.Dict) else node.elts
            named = sorted({i.value for i in items if isinstance(i, ast.Constant) and i.value in intents})
            if named:
                found.append(f"{node.lineno}: {named}")
    return found


def test_no_hand_written_intent_table_outside_the_skills() -> None:
    intents = _intents() - {"unknown"}  # the engine's own label for "none of them"
    offenders = {}
    for folder in ("runtime", "bot"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in DATA:
                continue
            tables = _tables(path, intents)
            if tables:
                offenders[rel] = tables
    assert offenders == {}


def test_the_check_finds_a_table_when_there_is_one(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('WRITES = frozenset({"reminder.cancel", "exercise.log"})\n', encoding="utf-8")
    assert _tables(sample, _intents()) == ["1: ['exercise.log', 'reminder.cancel']"]
