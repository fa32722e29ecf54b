"""The fallback stage against the fake server: bundles, the tool loop and its limits, chit-chat, no LLM."""

from __future__ import annotations

import pytest

from runtime.llm import LLMConfig, NoLLM, OpenAILLM
from runtime.llm.agent import NO_LLM_REPLY, UNAVAILABLE_REPLY, FallbackAgent, StopReason, finalize
from runtime.llm.testkit import FakeOpenAI, error, reply, tool_call, tool_calls
from runtime.llm.tools import Bundle
from runtime.resolve.fallback import FallbackStage, bundle_for, tools_for_turn
from runtime.views import ModelSummary, RouterView
from skills import registry

from .world import NOW, READ_ONLY_INTENTS, World

SUMMARY = ModelSummary("用户最近在问天气。")


@pytest.fixture
def world() -> World:
    return World()


def _tools(world: World) -> list:  # type: ignore[type-arg]
    return tools_for_turn(world.skills(), world.run_action, READ_ONLY_INTENTS, lambda: NOW)


def _ask(llm: object, world: World, text: str, hints: tuple[str, ...] = (),  # type: ignore[no-untyped-def]
         offline: str | None = None):
    if offline is not None:  # the agent's own API: the caller's no-model answer on failure
        return FallbackAgent(llm).answer(text, SUMMARY.text, _tools(world), hints=hints, offline=offline,  # type: ignore[arg-type]
                                         choice=world.choice(text))
    stage = FallbackStage(llm)  # type: ignore[arg-type]
    return stage.handle(RouterView(text=text, origin="text"), SUMMARY, _tools(world), hints=hints,
                        choice=world.choice(text))


@pytest.mark.parametrize(
    ("text", "bundle", "includes", "excludes"),
    [
        ("哈哈你真有意思", Bundle.CHAT, (), ()),
        ("明天天气要带伞吗", Bundle.SKILL, ("weather.query",), ("reminder.list", "dinner.plan")),
        ("我有哪些提醒来着", Bundle.SKILL, ("reminder.list", "reminder.cancel"), ("weather.query",)),
        ("这礼拜运动得够不够啊", Bundle.SKILL, ("exercise.history",), ("weather.query", "datetime.query")),
    ],
)
def test_bundle_comes_from_the_objects_the_message_names(text: str, bundle: Bundle, includes: tuple[str, ...],
                                                        excludes: tuple[str, ...]) -> None:
    choice = bundle_for(text, registry().objects)
    assert choice.bundle is bundle
    assert set(includes) <= set(choice.intents) and not set(excludes) & set(choice.intents)


def test_no_llm_gives_a_friendly_fixed_answer_with_a_hint(world: World) -> None:
    for text in ("你好呀", "明天天气怎么样"):
        outcome = _ask(NoLLM(), world, text)
        assert outcome.reply == NO_LLM_REPLY and outcome.stopped is StopReason.NO_LLM
        assert "提醒" in (outcome.reply or "") and outcome.iterations == 0
    assert world.weather_calls == 0


def test_chitchat_uses_the_chat_profile_without_tools(world: World) -> None:
    with FakeOpenAI() as fake:
        llm = OpenAILLM(LLMConfig.from_env(fake.env(model="agent-m", OPENAI_CHAT_MODEL="chat-m")))
        fake.script(reply("哈哈，谢谢夸奖！"))
        outcome = _ask(llm, world, "你真有意思")
        assert outcome.reply == "哈哈，谢谢夸奖！" and outcome.bundle is Bundle.CHAT
        sent = fake.chat_requests[0]
        assert sent.model == "chat-m" and sent.tool_names == []
        llm.close()


def test_information_question_runs_a_read_tool_and_answers(fake: FakeOpenAI, llm: OpenAILLM, world: World) -> None:
    fake.script(tool_call("weather_query", {"city": "北京"}), reply("北京明天小雨，8到12度，记得带伞。"))
    outcome = _ask(llm, world, "北京明天要带伞吗")
    assert outcome.reply == "北京明天小雨，8到12度，记得带伞。" and outcome.stopped is StopReason.ANSWER
    first, second = fake.chat_requests
    assert first.tool_names == ["weather_query"]  # the tools of what the message names, nothing else
    tool_message = second.messages[-1]
    assert tool_message["role"] == "tool" and "小雨" in tool_message["content"]
    assert "{" not in tool_message["content"]
    assert outcome.iterations == 2 and world.weather_calls == 1


def test_tool_errors_are_fed_back_as_results(fake: FakeOpenAI, llm: OpenAILLM, world: World) -> None:
    fake.script(tool_calls(("weather_query", {"city": "火星"}, None), ("weather_query", {"city": "崩溃"}, None),
                           ("reminder_list_typo", {}, None)),
                reply("抱歉，查不到火星的天气。"))
    outcome = _ask(llm, world, "火星天气如何")
    assert outcome.reply == "抱歉，查不到火星的天气。"
    results = [m["content"] for m in fake.chat_requests[1].messages if m["role"] == "tool"]
    assert results[0] == "出错：没有这个城市的天气"
    assert results[1] == "出错：查询失败，请换个方式回答。" and "10.0.0.7" not in fake.chat_requests[1].prompt_text
    assert "没有这个工具" in results[2]
    assert any(e.startswith("tool_error:weather_query") for e in outcome.errors)


def test_broken_tool_arguments_are_a_model_failure(fake: FakeOpenAI, llm: OpenAILLM, world: World) -> None:
    fake.script(tool_call("datetime_query", "{not json"))
    outcome = _ask(llm, world, "今天几号", offline="今天是12月1日，星期二。")
    assert outcome.failed and outcome.stopped is StopReason.LLM_UNAVAILABLE
    assert outcome.reply == "今天是12月1日，星期二。"  # the caller's no-model answer
    assert outcome.errors == ("llm_error:LLMBadOutput",) and world.weather_calls == 0


def test_a_repeated_identical_call_ends_the_loop(fake: FakeOpenAI, llm: OpenAILLM, world: World) -> None:
    fake.script(tool_call("datetime_query", {"offset_days": 1}), tool_call("datetime_query", {"offset_days": 1}),
                reply("不该走到这里"))
    outcome = _ask(llm, world, "明天星期几")
    assert outcome.stopped is StopReason.REPEATED_CALL and len(fake.chat_requests) == 2
    assert outcome.reply is not None and "星期三" in outcome.reply  # the deterministic tool answer
    assert fake.pending == 1


def test_at_most_four_iterations(fake: FakeOpenAI, llm: OpenAILLM, world: World) -> None:
    fake.script(*[tool_call("datetime_query", {"offset_days": i}) for i in range(6)])
    outcome = _ask(llm, world, "今天几号")
    assert outcome.stopped is StopReason.MAX_ITERATIONS and len(fake.chat_requests) == 4
    assert outcome.reply is not None and "日期" in outcome.reply


def test_outage_degrades_to_a_deterministic_answer(fake: FakeOpenAI, llm: OpenAILLM, world: World) -> None:
    fake.script(error(500), error(500))
    outcome = _ask(llm, world, "今天几号")
    assert outcome.reply == UNAVAILABLE_REPLY and outcome.stopped is StopReason.LLM_UNAVAILABLE
    assert outcome.errors == ("llm_unavailable:server_error",)
    fake.script(tool_call("datetime_query", {}), error(503), error(503))
    outcome = _ask(llm, world, "今天几号")
    assert outcome.reply is not None and "12月1日" in outcome.reply  # what the tool found survives


def test_chat_outage_and_timeouts_still_answer(world: World) -> None:
    with FakeOpenAI() as fake:
        llm = OpenAILLM(LLMConfig.from_env(fake.env(OPENAI_TIMEOUT="0.2", OPENAI_MAX_RETRIES="0")))
        from runtime.llm.testkit import delay

        fake.script(delay(2.0))
        outcome = _ask(llm, world, "随便聊聊")
        assert outcome.reply == UNAVAILABLE_REPLY and outcome.errors == ("llm_unavailable:timeout",)
        llm.close()


def test_final_answer_is_short_chinese() -> None:
    assert finalize("Sure! Here you go.", "兜底") == "兜底"
    assert finalize("**好的**，明天见", "兜底") == "好的，明天见"
    long = "这是一句很长的话。" * 40
    out = finalize(long, "兜底")
    assert len(out) <= 200 and out.endswith("。")
