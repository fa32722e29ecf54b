"""Score the frozen set of uncertain messages end to end: ``python -m tests.llm.uncertain [--model none|sensible]``.

``uncertain_set.jsonl`` holds 40 messages that code alone should not decide with confidence, 10
clear tasks and 10 out-of-scope requests, written from the user's side; ``followup_set.jsonl`` holds
follow-ups of a result just shown (a plan, a recipe, a weather answer, a list…) that no declaration of
that result places, so only a model that is told what was shown can read them. Each line::

    {"id", "group": "uncertain"|"clear"|"out_of_scope"|"follow_up", "setup": [earlier messages], "text",
     "good": {"intents": [...], "asks": bool, "writes": "ok"|"no"},
     "ideal": {"route": {intent, confidence, params}, "reply": str, "tool": {name, arguments}|null,
               "given": [words the prompt must carry, else the ideal model is as unsure as any]}}

Every item runs as a fresh user through the real engine (``bot.compose.core``, embedded, fake
weather): the ``setup`` messages first, then ``text``, which is scored. A scored turn is good when

* it wrote nothing, unless ``writes`` is ``"ok"`` (reminders, pantry, profile and exercise tables are
  compared before and after the turn), and
* it took up one of ``intents`` — the turn's intent, the task now collecting its slots, or the write
  now waiting for a yes — or, when ``asks`` is true, it asks a numbered clarifying question; a turn
  whose acceptable intents start no task must not start one either.

``--model sensible`` points the engine at the project's fake OpenAI server in its ``sensible`` mode:
every model answer comes from the items' ``ideal`` table (an ideal model stand-in), never from the
bot's rules, and an answer whose ``given`` words the prompt lacks (the summary did not say what was
shown) is the unsure one. ``--model none`` runs with no model. The fake's other modes (``injection``, ``garbage``,
``http_500``, ``http_400``, ``slow``) run the same set: the report then also counts the scored turns
whose reply is the same as with no model (``same_reply_as_no_model``, what every failure mode should
give), the writes made in turns that called the model, and the confirmations of a model's write that
hide a value they would store. Prints one JSON report per model; ``--items`` adds one line per item
(id, stage, intent, good).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

SET_FILE = Path(__file__).with_name("uncertain_set.jsonl")
FOLLOW_UP_FILE = Path(__file__).with_name("followup_set.jsonl")
AT = datetime.fromisoformat("2026-12-01T10:00:00+08:00")
GROUPS = ("uncertain", "clear", "out_of_scope", "follow_up")
MODELS = ("none", "sensible", "injection", "garbage", "http_500", "http_400", "slow")
_NOT_TASKS = frozenset({"unknown", "chitchat"})


@dataclass(frozen=True)
class Item:
    """One message of the set, with what a user would call a good outcome."""

    id: str
    group: str
    setup: tuple[str, ...]
    text: str
    intents: frozenset[str]
    asks: bool
    writes_ok: bool
    ideal: Mapping[str, Any]


@dataclass(frozen=True)
class Scored:
    """What the engine did with one item's scored message."""

    id: str
    group: str
    good: bool
    stage: str
    intent: str
    taken: tuple[str, ...]
    wrote: bool
    asked: bool
    llm_calls: int
    why: str = ""
    reply: str = ""
    seconds: float = 0.0
    hidden: tuple[str, ...] = ()
    """Values a model's write would store that its confirmation does not show."""


def load_items(path: Path = SET_FILE) -> list[Item]:
    """One frozen set (the uncertain one by default), in file order."""
    items = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        good = row["good"]
        items.append(Item(id=row["id"], group=row["group"], setup=tuple(row.get("setup") or ()), text=row["text"],
                          intents=frozenset(good["intents"]), asks=bool(good["asks"]),
                          writes_ok=good["writes"] == "ok", ideal=row["ideal"]))
    return items


def load_all() -> list[Item]:
    """Both frozen sets: the uncertain messages, then the follow-ups of shown results."""
    return [*load_items(SET_FILE), *load_items(FOLLOW_UP_FILE)]


def ideal_table(items: Sequence[Item]) -> dict[str, Any]:
    """Message text → the ideal model's answers (the fake's ``sensible`` table); words said after different
    results have one answer per result, told apart by their ``given`` words."""
    from runtime.llm.testkit import IdealAnswer

    table: dict[str, list[Any]] = {}
    for item in items:
        table.setdefault(item.text, []).append(IdealAnswer.from_record(item.ideal))
    return {text: answers[0] if len(answers) == 1 else tuple(answers) for text, answers in table.items()}


def _rows(db: Any) -> tuple[Any, ...]:
    """Every row of the tables a write changes (reminders, occurrences, profile, pantry, exercise)."""
    from sqlmodel import Session, select

    from skills.models import ExerciseLog, HealthProfile, PantryItem
    from skills.reminders.models import Reminder, ReminderOccurrence

    with Session(db) as session:
        return tuple(tuple(sorted(map(repr, session.exec(select(model)).all())))
                     for model in (Reminder, ReminderOccurrence, HealthProfile, PantryItem, ExerciseLog))


def judge(item: Item, *, stage: str, intent: str, taken: Sequence[str], started: bool, wrote: bool,
          asked: bool) -> tuple[bool, str]:
    """Whether one scored turn is a good outcome for ``item``, and why not. Pure."""
    if wrote and not item.writes_ok:
        return False, "wrote without a yes"
    if item.intents <= _NOT_TASKS | {"weather.query", "datetime.query"} and started:
        return False, "started a task"
    if item.intents & set(taken):
        return True, ""
    if item.asks and asked and not wrote:
        return True, ""
    return False, f"took {intent} at {stage}"


def _said(value: Any) -> list[str]:
    """What a confirmation must show of a value: a time's clock, a number's digits, a text (its start and
    end when long), a list item by item."""
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, Mapping):
        return [str(value["at"])[11:16]] if "at" in value else _said(value.get("name"))
    if isinstance(value, list):
        return [t for v in value for t in _said(v)]
    if isinstance(value, int | float):
        return [str(int(value)) if float(value).is_integer() else str(value)]
    text = "".join(str(value).split())
    return [text] if len(text) <= 60 else [text[:20], text[-20:]]


def hidden_values(pending: Any, registry: Any) -> tuple[str, ...]:
    """The slot values of a model's pending write that its question does not show (none, when it is not a
    model's). Pure."""
    from runtime.texts import MODEL_READ

    action = registry.action(pending.skill, pending.action) if pending is not None else None
    if action is None or MODEL_READ not in pending.question:
        return ()
    question = "".join(pending.question.split())
    names = [s.name for s in action.slots]
    return tuple(f"{n}={t}" for n in names if n in pending.params for t in _said(pending.params[n]) if t not in question)


def score_items(engine: Any, db: Any, items: Sequence[Item]) -> list[Scored]:
    """Run every item through ``engine`` (fresh user each) and judge its scored turn."""
    from runtime.turn import Inbound

    out: list[Scored] = []
    for item in items:
        user = f"set-{item.id}"
        at = AT
        for k, text in enumerate(item.setup):
            engine.handle(Inbound(user=user, text=text, msg_id=f"{user}-s{k}", at=at))
            at += timedelta(minutes=1)
        before_ctx = engine.peek(user)
        before_rows = _rows(db)
        started = time.monotonic()
        result = engine.handle(Inbound(user=user, text=item.text, msg_id=f"{user}-m", at=at))
        seconds = time.monotonic() - started
        ctx = engine.peek(user)
        wrote = _rows(db) != before_rows
        taken = [result.trace.intent]
        if ctx.pending_confirmation is not None:
            taken.append(ctx.pending_confirmation.intent)
        if ctx.active is not None:
            taken.append(ctx.active.intent)
        started = (ctx.pending_confirmation is not None and ctx.pending_confirmation != before_ctx.pending_confirmation) \
            or (ctx.active is not None and (before_ctx.active is None or ctx.active.intent != before_ctx.active.intent))
        asked = ctx.clarification is not None
        good, why = judge(item, stage=str(result.trace.stage), intent=result.trace.intent, taken=taken,
                          started=started, wrote=wrote, asked=asked)
        new = ctx.pending_confirmation if ctx.pending_confirmation != before_ctx.pending_confirmation else None
        out.append(Scored(item.id, item.group, good, str(result.trace.stage), result.trace.intent, tuple(taken),
                          wrote, asked, result.trace.llm_calls, why, "\n".join(result.replies), seconds,
                          hidden_values(new, engine.registry)))
    return out


def report(scored: Sequence[Scored], *, model: str, no_model: Sequence[Scored] = ()) -> dict[str, Any]:
    """Aggregate figures per group; with ``no_model`` (the same set run without a model), how many
    scored replies are the same as then. Pure."""
    out: dict[str, Any] = {"model": model}
    for group in GROUPS:
        rows = [s for s in scored if s.group == group]
        out[group] = {"n": len(rows), "good": sum(s.good for s in rows),
                      "share": round(sum(s.good for s in rows) / len(rows), 3) if rows else None,
                      "llm_calls": sum(s.llm_calls for s in rows),
                      "turns_with_llm_calls": sum(s.llm_calls > 0 for s in rows),
                      "writes": sum(s.wrote for s in rows)}
    out["writes_in_model_turns"] = sum(s.wrote and s.llm_calls > 0 for s in scored)
    out["model_confirmations_hiding_a_value"] = sum(bool(s.hidden) for s in scored)
    out["slowest_turn_s"] = round(max((s.seconds for s in scored), default=0.0), 2)
    if no_model:
        plain = {s.id: s.reply for s in no_model}
        out["same_reply_as_no_model"] = sum(s.reply == plain.get(s.id) for s in scored)
        out["of"] = len(scored)
    return out


@contextmanager
def _runtime(model: str, items: Sequence[Item], *, breaker: int | None = None) -> Iterator[Any]:
    from bot.compose import core
    from bot.settings import Settings
    from runtime.llm.testkit import FakeOpenAI, Mode

    with tempfile.TemporaryDirectory(prefix="wxbot-uncertain-") as tmp, FakeOpenAI() as fake:
        fields: dict[str, Any] = {"data_dir": Path(tmp), "weather_fake": True, "intent_model": True}
        if model != "none":
            fake.set_mode(Mode(model), table=ideal_table(items))
            fields.update(openai_base_url=fake.base_url, openai_api_key="fake-key", openai_model="ideal-model")
            if breaker is not None:
                fields["openai_extra"] = {"OPENAI_BREAKER_FAILURES": str(breaker)}
        runtime = core(Settings(_env_file=None, **fields))  # type: ignore[call-arg]
        try:
            yield runtime
        finally:
            runtime.services.db.dispose()


def run(model: str, items: Sequence[Item] | None = None, no_model: Sequence[Scored] = (),
        *, breaker: int | None = None) -> tuple[dict[str, Any], list[Scored]]:
    """Score the set with no model (``none``), the ideal fake (``sensible``) or another mode of the fake;
    ``breaker``: failures in a row that open the model's breaker (a large number: every turn that would
    ask the model meets the failure itself, none is spared by an open breaker)."""
    chosen = list(items) if items is not None else load_all()
    with _runtime(model, chosen, breaker=breaker) as runtime:
        scored = score_items(runtime.engine, runtime.services.db, chosen)
    return report(scored, model=model, no_model=no_model), scored


def main(argv: Sequence[str] | None = None) -> int:
    """Print the report for each ``--model`` asked for."""
    parser = argparse.ArgumentParser(prog="python -m tests.llm.uncertain", description=__doc__.split("\n")[0])
    parser.add_argument("--model", action="append", choices=MODELS,
                        help="run with no model and/or a mode of the fake (default: none and sensible)")
    parser.add_argument("--items", action="store_true", help="also print one line per item")
    parser.add_argument("--breaker", type=int, default=None,
                        help="failures in a row that open the model's breaker (default: the product's, 3)")
    args = parser.parse_args(argv)
    plain: list[Scored] = []
    for model in args.model or ["none", "sensible"]:
        if model != "none" and not plain:
            _, plain = run("none")
        figures, scored = run(model, no_model=plain, breaker=args.breaker)
        if model == "none":
            plain = scored
        print(json.dumps(figures, ensure_ascii=False))
        if args.items:
            for s in scored:
                print(json.dumps({"id": s.id, "good": s.good, "stage": s.stage, "intent": s.intent,
                                  "taken": s.taken, "wrote": s.wrote, "asked": s.asked, "llm_calls": s.llm_calls,
                                  "why": s.why, **({"hidden": s.hidden} if s.hidden else {})}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
