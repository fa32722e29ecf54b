"""Training corpus: public data mapped onto our labels, plus the project's own examples.

Pure and deterministic: the same files and seed always give the same train/dev split.
Used by the training script and by the tests that check the shipped model's dev metrics.
"""

from __future__ import annotations

import json
import random
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ._features import normalize
from .synth import OWN_EXAMPLES


def _find_train_dir() -> Path:
    """``shared/data/train`` beside the checkout or one of its parent folders (first found)."""
    parents = Path(__file__).resolve().parents
    for parent in parents:
        candidate = parent / "shared" / "data" / "train"
        if candidate.is_dir():
            return candidate
    return parents[3] / "shared" / "data" / "train"


DEFAULT_DATA_DIR = _find_train_dir()
SEED = 20261201
DEV_SHARE = 0.2
OUT_OF_SCOPE_CAP = 250
"""Most rows kept per out-of-scope source label (CAIS has 7,831 music requests; we need variety, not bulk)."""

_CANCEL = re.compile(r"取消|删除|删掉|删了|清空|撤销|不要.*提醒|别.*提醒")
_LIST = re.compile(r"查看|查一下|有哪些|有什么|哪些|日程是|待办|列出|看看")


@dataclass(frozen=True, slots=True)
class Example:
    """One labelled sentence; ``source`` is ``file:original-label`` (``own:<label>`` for ours)."""

    text: str
    label: str
    source: str


def reminder_label(text: str) -> str:
    """Split a public 'schedule/Remind/alarm' sentence into create, list or cancel by its verbs."""
    if _CANCEL.search(text):
        return "reminder.cancel"
    if _LIST.search(text):
        return "reminder.list"
    return "reminder.create"


def map_smp(domain: str, text: str) -> str:
    """SMP2017/2019/2020 domain -> our label (everything not ours is ``unknown``)."""
    if domain == "weather":
        return "weather.query"
    if domain == "datetime":
        return "datetime.query"
    if domain in {"schedule", "clock", "alarm"}:
        return reminder_label(text)
    if domain == "cookbook":
        return "recipe.query"
    if domain == "chat":
        return "chitchat"
    return "unknown"


def map_cais(intent: str, text: str) -> str:
    """CAIS intent -> our label."""
    mapping = {"GetWeather": "weather.query", "GetDate": "datetime.query", "Chat": "chitchat"}
    if intent == "Remind":
        return reminder_label(text)
    return mapping.get(intent, "unknown")


def map_dialogflow(intent: str) -> str:
    """Dialogflow small talk -> chitchat, its weather intents -> weather.query."""
    if intent.startswith("smalltalk."):
        return "chitchat"
    if intent.startswith("weather"):
        return "weather.query"
    return "unknown"


def _rows(path: Path) -> Iterator[dict[str, object]]:
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def public_examples(data_dir: Path) -> list[Example]:
    """Every public training sentence with our label (not yet deduplicated or capped)."""
    out: list[Example] = []
    for name in ("smp2017", "smp2019", "smp2020"):
        for row in _rows(data_dir / f"{name}.jsonl"):
            text, domain = str(row["text"]), str(row.get("label") or row.get("domain"))
            out.append(Example(text, map_smp(domain, text), f"{name}:{domain}"))
    for row in _rows(data_dir / "cais.jsonl"):
        text, intent = str(row["text"]), str(row["intent"])
        out.append(Example(text, map_cais(intent, text), f"cais:{intent}"))
    for row in _rows(data_dir / "kuake_qic.jsonl"):
        out.append(Example(str(row["text"]), "unknown", f"kuake:{row['label']}"))
    for row in _rows(data_dir / "dialogflow_zh.jsonl"):
        intent = str(row["intent"])
        out.append(Example(str(row["text"]), map_dialogflow(intent), f"dialogflow:{intent.split('.')[0]}"))
    return out


def own_examples(path: Path = OWN_EXAMPLES) -> list[Example]:
    """The project's own template-generated examples."""
    return [Example(str(r["text"]), str(r["label"]), f"own:{r['label']}") for r in _rows(path)]


def _dedupe_and_cap(examples: list[Example], seed: int) -> list[Example]:
    seen: set[str] = set()
    groups: dict[str, list[Example]] = defaultdict(list)
    for ex in examples:
        key = normalize(ex.text)
        if not key or key in seen:
            continue
        seen.add(key)
        groups[ex.source].append(ex)
    kept: list[Example] = []
    for source in sorted(groups):
        group = groups[source]
        if group[0].label == "unknown" and not source.startswith("own:") and len(group) > OUT_OF_SCOPE_CAP:
            group = random.Random(f"{seed}:{source}").sample(group, OUT_OF_SCOPE_CAP)
        kept.extend(group)
    return kept


def load_split(data_dir: Path = DEFAULT_DATA_DIR, seed: int = SEED) -> tuple[list[Example], list[Example]]:
    """Deduplicated, capped corpus split into (train, dev), stratified by our label and by public/own.

    Each stratum (and each capped source) is shuffled with its own seed, so adding examples to one
    label leaves the split of every other one as it was and dev figures stay comparable.
    """
    pool = _dedupe_and_cap(public_examples(data_dir) + own_examples(), seed)
    strata: dict[tuple[str, bool], list[Example]] = defaultdict(list)
    for ex in pool:
        strata[(ex.label, ex.source.startswith("own:"))].append(ex)
    train: list[Example] = []
    dev: list[Example] = []
    for label, own in sorted(strata):
        group = strata[(label, own)]
        random.Random(f"{seed}:{label}:{'own' if own else 'public'}").shuffle(group)
        cut = max(1, round(len(group) * DEV_SHARE))
        dev.extend(group[:cut])
        train.extend(group[cut:])
    return train, dev
