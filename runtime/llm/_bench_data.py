"""The fixed turns of ``wxbot bench tokens``: a realistic user state, a transcript and a tool catalog."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from runtime.context import (
    ConversationRuntimeContext,
    ExpectedInput,
    PausedTask,
    PendingConfirmation,
    RecentMessage,
    SkillSession,
    Summary,
)

from .tools import AgentTool, datetime_tool, tool_name

AT = datetime.fromisoformat("2026-12-01T20:00:00+08:00")
USER = "oWx3k9Q1bench0openid0000000001"

# (stage, text, model summary sentence)
TURNS: tuple[tuple[str, str, str], ...] = (
    ("llm_router", "周末想跟朋友聚聚吃点啥好", "用户在规划晚饭：3人，预算100元，不吃香菜。"),
    ("llm_router", "北京明儿个会不会下", "用户在规划晚饭：3人，预算100元，不吃香菜。"),
    ("llm_router", "最近动得咋样", "用户的目标是减脂，本周跑步两次。"),
    ("llm_router", "帮我把那个事儿取消了吧", "用户有2条提醒，最近一条是周四晚上倒垃圾。"),
    ("llm_router", "胖了两斤，唉", "用户的目标是减脂，体重70公斤。"),
    ("fallback", "你真有意思", "用户在规划晚饭：3人，预算100元。"),
    ("fallback", "明天要带伞吗", "用户在规划晚饭：3人，预算100元。"),
    ("fallback", "我有哪些提醒来着", "用户有2条提醒。"),
    ("fallback", "今天星期几", "用户在规划晚饭：3人，预算100元。"),
    ("fallback", "红烧肉怎么做比较好吃", "用户在规划晚饭：3人，预算100元，不吃香菜。"),
)

_TRANSCRIPT = (
    "晚上吃什么好", "几个人吃呢？", "三个人", "预算大概多少？", "一百块左右", "有什么忌口吗？", "不吃香菜",
    "给你推荐：番茄炒蛋、可乐鸡翅、紫菜蛋花汤，共约86元。", "可乐鸡翅怎么做", "鸡翅焯水后煎到两面金黄，加可乐和酱油焖15分钟。",
    "周四晚上9点提醒我倒垃圾", "好的，周四21:00提醒你倒垃圾。", "今天跑了5公里", "确认记录跑步5公里吗？", "确认",
    "已记录：跑步5公里，约消耗350千卡。", "明天天气怎么样", "北京明天小雨，8到12度。", "谢谢", "不客气！",
)


def catalog(now: Any, skills: Iterable[Any]) -> list[AgentTool]:
    """One tool per action of the skills (what a naive agent would be handed), with the date tool."""
    tools = [datetime_tool(now)]
    for skill in skills:
        for action in skill.actions:
            if action.fallback or action.intent == "datetime.query":
                continue
            props = {s.name: {"type": "string", "description": s.question} for s in action.slots}
            tools.append(AgentTool(tool_name(action.intent), action.description or action.task,
                                   {"type": "object", "properties": props}, (lambda args: {"结果": "无"}),
                                   intent=action.intent, writes=not action.read_only))
    return tools


def context() -> ConversationRuntimeContext:
    """A busy but ordinary user state: an active dinner plan, a paused task, a pending write, facts."""
    ctx = ConversationRuntimeContext(user=USER, version=57, topic_version=9, updated_at=AT)
    ctx.active = SkillSession(
        skill="dinner", action="plan", intent="dinner.plan", params={"people": 3, "budget": 100},
        missing=["dietary"], topic_version=9, started_at=AT - timedelta(minutes=3),
        expected_input=ExpectedInput(field="dietary", type="text_list", question="有什么忌口吗？", asked_at=AT),
    )
    ctx.paused = [PausedTask(
        session=SkillSession(skill="exercise", action="log", intent="exercise.log", params={"activity": "跑步"},
                             missing=["minutes"], topic_version=8),
        resume_question="刚才的跑步记录，跑了多少分钟？", paused_at=AT - timedelta(minutes=10))]
    ctx.pending_confirmation = PendingConfirmation(
        skill="profile", action="update", intent="profile.update", params={"weight_kg": 70},
        question="确认把体重改成70公斤吗？", msg_id="24456789012345678", expires_at=AT + timedelta(minutes=10),
        topic_version=9)
    ctx.recent = [RecentMessage(role="user" if i % 2 == 0 else "bot", text=t, at=AT - timedelta(minutes=20 - i))
                  for i, t in enumerate(_TRANSCRIPT[-8:])]
    ctx.summary = Summary(goal="减脂", constraints={"people": 3, "budget": 100, "dislikes": ["香菜"]},
                          confirmed=["周四21:00倒垃圾提醒", "跑步5公里"], open_items=["晚饭忌口"])
    return ctx


def transcript() -> list[dict[str, str]]:
    """The last 20 messages as chat messages."""
    return [{"role": "user" if i % 2 == 0 else "assistant", "content": t} for i, t in enumerate(_TRANSCRIPT)]
