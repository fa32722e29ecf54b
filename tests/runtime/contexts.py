"""Context builders shared by the runtime tests."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from runtime.context import (
    ConversationRuntimeContext,
    ExpectedInput,
    PausedTask,
    PendingConfirmation,
    SkillSession,
)

NOW = datetime(2026, 12, 1, 20, 0, tzinfo=ZoneInfo("Asia/Shanghai"))
OPENID = "o6_bmjrPTlm6_2sgVt7hMZOPfL2M"


def rich_context(user: str = OPENID) -> ConversationRuntimeContext:
    """A context with every part filled: active session, paused stack, confirmation, recent, summary."""
    ctx = ConversationRuntimeContext.empty(user)
    ctx.topic_version = 4
    ctx.active = SkillSession(
        skill="dinner", action="plan", intent="dinner.plan",
        params={"people": 3, "budget": 100.0, "dietary": ["香菜", "辣"], "owner": OPENID,
                "filters": {"max_price": 30, "tags": ["家常"]}, "ids": [OPENID, "o" + "x" * 27]},
        missing=["dietary"], asked_optional=["dietary"],
        expected_input=ExpectedInput(field="dietary", type="text_list", question="有什么忌口吗？", asked_at=NOW),
        topic_version=4, started_at=NOW)
    paused = SkillSession(skill="reminders", action="create", intent="reminder.create",
                          params={"content": "倒垃圾"}, missing=["when"], topic_version=3)
    ctx.push_paused(PausedTask(session=paused, resume_question="刚才的提醒要几点？", paused_at=NOW))
    ctx.pending_confirmation = PendingConfirmation(
        skill="exercise", action="log", intent="exercise.log", params={"activity": "跑步", "minutes": 30},
        question="记录跑步30分钟，对吗？", msg_id="msg-1", expires_at=NOW + timedelta(minutes=10),
        topic_version=4)
    ctx.remember("user", "3个人预算100帮我安排晚饭", NOW)
    ctx.remember("bot", "有什么忌口吗？", NOW)
    ctx.summary.goal = "减脂"
    ctx.summary.constraints.update({"people": 3, "budget": 100.0, "dislikes": ["香菜"], "city": "杭州",
                                    "account": OPENID, "raw": {"k": [1, 2]}})
    ctx.summary.confirmed.append("晚饭：番茄炒蛋")
    ctx.summary.open_items.append("买鸡蛋")
    ctx.updated_at = NOW
    return ctx
