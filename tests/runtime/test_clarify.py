"""Ambiguous messages become a numbered question, itself an expected input (DESIGN §3.4)."""

from __future__ import annotations

from dataclasses import dataclass

from runtime.engine import Engine
from runtime.skill import SkillRegistry
from runtime.store import InMemoryContextStore
from skills.datetime import SPEC as DATETIME
from tests.runtime.conftest import DINNER, EXERCISE, Bot, Ledger


@dataclass(frozen=True)
class Prediction:
    label: str
    confidence: float
    alternatives: tuple[tuple[str, float], ...]


class SplitModel:
    """An intent model torn between two tasks for one phrase, sure of 'unknown' otherwise."""

    def predict(self, text: str) -> Prediction:
        if "搞定" in text:
            return Prediction("dinner.plan", 0.45, (("dinner.plan", 0.45), ("exercise.log", 0.40)))
        return Prediction("unknown", 0.9, (("unknown", 0.9),))


def _bot() -> Bot:
    ledger = Ledger()
    engine = Engine(store=InMemoryContextStore(), registry=SkillRegistry([DINNER, EXERCISE, DATETIME]),
                    services=ledger, intent_model=SplitModel())
    return Bot(engine, ledger)


def test_ambiguous_message_asks_with_numbered_options() -> None:
    bot = _bot()
    r = bot.say("晚上那个帮我搞定")
    assert r.trace.stage == "intent_model"
    assert "1. 安排晚饭" in r.replies[0] and "2. 记录运动" in r.replies[0] and "3. 都不是" in r.replies[0]
    assert r.state.expected_field == "choice"
    r = bot.say("第一个")
    assert r.trace.stage == "expected_input" and r.trace.intent == "dinner.plan"
    assert r.state.expected_field == "people"


def test_clarifying_choice_none_of_them() -> None:
    bot = _bot()
    bot.say("晚上那个帮我搞定")
    r = bot.say("3")
    assert r.state.active_skill is None and r.state.expected_field is None


def test_message_instead_of_a_choice_is_handled_as_new() -> None:
    bot = _bot()
    bot.say("晚上那个帮我搞定")
    r = bot.say("今天几号")
    assert r.trace.intent == "datetime.query" and r.state.expected_field is None


def test_confident_out_of_scope_goes_to_unknown() -> None:
    r = _bot().say("播放周杰伦的歌")
    assert r.trace.stage == "intent_model" and r.trace.intent == "unknown"
