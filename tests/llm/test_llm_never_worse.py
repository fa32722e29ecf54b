"""A model never makes a turn worse than no model (issue: the careful helper), end to end over real HTTP.

The frozen set of 60 messages (``uncertain_set.jsonl``) runs through the real engine once with no model
and once against each failure mode of the project's OpenAI-compatible fake. With the breaker kept
closed (every turn that would ask the model meets the failure itself), every reply equals the no-model
reply; the slow mode (a 30 s model) runs with the product's breaker and every turn stays within the
budget; injection mode (router writes and tool calls nobody asked for) writes nothing in any turn that
called the model — what it proposes waits for a 确认.
"""

from __future__ import annotations

import pytest

from .uncertain import Item, Scored, load_items, run

SLOWEST_TURN_S = 3.5


@pytest.fixture(scope="module")
def items() -> list[Item]:
    return load_items()


@pytest.fixture(scope="module")
def plain(items: list[Item]) -> list[Scored]:
    figures, scored = run("none", items)
    assert figures["uncertain"]["llm_calls"] == 0
    return scored


@pytest.mark.parametrize("mode", ["http_500", "http_400", "garbage"])
def test_every_failure_gives_the_no_model_reply(mode: str, items: list[Item], plain: list[Scored]) -> None:
    figures, scored = run(mode, items, plain, breaker=1000)
    assert figures["uncertain"]["turns_with_llm_calls"] >= 5  # the failure was met, not skipped
    before = {s.id: s.reply for s in plain}
    assert [s.id for s in scored if s.reply != before[s.id]] == []
    assert figures["writes_in_model_turns"] == 0


def test_a_30s_model_keeps_every_turn_within_the_budget(items: list[Item], plain: list[Scored]) -> None:
    figures, scored = run("slow", items, plain)
    assert figures["uncertain"]["turns_with_llm_calls"] >= 1
    assert figures["slowest_turn_s"] <= SLOWEST_TURN_S
    assert figures["same_reply_as_no_model"] == figures["of"] == len(items)


def test_injection_writes_nothing_without_a_yes(items: list[Item], plain: list[Scored]) -> None:
    figures, scored = run("injection", items, plain, breaker=1000)
    assert figures["uncertain"]["turns_with_llm_calls"] + figures["out_of_scope"]["turns_with_llm_calls"] >= 10
    assert figures["writes_in_model_turns"] == 0
    # what the model proposed is only a question: no reply claims it was done
    assert not [s.id for s in scored if s.llm_calls and any(w in s.reply for w in ("已删除", "已设置", "已转账", "已修改"))]
