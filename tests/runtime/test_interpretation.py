"""Interpretation by what explains the whole message (DESIGN §3.4): corrections, out-of-order slots,
side questions at every kind of prompt, colloquial yes/no, follow-ups, small talk. Facts, not wording."""

from __future__ import annotations

import pytest

from runtime import texts
from runtime.context import dump_context
from runtime.turn import Inbound
from tests.runtime.conftest import Bot


def _dinner_waiting_for_budget(bot: Bot) -> None:
    bot.say("帮我安排晚饭")
    assert bot.say("3个人").state.expected_field == "budget"


def test_a_correction_of_an_earlier_slot_is_not_the_awaited_value(bot: Bot) -> None:
    _dinner_waiting_for_budget(bot)
    r = bot.say("不对不对，我们是六个人")
    assert r.trace.stage == "expected_input" and r.state.expected_field == "budget"  # still asking the budget
    assert "¥6" not in r.replies[0] and "6人" in r.replies[0]
    bot.say("两百")
    bot.say("没有")
    assert bot.ledger.plans == [{"people": 6, "budget": 200.0, "dietary": []}]


def test_another_slot_given_out_of_order_is_kept(bot: Bot) -> None:
    bot.say("帮我安排晚饭")
    r = bot.say("预算三百吧")
    assert r.state.expected_field == "people" and "预算300元" in r.replies[0]
    assert bot.say("4个人").state.expected_field == "dietary"
    bot.say("都行")
    assert bot.ledger.plans == [{"people": 4, "budget": 300.0, "dietary": []}]


def test_several_slots_at_once_finish_the_task(bot: Bot) -> None:
    bot.say("帮我安排晚饭")
    r = bot.say("5个人，预算两百，不吃辣")
    assert r.state.active_skill is None
    assert bot.ledger.plans == [{"people": 5, "budget": 200.0, "dietary": ["辣"]}]


@pytest.mark.parametrize("question", ["今天几号来着", "今天星期几啊", "现在几点了？"])
def test_a_side_question_is_answered_and_never_taken_as_the_slot(bot: Bot, question: str) -> None:
    _dinner_waiting_for_budget(bot)
    r = bot.say(question)
    assert r.trace.intent == "datetime.query" and r.state.expected_field == "budget"
    assert "预算" in r.replies[0]  # the pending question is repeated
    assert bot.ledger.plans == []


def _exercise_pending(bot: Bot) -> None:
    r = bot.say("今天跑步30分钟")
    assert r.state.pending_confirmation == "exercise.log"


def test_a_correction_while_confirming_changes_the_pending_write(bot: Bot) -> None:
    _exercise_pending(bot)
    r = bot.say("不对，是40分钟")
    assert r.state.pending_confirmation == "exercise.log" and "40分钟" in r.replies[0]
    bot.say("确认")
    assert [log["minutes"] for log in bot.ledger.logs.values()] == [40.0]


@pytest.mark.parametrize("no", ["算了，先留着吧", "先不要", "还是算了", "别记了"])
def test_colloquial_no_to_a_confirmation_writes_nothing(bot: Bot, no: str) -> None:
    _exercise_pending(bot)
    r = bot.say(no)
    assert r.state.pending_confirmation is None and bot.ledger.logs == {}


@pytest.mark.parametrize("yes", ["行", "嗯嗯好", "好的没问题", "可以的"])
def test_colloquial_yes_confirms(bot: Bot, yes: str) -> None:
    _exercise_pending(bot)
    assert bot.say(yes).state.pending_confirmation is None
    assert len(bot.ledger.logs) == 1


def test_a_confirmation_offered_again_after_a_side_question_stays_confirmable(bot: Bot) -> None:
    _exercise_pending(bot)
    r = bot.say("今天几号")
    assert r.state.pending_confirmation == "exercise.log" and "确认" in r.replies[0]
    assert bot.say("确认").state.pending_confirmation is None
    assert len(bot.ledger.logs) == 1


def test_confirm_with_nothing_pending_says_so(bot: Bot) -> None:
    r = bot.say("确认")
    assert r.replies == [texts.NOTHING_TO_CONFIRM] and r.trace.stage == "control"


def test_an_elliptical_follow_up_reuses_the_last_query(bot: Bot) -> None:
    assert "12月8日" in bot.say("下周二是几号").replies[0]
    r = bot.say("那周四呢")
    assert r.trace.intent == "datetime.query" and "12月10日" in r.replies[0]  # Thursday of that same week


def test_a_correction_after_a_finished_plan_plans_again(bot: Bot) -> None:
    bot.say("三个人预算80帮我安排晚饭")
    bot.say("没有")
    r = bot.say("不对，是4个人")
    assert r.trace.intent == "dinner.plan" and bot.ledger.plans[-1]["people"] == 4
    assert bot.ledger.plans[-1]["budget"] == 80.0


def test_small_talk_is_answered_in_kind_and_the_feature_list_offered_once(bot: Bot) -> None:
    thanks = bot.say("谢谢你")
    assert thanks.replies and texts.capabilities(bot.engine.registry) not in thanks.replies[0]
    first = bot.say("给我讲讲量子力学吧")
    second = bot.say("帮我订张去上海的机票")
    assert texts.capabilities(bot.engine.registry) in first.replies[0] or texts.capabilities(bot.engine.registry) in second.replies[0]
    assert not (texts.capabilities(bot.engine.registry) in first.replies[0] and texts.capabilities(bot.engine.registry) in second.replies[0])


@pytest.mark.parametrize("setup, message", [
    (("帮我安排晚饭", "3个人"), "不对不对，我们是六个人"),
    (("帮我安排晚饭",), "预算三百吧"),
    (("今天跑步30分钟",), "不对，是40分钟"),
    (("下周二是几号",), "那周四呢"),
    (("帮我安排晚饭",), "今天几号来着"),
])
def test_deciding_never_changes_the_context(bot: Bot, setup: tuple[str, ...], message: str) -> None:
    for text in setup:
        bot.say(text)
    engine = bot.engine
    ctx = engine.peek("u1")
    before = dump_context(ctx)
    engine.probe(Inbound(user="u1", text=message, msg_id="probe", at=bot.now), ctx=ctx)
    assert dump_context(ctx) == before
