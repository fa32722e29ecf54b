"""``wxbot bench tokens``: router prompt tokens on real turns vs a naive baseline built in the same run.

Real turns: every dialogue script under ``tests/dialogues/`` runs through the engine (embedded, fake
weather, no model) and, before each typed message, the model summary sentence the router would get
is read from the user's context; then every sentence of the training data (``shared/data/train`` and
the project's own examples; never ``heldout/``) as a first message. For each, the router prompt is
built exactly as ``Router.route`` sends it in JSON-schema mode (messages plus response format).

Baseline per turn: a system prompt with the user's whole context as JSON, the user's last 20 messages
of the dialogue, the message, and every tool schema. Both sides are counted with the same documented
estimate (``runtime.llm.estimate_prompt_tokens``). Prints one JSON object: the largest router prompt,
percentiles, how many exceed the 400-token budget, how many messages were cut, and the ratio of our
total to the baseline's. Exits 0 when the largest prompt is within the budget and the ratio ≤ 1/3.
The fixed ten turns of the older bench (router and fallback agent sent over HTTP to a local fake)
are reported beside it under ``fixed``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.settings import Settings

__all__ = ["RealTurn", "add_arguments", "collect_dialogue_turns", "measure", "run"]

TARGET_RATIO = 1 / 3
_SYSTEM = "你是微信助手，可以调用工具完成用户的任何请求。用户的完整上下文如下：\n"


def _default_dialogues() -> Path:
    return Path(__file__).resolve().parents[2] / "tests" / "dialogues"


@dataclass(frozen=True)
class RealTurn:
    """One message as the router would see it, with what a naive prompt would have carried."""

    source: str
    text: str
    summary: str
    context_json: str
    history: tuple[tuple[str, str], ...] = ()


@dataclass
class _Recorder:
    """An engine wrapper that notes, before each typed message, the router's view of it."""

    engine: Any
    turns: list[RealTurn] = field(default_factory=list)
    history: dict[str, list[tuple[str, str]]] = field(default_factory=lambda: defaultdict(list))
    source: str = ""

    def handle(self, inbound: Any) -> Any:
        if inbound.text.strip():
            ctx = self.engine.peek(inbound.user)
            self.turns.append(RealTurn(self.source, inbound.text, self.engine.model_summary(ctx, inbound.at).text,
                                       ctx.model_dump_json(), tuple(self.history[inbound.user][-20:])))
        result = self.engine.handle(inbound)
        if inbound.text.strip():
            self.history[inbound.user].append(("user", inbound.text))
        self.history[inbound.user].extend(("assistant", r) for r in result.replies)
        return result


    def show(self, user: str, intent: str, result: Any, *, at: Any) -> None:
        self.engine.show(user, intent, result, at=at)


def _scripts(directory: Path) -> list[Path]:
    return sorted(p for p in directory.glob("*.jsonl") if not p.name.endswith(".expected.jsonl"))


def collect_dialogue_turns(engine: Any, directory: Path) -> list[RealTurn]:
    """Run every dialogue script in ``directory`` through ``engine``; the router's view of each message."""
    from bot.script import ScriptRunner

    recorder = _Recorder(engine)
    for script in _scripts(directory):
        recorder.source = f"dialogue:{script.stem}"
        list(ScriptRunner(recorder).run_lines(script.read_text(encoding="utf-8").splitlines()))
    return recorder.turns


def _training_turns(engine: Any, train_dir: Path) -> Iterator[RealTurn]:
    from runtime.intent.corpus import load_split
    from runtime.summary import build_model_summary

    fresh = engine.peek("bench-tokens-fresh-user")
    summary, context_json = build_model_summary(fresh, engine.registry.task_name).text, fresh.model_dump_json()
    train, dev = load_split(train_dir)
    for example in [*train, *dev]:
        yield RealTurn(f"train:{example.source.split(':')[0]}", example.text, summary, context_json)


def _percentile(values: Sequence[int], share: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0


def measure(turns: Sequence[RealTurn], router: Any, tool_schemas: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Router prompt figures over ``turns`` and the ratio to the naive baseline. Pure but for the estimate."""
    from runtime.llm import estimate_prompt_tokens
    from runtime.llm.routing import PROMPT_TOKEN_BUDGET

    ours: list[int] = []
    baseline_total = 0
    cut = summary_dropped = over = 0
    by_source: dict[str, list[int]] = defaultdict(list)
    baseline_cache: dict[tuple[str, tuple[tuple[str, str], ...]], int] = {}
    schema_tokens = estimate_prompt_tokens([], tool_schemas) - estimate_prompt_tokens([])
    for turn in turns:
        prompt = router.prompt(turn.text, turn.summary)
        ours.append(prompt.tokens)
        by_source[turn.source.split(":")[0]].append(prompt.tokens)
        cut += prompt.message_cut
        summary_dropped += not prompt.summary_kept
        over += prompt.tokens > PROMPT_TOKEN_BUDGET
        key = (turn.context_json, turn.history)
        if key not in baseline_cache:
            messages = [{"role": "system", "content": _SYSTEM + turn.context_json},
                        *({"role": role, "content": text} for role, text in turn.history)]
            baseline_cache[key] = estimate_prompt_tokens(messages) + schema_tokens
        baseline_total += baseline_cache[key] + estimate_prompt_tokens([{"role": "user", "content": turn.text}]) - 3
    ours_total = sum(ours)
    ratio = ours_total / baseline_total if baseline_total else 0.0
    return {
        "turns": len(ours), "by_source": {k: {"turns": len(v), "max": max(v)} for k, v in sorted(by_source.items())},
        "budget": PROMPT_TOKEN_BUDGET, "max": max(ours, default=0), "p50": _percentile(ours, 0.5),
        "p95": _percentile(ours, 0.95), "over_budget": over, "messages_cut": cut,
        "summaries_dropped": summary_dropped, "longest_message_chars": max((len(t.text) for t in turns), default=0),
        "ours_total": ours_total, "baseline_total": baseline_total, "ratio": round(ratio, 4),
        "target_ratio": round(TARGET_RATIO, 4), "estimated": True,
    }


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--pretty``, ``--summary``, and where the real turns come from."""
    parser.add_argument("--pretty", action="store_true", help="indent the JSON output")
    parser.add_argument("--summary", action="store_true", help="leave out the per-source and fixed-turn figures")
    parser.add_argument("--dialogues", type=Path, default=None, help="folder of dialogue scripts (tests/dialogues)")
    parser.add_argument("--train-dir", type=Path, default=None, help="training data folder (shared/data/train)")
    parser.add_argument("--no-training", action="store_true", help="dialogue turns only")


def _schemas_only(action: Any, args: Any) -> Any:
    """The runner of every tool here: the bench reads the tools' schemas and never runs one."""
    raise AssertionError("wxbot bench tokens runs no tool")


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Measure and print the JSON report; 0 when the largest router prompt fits and the ratio ≤ 1/3."""
    from bot.compose import core
    from runtime.intent.corpus import DEFAULT_DATA_DIR
    from runtime.llm import NoLLM
    from runtime.llm.bench import run_bench
    from runtime.llm.routing import Router, labels_from_registry
    from runtime.llm.tools import tools_from_skills

    dialogues = getattr(args, "dialogues", None) or _default_dialogues()
    train_dir = getattr(args, "train_dir", None) or DEFAULT_DATA_DIR
    with tempfile.TemporaryDirectory(prefix="wxbot-bench-tokens-") as tmp:
        local = Settings(_env_file=None, data_dir=Path(tmp), weather_fake=True)  # type: ignore[call-arg]
        built = core(local)
        try:
            engine = built.engine
            turns = collect_dialogue_turns(engine, dialogues) if dialogues.is_dir() else []
            if not getattr(args, "no_training", False) and train_dir.is_dir():
                turns.extend(_training_turns(engine, train_dir))
            registry = engine.registry
            router = Router(NoLLM(), labels_from_registry(registry.skills))
            schemas = [t.schema() for t in tools_from_skills(registry.skills, _schemas_only,
                                                             registry.read_only_intents())]
            report = measure(turns, router, schemas)
        finally:
            built.services.db.dispose()
    report["sources"] = {"dialogues": str(dialogues) if dialogues.is_dir() else None,
                         "training": str(train_dir) if train_dir.is_dir() and not getattr(args, "no_training", False)
                         else None}
    report["within_target"] = bool(report["turns"]) and report["max"] <= report["budget"] \
        and report["ratio"] <= TARGET_RATIO
    if not getattr(args, "summary", False):
        report["fixed"] = run_bench(registry.skills).model_dump()
    else:
        report.pop("by_source")
    print(json.dumps(report, ensure_ascii=False, indent=2 if getattr(args, "pretty", False) else None))
    return 0 if report["within_target"] else 1
