"""Out-of-scope requests must never start a task through the rule router (public training data only)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runtime.skill import SkillRegistry
from runtime.understand.rules import RuleRouter, rules_from
from skills import all_skills

TRAIN = Path(__file__).resolve().parents[3] / "shared" / "data" / "train"
TASKS = {"reminder.create", "reminder.cancel", "reminder.snooze", "dinner.plan", "exercise.log", "exercise.plan",
         "profile.update", "pantry.update"}
IN_SCOPE = {"schedule", "cookbook", "weather", "datetime", "chat", "alarm", "reminder", "calendar",
            "Remind", "GetWeather", "Chat", "GetDate", "Alarm"}


def _router() -> RuleRouter:
    return RuleRouter(rules_from(SkillRegistry(all_skills()).triggers()))


def _out_of_scope() -> list[str]:
    texts = []
    for name in ("smp2017.jsonl", "smp2019.jsonl", "smp2020.jsonl", "cais.jsonl", "kuake_qic.jsonl"):
        for line in (TRAIN / name).read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            label = rec.get("domain") or rec.get("intent") or rec.get("label")
            if name == "kuake_qic.jsonl" or label not in IN_SCOPE:
                texts.append(rec["text"])
    return texts


@pytest.mark.skipif(not TRAIN.is_dir(), reason="shared training data not present")
def test_rules_start_almost_no_task_on_out_of_scope_requests() -> None:
    router = _router()
    texts = _out_of_scope()
    false_tasks = [t for t in texts if (found := router.classify(t)) and found[0] in TASKS]
    assert len(texts) > 20_000
    assert len(false_tasks) / len(texts) <= 0.001, false_tasks[:20]


@pytest.mark.parametrize("text", ["我想听大王叫我来巡山", "颈椎病不宜做哪些运动？", "我不吃英文怎么讲",
                                  "身高170体重55公斤是偏瘦吗？"])
def test_questions_and_song_titles_are_not_tasks(text: str) -> None:
    found = _router().classify(text)
    assert found is None or found[0] not in TASKS
