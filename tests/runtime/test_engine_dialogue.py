"""The engine's dialogue behaviour: slot filling, confirmation, interruptions (DESIGN §3.4), control."""

from __future__ import annotations

from datetime import timedelta

from tests.runtime.conftest import Bot


def test_first_message_fills_several_slots(bot: Bot) -> None:
    r = bot.say("三个人预算80帮我安排晚饭")
    assert r.trace.stage == "rules" and r.trace.intent == "dinner.plan"
    assert r.state.expected_field == "dietary"  # people and budget came with the message
    r = bot.say("没有")
    assert "3人" in r.replies[0] and r.state.active_skill is None
    assert bot.ledger.plans == [{"people": 3, "budget": 80.0, "dietary": []}]


def test_asks_each_missing_slot_in_order(bot: Bot) -> None:
    assert bot.say("帮我安排晚饭").state.expected_field == "people"
    r = bot.say("俩")
    assert r.trace.stage == "expected_input" and r.state.expected_field == "budget"
    assert bot.say("一百块").state.expected_field == "dietary"
    r = bot.say("不吃香菜，也不吃辣")
    assert bot.ledger.plans[0]["dietary"] == ["香菜", "辣"]
    assert r.trace.llm_calls == 0


def test_invalid_answer_reasks_twice_then_offers_cancel(bot: Bot) -> None:
    bot.say("帮我安排晚饭")
    first = bot.say("嗯嗯嗯啊")
    assert first.trace.stage == "expected_input" and "几个人吃" in first.replies[0]
    assert "3个人" in first.replies[0]  # the hint
    bot.say("啊啊啊")
    third = bot.say("哦哦哦")
    assert "取消" in third.replies[0]
    assert third.state.expected_field == "people"


def test_out_of_range_count_is_not_accepted(bot: Bot) -> None:
    bot.say("帮我安排晚饭")
    assert bot.say("50个人").state.expected_field == "people"


def test_read_only_interruption_keeps_the_task(bot: Bot) -> None:
    bot.say("帮我安排晚饭")
    r = bot.say("今天几号")
    assert r.trace.intent == "datetime.query"
    assert "11月30日" in r.replies[0] and "几个人吃" in r.replies[0]
    assert r.state.expected_field == "people" and r.state.active_skill == "dinner"


def test_mixed_message_fills_slot_and_answers(bot: Bot) -> None:
    bot.say("帮我安排晚饭")
    r = bot.say("3个人，顺便问下今天星期几")
    assert r.trace.stage == "expected_input"
    assert "星期一" in r.replies[0] and "预算" in r.replies[0]
    assert r.state.expected_field == "budget"


def test_new_topic_pauses_and_offers_resume(bot: Bot) -> None:
    bot.say("帮我安排晚饭")
    r = bot.say("今天跑步跑了5公里")
    assert r.state.paused == ["dinner"] and r.state.pending_confirmation == "exercise.log"
    r = bot.say("确认")
    assert "记下了" in r.replies[0] and "继续" in r.replies[0]
    r = bot.say("继续")
    assert r.trace.stage == "control" and r.state.expected_field == "people" and r.state.paused == []
    assert "几个人吃" in r.replies[0]


def test_confirmation_expires_after_ten_minutes(bot: Bot) -> None:
    bot.say("游泳游了30分钟")
    r = bot.say("确认", after=timedelta(minutes=11))
    assert "过期" in r.replies[0] and bot.ledger.logs == {}
    assert r.state.pending_confirmation is None


def test_stale_confirmation_after_topic_switch(bot: Bot) -> None:
    bot.say("游泳游了30分钟")
    bot.say("帮我安排晚饭")  # a new task: the topic changes
    r = bot.say("确认")
    assert "失效" in r.replies[0] and bot.ledger.logs == {}
    assert r.state.pending_confirmation is None and r.state.expected_field == "people"


def test_confirm_runs_write_once_keyed_by_the_causing_message(bot: Bot) -> None:
    bot.say("骑车骑了10公里")
    r = bot.say("好的")
    assert r.trace.stage == "control" and r.trace.intent == "exercise.log"
    assert list(bot.ledger.logs) == ["m1"]
    assert bot.ledger.logs["m1"]["distance_km"] == 10.0


def test_cancel_pending_then_nothing_to_cancel(bot: Bot) -> None:
    bot.say("骑车骑了10公里")
    assert "取消" in bot.say("算了").replies[0]
    assert bot.ledger.logs == {}
    assert "没有" in bot.say("取消").replies[0]


def test_confirm_word_without_pending_is_ordinary_text(bot: Bot) -> None:
    r = bot.say("好的")
    assert r.trace.stage != "control"


def test_continue_with_nothing_paused(bot: Bot) -> None:
    r = bot.say("继续")
    assert r.trace.stage == "control" and "没有可以继续" in r.replies[0]


def test_reset_clears_tasks(bot: Bot) -> None:
    bot.say("帮我安排晚饭")
    r = bot.say("重新开始")
    assert r.state.active_skill is None and "重新开始" in r.replies[0]


def test_remembered_constraint_is_offered_as_default(bot: Bot) -> None:
    bot.say("3个人预算80帮我安排晚饭")
    bot.say("没有")
    r = bot.say("帮我安排晚饭")
    assert "还是3个人吗" in r.replies[0]
    r = bot.say("是的")
    assert r.state.expected_field == "budget"


def test_users_do_not_share_state(bot: Bot) -> None:
    bot.say("帮我安排晚饭", user="a")
    r = bot.say("今天几号", user="b")
    assert r.state.active_skill is None
    assert bot.say("4个人", user="a").state.expected_field == "budget"


def test_events(bot: Bot) -> None:
    r = bot.event("subscribe")
    assert r.trace.stage == "event" and "欢迎" in r.replies[0]
    r = bot.event("CLICK", "dinner.plan")
    assert r.trace.stage == "event" and r.state.expected_field == "people"
    assert bot.event("unsubscribe").replies == []


def test_unknown_says_what_the_bot_can_do(bot: Bot) -> None:
    r = bot.say("帮我订一张去上海的机票")
    assert r.trace.llm_calls == 0 and "安排晚饭" in r.replies[0] and r.trace.intent == "unknown"
    assert r.state.active_skill is None


def test_model_summary_and_recent_stay_small(bot: Bot) -> None:
    bot.say("帮我安排晚饭")
    for _ in range(20):
        bot.say("今天几号")
    ctx = bot.engine.peek("u1")
    assert len(ctx.recent) <= 8


def test_redelivered_message_gets_the_same_answer_and_runs_nothing_twice(bot: Bot) -> None:
    from runtime.turn import Inbound

    bot.say("骑车骑了10公里")
    inbound = Inbound(user="u1", text="确认", msg_id="dup-1", at=bot.now)
    first = bot.engine.handle(inbound)
    again = bot.engine.handle(inbound)
    assert again.replies == first.replies and again.data.get("duplicate") is True
    assert again.trace.stage == first.trace.stage and again.trace.intent == "exercise.log"
    assert len(bot.ledger.logs) == 1


def test_model_params_go_through_the_slot_parsers(tmp_path: object) -> None:
    """A routing model's params are raw strings; the engine types them like any answer."""
    from datetime import datetime

    from runtime.engine import Engine
    from runtime.llm import build_llm
    from runtime.llm.testkit import FakeOpenAI, json_reply
    from runtime.skill import SkillRegistry
    from runtime.store import InMemoryContextStore
    from runtime.turn import Inbound
    from tests.runtime.conftest import DINNER, EXERCISE, Ledger

    ledger = Ledger()
    with FakeOpenAI() as fake:
        llm = build_llm(fake.env())
        engine = Engine(store=InMemoryContextStore(), registry=SkillRegistry([DINNER, EXERCISE]),
                        services=ledger, llm=llm)
        fake.script(json_reply({"intent": "dinner.plan", "confidence": 0.9,
                                "params": {"people": "三个", "budget": "八十块"}}))
        at = datetime.fromisoformat("2026-12-01T18:00:00+08:00")
        # the values are the user's own words (a value nobody said would be asked for instead)
        r = engine.handle(Inbound(user="u1", text="嗯那个今晚三个八十块的事你看着办吧", msg_id="x1", at=at))
        llm.close()  # type: ignore[attr-defined]
    assert r.trace.stage == "llm_router" and r.trace.llm_calls == 1
    assert r.state.expected_field == "dietary"
    ctx = engine.peek("u1")
    assert ctx.active is not None and ctx.active.params == {"people": 3, "budget": 80.0}


def test_a_turn_whose_state_cannot_be_saved_is_not_answered(bot: Bot) -> None:
    """Every save losing the race raises ContextConflict instead of replying from unsaved state."""
    import pytest

    from runtime.store import ContextConflict

    store = bot.engine.store

    class Racing:
        def load(self, user: str):  # type: ignore[no-untyped-def]
            return store.load(user)

        def save(self, ctx):  # type: ignore[no-untyped-def]
            raise ContextConflict(ctx.user, ctx.version, ctx.version + 1)

    bot.engine.store = Racing()  # type: ignore[assignment]
    with pytest.raises(ContextConflict):
        bot.say("骑车骑了10公里")
    bot.engine.store = store
    assert bot.ledger.logs == {} and bot.engine.peek("u1").pending_confirmation is None
