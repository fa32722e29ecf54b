"""``wxbot bench dialogues [--dir DIR]``: the pass rate of a set of dialogue scripts (a measurement).

Each ``NAME.jsonl`` script in ``DIR`` runs through the engine exactly as ``wxbot chat --script --json``
does, on a fresh embedded state and the offline weather fake, and is checked line by line against
``NAME.expected.jsonl`` (:func:`failures`). A conversation passes when every line passes. Prints one
JSON object: conversations and turns passed, the rate, the failing conversations, and by topic
(the name after ``bNNN_``). ``--show`` also prints each failing line (what was said, what was wanted,
what the bot did). Default ``DIR``: ``tests/dialogues_blind`` (the blind set).
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from bot.settings import Settings

__all__ = ["add_arguments", "failures", "run", "run_script"]

_QUESTION = re.compile(r"[?？]")


def _groups(want: Any) -> list[list[str]]:
    if want and all(isinstance(w, list) for w in want):
        return [list(map(str, w)) for w in want]
    return [list(map(str, want))]


def failures(expected: Mapping[str, Any], actual: Mapping[str, Any]) -> list[str]:
    """What in ``actual`` (one output line) misses ``expected`` (one expectation line); [] when it holds.

    Keys: ``intent`` (a label or a list of acceptable ones), ``reply_contains`` (all), ``reply_any`` (one
    of, or a list of such groups), ``reply_lacks``, ``asks`` (a question mark in the reply or not),
    ``state`` (a subset), ``push_contains`` (or ``pushes_contain``) / ``push_any``, ``"error": true``; any other
    key must equal.
    """
    joined = "\n".join(actual.get("replies", []))
    pushes = " | ".join(p["text"] for p in actual.get("pushes", []))
    out: list[str] = []
    for key, want in expected.items():
        if key == "intent" and isinstance(want, list):
            if actual.get("intent") not in want:
                out.append(f"intent {actual.get('intent')!r} not in {want}")
        elif key in ("reply_contains", "push_contains", "pushes_contain"):
            text = joined if key == "reply_contains" else pushes
            out += [f"{key[:5]} lacks {piece!r}" for piece in want if piece not in text]
        elif key in ("reply_any", "push_any"):
            text = joined if key == "reply_any" else pushes
            out += [f"{key[:5]} has none of {group}" for group in _groups(want) if not any(p in text for p in group)]
        elif key == "reply_lacks":
            out += [f"reply has {piece!r}" for piece in want if piece in joined]
        elif key == "asks":
            if bool(_QUESTION.search(joined)) != bool(want):
                out.append("asks nothing" if want else "asks a question")
        elif key == "error":
            if want is True and "error" not in actual:
                out.append("no error line")
        elif key == "state":
            state = actual.get("state", {})
            out += [f"state.{k} = {state.get(k)!r}, want {v!r}" for k, v in want.items() if state.get(k) != v]
        elif actual.get(key) != want:
            out.append(f"{key} = {actual.get(key)!r}, want {want!r}")
    return out


def run_script(path: Path, data_dir: Path) -> list[dict[str, Any]]:
    """The output lines of one script, on a fresh embedded state in ``data_dir`` (weather from the fake)."""
    from bot.compose import core
    from bot.script import ScriptRunner
    from skills.reminders import run_due

    built = core(Settings.from_env({"DATA_DIR": str(data_dir), "WEATHER_FAKE": "true"}))
    try:
        runner = ScriptRunner(built.engine, due_pushes=lambda now: run_due(built.services, now))
        return list(runner.run_lines(path.read_text(encoding="utf-8").splitlines()))
    finally:
        built.services.db.dispose()


def _scripts(folder: Path) -> Iterator[Path]:
    yield from sorted(p for p in folder.glob("*.jsonl") if not p.name.endswith(".expected.jsonl"))


def _topic(name: str) -> str:
    return re.sub(r"^[a-z]?\d+_", "", name).split("_")[0]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--dir`` the scripts, ``--show`` every failing line."""
    parser.add_argument("--dir", default="tests/dialogues_blind", help="folder of NAME.jsonl + NAME.expected.jsonl")
    parser.add_argument("--show", action="store_true", help="print each failing line")


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Run every script of ``--dir`` and print the pass rate; 2 when the folder holds no scripts."""
    folder = Path(args.dir)
    scripts = list(_scripts(folder))
    if not scripts:
        print(json.dumps({"error": f"no scripts in {folder}"}, ensure_ascii=False))
        return 2
    passed, turns, turns_ok, llm_calls = 0, 0, 0, 0
    failed: list[str] = []
    by_topic: Counter[str] = Counter()
    topic_ok: Counter[str] = Counter()
    for script in scripts:
        expected = [json.loads(x) for x in script.with_name(script.stem + ".expected.jsonl")
                    .read_text(encoding="utf-8").splitlines() if x.strip()]
        lines = [x for x in script.read_text(encoding="utf-8").splitlines() if x.strip()]
        with tempfile.TemporaryDirectory() as tmp:
            outputs = run_script(script, Path(tmp))
        ok = len(outputs) == len(expected)
        for n, (want, got) in enumerate(zip(expected, outputs, strict=False), 1):
            missed = failures(want, got)
            turns += 1
            turns_ok += not missed
            llm_calls += int(got.get("llm_calls", 0))
            if missed:
                ok = False
                if args.show:
                    said = json.loads(lines[n - 1]) if n <= len(lines) else {}
                    print(f"{script.stem}:{n} said {said.get('text', said)!r}\n  wanted {want}\n  missed {missed}\n"
                          f"  got [{got.get('stage')} {got.get('intent')}] {' / '.join(got.get('replies', []))!r}")
        by_topic[_topic(script.stem)] += 1
        topic_ok[_topic(script.stem)] += ok
        passed += ok
        if not ok:
            failed.append(script.stem)
    report = {"dir": str(folder), "conversations": len(scripts), "passed": passed,
              "pass_rate": round(passed / len(scripts), 3), "turns": turns, "turns_passed": turns_ok,
              "turn_pass_rate": round(turns_ok / max(turns, 1), 3), "llm_calls": llm_calls,
              "by_topic": {t: f"{topic_ok[t]}/{n}" for t, n in sorted(by_topic.items())}, "failed": failed}
    print(json.dumps(report, ensure_ascii=False))
    return 0
