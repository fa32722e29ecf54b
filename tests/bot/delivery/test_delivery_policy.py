"""The pure delivery decision."""

from __future__ import annotations

from bot.delivery import pack, split_text
from bot.delivery.policy import Allowance, Channel, DeliveryFacts, QuotaState, decide

NOW = 1_800_000_000.0


def facts(**kw) -> DeliveryFacts:
    base = {"texts": ("好的",), "now": NOW}
    return DeliveryFacts(**(base | kw))


def test_passive_wins_and_carries_parked_texts_first() -> None:
    plan = decide(facts(passive=True, parked=("昨天的提醒",), texts=("a", "b")))
    assert plan.channels() == [Channel.PASSIVE]
    assert plan.steps[0].text == "昨天的提醒\n\na\n\nb"
    assert plan.consumed_parked


def test_custom_within_the_48h_window_counts_five() -> None:
    quota = QuotaState(last_message_at=NOW - 3600, message_used=4)
    plan = decide(facts(quota=quota, texts=("x" * 3000,)))
    assert plan.channels() == [Channel.CUSTOM, Channel.PARK]
    assert plan.steps[0].allowance is Allowance.MESSAGE


def test_window_closed_after_48h_falls_back_to_template_then_subscribe_then_park() -> None:
    quota = QuotaState(last_message_at=NOW - 48 * 3600 - 1)
    assert decide(facts(quota=quota, template_id="t")).channels() == [Channel.TEMPLATE]
    assert decide(facts(quota=quota, subscribe_template_id="s")).channels() == [Channel.SUBSCRIBE]
    assert decide(facts(quota=quota)).channels() == [Channel.PARK]


def test_interaction_allowance_is_three_within_one_minute_and_spent_first() -> None:
    quota = QuotaState(last_interaction_at=NOW - 30, interaction_used=1, last_message_at=NOW - 10, message_used=5)
    plan = decide(facts(quota=quota, texts=("a" * 2000, "b" * 2000, "c" * 2000)))
    assert plan.channels() == [Channel.CUSTOM, Channel.CUSTOM, Channel.PARK]
    assert {s.allowance for s in plan.steps[:2]} == {Allowance.INTERACTION}
    stale = QuotaState(last_interaction_at=NOW - 61)
    assert decide(facts(quota=stale)).channels() == [Channel.PARK]


def test_api_block_skips_custom_and_unsubscribed_users_get_nothing() -> None:
    quota = QuotaState(last_message_at=NOW)
    assert decide(facts(quota=quota, api_blocked=True, template_id="t")).channels() == [Channel.TEMPLATE]
    assert decide(facts(quota=quota, unsubscribed=True)).channels() == [Channel.DROP]
    assert decide(facts(quota=quota, refused=True, template_id="t")).channels() == [Channel.DROP]


def test_short_replies_share_one_message_and_long_ones_split_at_sentence_ends() -> None:
    assert pack(["一", "二", "三"]) == ["一\n\n二\n\n三"]
    long = "今天天气很好。" * 200  # 21 bytes each → 4200 bytes
    pieces = split_text(long)
    assert len(pieces) == 3
    assert all(len(p.encode()) <= 2048 for p in pieces)
    assert all(p.endswith("。") for p in pieces)
    assert "".join(pieces) == long


def test_passive_overflow_goes_through_custom_quota() -> None:
    quota = QuotaState(last_message_at=NOW)
    plan = decide(facts(passive=True, quota=quota, texts=("字" * 1000,)))
    assert plan.channels() == [Channel.PASSIVE, Channel.CUSTOM]
    assert len(plan.steps[0].text + plan.steps[1].text) == 1000
