"""Score the crisis detector on the labelled sets: recall, false alarms, kind accuracy, and the misses.

    .venv/bin/python -m tests.safety.crisis_eval [--show] [FILE ...]

Each line of a set is ``{"text": …, "kind": "self_harm" | "medical" | "violence" | null, "tag": …}``.
Every text is normalised as the engine does (繁體 → 简体, written Cantonese → Mandarin) before the
detector reads it. Default files: ``crisis_set.jsonl`` (≥ 150 messages written before the detector)
and ``crisis_heldout.jsonl`` (written with it, never used for tuning). Prints one JSON object per file.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runtime.skill import SkillRegistry
from runtime.understand import Language, detect_crisis
from skills import all_skills

__all__ = ["Score", "load", "score"]

HERE = Path(__file__).parent
SETS = (HERE / "crisis_set.jsonl", HERE / "crisis_heldout.jsonl")

_LANGUAGE = Language.of(SkillRegistry(all_skills()))


def normalise(text: str) -> str:
    """``text`` as the engine's parser reads it (繁體 → 简体, Cantonese → Mandarin, keyboard slips repaired)."""
    return _LANGUAGE.normalise(text).text


@dataclass
class Score:
    """The figures of one set."""

    crisis: int = 0
    caught: int = 0
    right_kind: int = 0
    harmless: int = 0
    false_alarms: int = 0
    missed: list[str] = field(default_factory=list)
    wrong_kind: list[str] = field(default_factory=list)
    alarms: list[str] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.caught / self.crisis if self.crisis else 1.0

    @property
    def false_alarm_rate(self) -> float:
        return self.false_alarms / self.harmless if self.harmless else 0.0

    def report(self, name: str, *, show: bool) -> dict[str, Any]:
        out: dict[str, Any] = {
            "set": name, "crisis": self.crisis, "harmless": self.harmless, "recall": round(self.recall, 4),
            "false_alarm_rate": round(self.false_alarm_rate, 4),
            "kind_accuracy": round(self.right_kind / self.caught, 4) if self.caught else 1.0,
            "missed": len(self.missed), "false_alarms": self.false_alarms, "wrong_kind": len(self.wrong_kind)}
        if show:
            out |= {"missed_texts": self.missed, "alarm_texts": self.alarms, "wrong_kind_texts": self.wrong_kind}
        return out


def load(path: Path) -> list[dict[str, Any]]:
    """The labelled lines of ``path``."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def score(rows: list[dict[str, Any]]) -> Score:
    """Run the detector over ``rows`` (normalised as the engine normalises a message)."""
    s = Score()
    for row in rows:
        text, want = str(row["text"]), row.get("kind")
        found = detect_crisis(normalise(text))
        if want:
            s.crisis += 1
            if found is None:
                s.missed.append(text)
                continue
            s.caught += 1
            if found.kind == want:
                s.right_kind += 1
            else:
                s.wrong_kind.append(f"{text} → {found.kind}/{found.sub}")
        else:
            s.harmless += 1
            if found is not None:
                s.false_alarms += 1
                s.alarms.append(f"{text} → {found.kind}/{found.sub} {list(found.cues)}")
    return s


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, default=list(SETS))
    parser.add_argument("--show", action="store_true", help="list the misses, false alarms and wrong kinds")
    args = parser.parse_args(argv)
    for path in args.files:
        print(json.dumps(score(load(path)).report(path.name, show=args.show), ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
