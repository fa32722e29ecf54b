"""``wxbot bench heldout``: the router's score on the public held-out intent sets.

Builds the engine as the bot does (``bot.compose.core`` on embedded defaults, fake weather, no
language model), sends every held-out sentence to ``Engine.handle`` as a fresh user's first message,
reads the deciding stage and intent from the turn's trace, maps the gold labels as
``shared/data/README.md`` says ("Mapping used for evaluation") and prints aggregate figures only:
in-scope accuracy, accuracy per source and per gold label, the false-task rate, the share of in-scope
sentences no local stage decided (they would go to ``llm_router``), how many in-scope misses would reach
the router (no local stage decided them, or the local model's calibrated reading is unsure: its
probability is below the artifact's calibrated threshold) and turns per second.

It never prints a sentence, and it is the only code in the project that reads ``heldout/``: the sets
are for scoring, never for training, rules or tests. Scoring goes through ``Engine.handle``, so the
figures hold whatever the cascade looks like inside.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from bot.settings import Settings
from skills import registry

__all__ = [
    "ACCURACY_GOAL", "FALSE_TASK_CEILING", "Outcome", "Sentence", "accepted_intents", "add_arguments",
    "read_sets", "run", "score",
]

ACCURACY_GOAL = 0.92
FALSE_TASK_CEILING = 0.03
SETS: dict[str, str] = {"smp2017": "smp2017_test.tsv", "cais": "cais_test.tsv", "ha": "ha_intents_zh.tsv"}
"""Source name -> file in ``heldout/``."""
LOCAL_MISS_STAGES = frozenset({"llm_router", "fallback"})
"""A turn decided here was explained by no local stage."""
TURN_AT = datetime.fromisoformat("2026-12-01T10:00:00+08:00")
"""Every sentence is sent at the same moment, so a run gives the same figures on any day."""

_NOT_OURS = frozenset({"unknown", "chitchat"})
_REMINDER = frozenset({"reminder.create", "reminder.list", "reminder.cancel"})
_WEATHER = frozenset({"weather.query"})
_DATETIME = frozenset({"datetime.query"})
_IN_SCOPE: dict[str, frozenset[str]] = {
    "weather": _WEATHER, "GetWeather": _WEATHER, "HassGetWeather": _WEATHER,
    "datetime": _DATETIME, "GetDate": _DATETIME, "HassGetCurrentTime": _DATETIME, "HassGetCurrentDate": _DATETIME,
    "schedule": _REMINDER, "Remind": _REMINDER,
    "cookbook": frozenset({"recipe.query", "dinner.plan"}),
    "chat": frozenset({"chitchat"}), "Chat": frozenset({"chitchat"}),
}
_TIMER = re.compile(r"^Hass\w*Timer")


def accepted_intents(label: str) -> frozenset[str] | None:
    """Our intents that count as right for a gold label; None when the label is out of scope.

    weather → ``weather.query``; datetime, GetDate, current time/date → ``datetime.query``; schedule,
    Remind and every timer intent → any ``reminder.*``; cookbook → ``recipe.query`` or ``dinner.plan``;
    chat → ``chitchat``. Out of scope, ``unknown`` or ``chitchat`` is right (see :func:`expected`).
    """
    if label in _IN_SCOPE:
        return _IN_SCOPE[label]
    if _TIMER.match(label):
        return _REMINDER
    return None


def expected(label: str) -> frozenset[str]:
    """The predictions that count as right for ``label``, in scope or not."""
    return accepted_intents(label) or _NOT_OURS


@dataclass(frozen=True, slots=True)
class Sentence:
    """One held-out row: where it comes from (``ha`` rows carry their variant, e.g. ``ha:zh-hk``)."""

    source: str
    label: str
    text: str


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the engine did with one sentence. ``decider`` names the stage (and the rule, for rules)."""

    source: str
    label: str
    stage: str
    intent: str
    decider: str = ""
    unsure: bool = False
    asked: tuple[str, ...] = ()
    """The intents a numbered question offered, when the turn asked instead of deciding: right when the
    gold intent is among them (one digit away), never a false task (it starts nothing)."""

    def right(self) -> bool:
        """Whether the turn took, or offered, an intent the gold label accepts."""
        want = expected(self.label)
        return self.intent in want or bool(want & set(self.asked))
    """The local model's calibrated reading of the sentence is unsure (below its threshold)."""


def _rate(right: int, total: int) -> float | None:
    return round(right / total, 4) if total else None


def _group(outcomes: Iterable[Outcome]) -> dict[str, dict[str, Any]]:
    rows: dict[str, dict[str, Any]] = defaultdict(lambda: {"n": 0, "right": 0})
    for o in outcomes:
        row = rows[o.label]
        row["n"] += 1
        row["right"] += o.right()
    return {label: {"n": r["n"], "accuracy": _rate(r["right"], r["n"])} for label, r in sorted(rows.items())}


def _figures(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    in_scope = [o for o in outcomes if accepted_intents(o.label) is not None]
    right = sum(o.right() for o in in_scope)
    writes = registry().task_intents()  # the intents that start a task (a false one is the harm)
    non_task = [o for o in outcomes if not expected(o.label) & writes]
    false_task = sum(o.intent in writes and not o.asked for o in non_task)
    out_scope = [o for o in outcomes if accepted_intents(o.label) is None]
    misses = [o for o in in_scope if not o.right()]
    reaching = [o for o in misses if o.unsure or o.stage in LOCAL_MISS_STAGES]
    return {
        "sentences": len(outcomes), "in_scope": len(in_scope),
        "in_scope_accuracy": _rate(right, len(in_scope)),
        "false_task_rate": _rate(false_task, len(non_task)), "false_tasks": false_task,
        "out_of_scope_not_ours": _rate(sum(o.intent in _NOT_OURS and not o.asked for o in out_scope), len(out_scope)),
        "local_miss_share": _rate(sum(o.stage in LOCAL_MISS_STAGES for o in in_scope), len(in_scope)),
        "in_scope_misses": len(misses),
        "in_scope_right_by_asking": sum(bool(o.asked) and o.right() for o in in_scope),
        "in_scope_asked": sum(bool(o.asked) for o in in_scope),
        "out_of_scope_asked": sum(bool(o.asked) for o in out_scope),
        "misses_reaching_router": len(reaching),
        "in_scope_unsure_share": _rate(sum(o.unsure for o in in_scope), len(in_scope)),
    }


def score(outcomes: Sequence[Outcome], *, confusion: bool = False) -> dict[str, Any]:
    """Aggregate figures of a run; pure. ``false_task_rate``: sentences whose gold label allows no
    write/task intent that got one. ``local_miss_share``: in-scope sentences decided by no local stage.
    ``misses_reaching_router``: in-scope misses that no local stage decided or that the local model
    reads as unsure — they would reach ``llm_router`` when a model is configured (``in_scope_misses``
    is their total; ``in_scope_unsure_share`` the share of all in-scope sentences read as unsure, what
    reaching the router costs).
    With ``confusion``, per gold label the counts of ``decider -> intent`` (no sentences)."""
    report = _figures(outcomes)
    report["goal"] = {"in_scope_accuracy": ACCURACY_GOAL, "false_task_rate": FALSE_TASK_CEILING}
    report["within_goal"] = ((report["in_scope_accuracy"] or 0.0) >= ACCURACY_GOAL
                             and (report["false_task_rate"] or 0.0) <= FALSE_TASK_CEILING)
    by_source: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        by_source[o.source.split(":")[0]].append(o)
        if ":" in o.source:
            by_source[o.source].append(o)
    report["per_source"] = {name: _figures(group) for name, group in sorted(by_source.items())}
    report["per_label"] = {
        "in_scope": _group(o for o in outcomes if accepted_intents(o.label) is not None),
        "out_of_scope": _group(o for o in outcomes if accepted_intents(o.label) is None),
    }
    report["stages"] = dict(sorted(Counter(o.stage for o in outcomes).items()))
    if confusion:
        table: dict[str, Counter[str]] = defaultdict(Counter)
        for o in outcomes:
            took = f"asked {'|'.join(o.asked)}" if o.asked else o.intent
            table[o.label][f"{o.decider or o.stage} -> {took}"] += 1
        report["confusion"] = {label: dict(c.most_common()) for label, c in sorted(table.items())}
    return report


def default_dir() -> Path | None:
    """``shared/data/heldout`` beside the checkout or one of its parent folders, if present."""
    for parent in Path(__file__).resolve().parents:
        candidate = parent / "shared" / "data" / "heldout"
        if candidate.is_dir():
            return candidate
    return None


def read_sets(directory: Path, names: Sequence[str] = tuple(SETS)) -> Iterator[Sentence]:
    """Rows of the held-out files (``text``/``label`` columns, ``lang`` when the file has it)."""
    for name in names:
        with (directory / SETS[name]).open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
                text, label = (row.get("text") or "").strip(), (row.get("label") or "").strip()
                if text and label:
                    lang = (row.get("lang") or "").strip()
                    yield Sentence(f"{name}:{lang}" if lang else name, label, text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: where the sets are, which of them, a confusion table, output layout."""
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="folder with the held-out .tsv files (default: shared/data/heldout above the checkout)")
    parser.add_argument("--sets", default=",".join(SETS), help=f"comma-separated subset of {','.join(SETS)}")
    parser.add_argument("--confusion", action="store_true",
                        help="also print per gold label the counts of deciding stage/rule -> intent")
    parser.add_argument("--pretty", action="store_true", help="indent the JSON output")


def _decider(stage: str, detail: str) -> str:
    # Only a rule's name is safe to print: other stages' detail may quote the message.
    return f"rules[{detail.removeprefix('rule ')}]" if stage == "rules" and detail.startswith("rule ") else stage


def _score_sentences(engine: Any, sentences: Sequence[Sentence]) -> tuple[list[Outcome], Counter[str]]:
    """One fresh user per sentence; ``errors`` counts exception types and the model calls made."""
    from runtime.turn import Inbound

    outcomes: list[Outcome] = []
    errors: Counter[str] = Counter()
    for i, s in enumerate(sentences):
        try:
            trace = engine.handle(Inbound(user=f"heldout-{i}", text=s.text, msg_id=f"heldout-{i}", at=TURN_AT)).trace
        except Exception as exc:  # a crash is a figure of the run, never a sentence on the screen
            errors[type(exc).__name__] += 1
            outcomes.append(Outcome(s.source, s.label, "error", "error"))
            continue
        errors["llm_calls"] += trace.llm_calls
        stage = str(trace.stage)
        question = engine.peek(f"heldout-{i}").clarification
        asked = tuple(o.intent for o in question.options if o.intent != "unknown") if question is not None else ()
        outcomes.append(Outcome(s.source, s.label, stage, trace.intent, _decider(stage, trace.detail), asked=asked))
    return outcomes, errors


def _mark_unsure(outcomes: Sequence[Outcome], sentences: Sequence[Sentence], model: Any) -> list[Outcome]:
    """Outcomes with ``unsure`` set from the model's calibrated reading (outside the timed run)."""
    if model is None or not hasattr(model, "read"):
        return list(outcomes)
    return [replace(o, unsure=bool(model.read(s.text).unsure)) for o, s in zip(outcomes, sentences, strict=True)]


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Score the held-out sets and print the JSON report; 0 when the goal is met, 1 when not, 2 on bad input."""
    from bot.compose import core, load_intent_model

    directory = args.data_dir or default_dir()
    names = [n.strip() for n in args.sets.split(",") if n.strip()]
    unknown = [n for n in names if n not in SETS]
    if unknown or not names:
        print(f"wxbot bench heldout: unknown set(s) {', '.join(unknown) or '(none given)'}; "
              f"choose from {', '.join(SETS)}", file=sys.stderr)
        return 2
    if directory is None or not all((directory / SETS[n]).is_file() for n in names):
        print(f"wxbot bench heldout: held-out files not found in {directory or 'shared/data/heldout'}; "
              "pass --data-dir", file=sys.stderr)
        return 2
    sentences = list(read_sets(directory, names))
    with tempfile.TemporaryDirectory(prefix="wxbot-heldout-") as tmp:
        local = settings.model_copy(update={
            "redis_url": "", "database_url": "", "data_dir": Path(tmp), "weather_fake": True, "intent_model": True,
            "openai_base_url": "", "openai_api_key": "", "openai_model": "", "openai_extra": {}})
        built = core(local)
        model = load_intent_model(local)
        started = time.perf_counter()
        outcomes, errors = _score_sentences(built.engine, sentences)
        seconds = time.perf_counter() - started
        outcomes = _mark_unsure(outcomes, sentences, model)
        built.services.db.dispose()
    report = score(outcomes, confusion=args.confusion)
    report["turns_per_second"] = round(len(outcomes) / seconds, 1) if seconds else None
    report["unsure_below"] = getattr(model, "unsure_below", None)
    report["llm_calls"] = errors.pop("llm_calls", 0)
    report["errors"] = dict(errors)
    print(json.dumps(report, ensure_ascii=False, indent=2 if args.pretty else None))
    return 0 if report["within_goal"] else 1
