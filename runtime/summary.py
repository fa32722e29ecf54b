"""The structured summary (long-term facts) and the one-sentence model summary built from it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from runtime._spoken import describe_params
from runtime.context import ConversationRuntimeContext, Summary
from runtime.views import ModelSummary

MAX_CONFIRMED = 5
MAX_SUMMARY_CHARS = 200

# constraint name -> how a default is spoken ("还是3个人吗？")
_SPOKEN = {
    "people": lambda v: f"{int(v)}个人",
    "budget": lambda v: f"预算{_num(v)}元",
    "city": lambda v: str(v),
}



def _num(value: Any) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def apply_facts(summary: Summary, facts: Mapping[str, Any]) -> None:
    """Fold a skill result's facts into the summary (goal, constraints, confirmed, open items)."""
    for key, value in facts.items():
        if key == "goal" and value:
            summary.goal = str(value)[:20]
        elif key == "confirmed" and value:
            summary.confirmed.append(str(value)[:60])
            del summary.confirmed[:-MAX_CONFIRMED]
        elif key == "open_item" and value:
            summary.open_items = [str(value)[:60], *summary.open_items][:3]
        elif value is not None and value != "" and value != []:
            summary.constraints[key] = value


def default_for(summary: Summary, field: str) -> tuple[Any, str] | None:
    """A remembered value for ``field`` and how to say it, or None."""
    if field not in _SPOKEN or field not in summary.constraints:
        return None
    value = summary.constraints[field]
    return value, _SPOKEN[field](value)


def build_model_summary(ctx: ConversationRuntimeContext, task_name: Callable[[str], str]) -> ModelSummary:
    """One templated Chinese sentence (≤ 200 chars): no JSON, no ids. ``task_name`` names a task."""
    parts: list[str] = []
    if ctx.active is not None:
        known = describe_params(ctx.active.params)
        sentence = f"用户正在{task_name(ctx.active.intent)}"
        if known:
            sentence += f"（已知：{known}）"
        if ctx.active.expected_input is not None:
            sentence += f"，机器人刚问了“{ctx.active.expected_input.question[:30]}”"
        parts.append(sentence)
    if ctx.pending_confirmation is not None:
        parts.append(f"有一项{task_name(ctx.pending_confirmation.intent)}在等用户确认")
    if ctx.paused:
        parts.append("暂停的事：" + "、".join(task_name(p.session.intent) for p in ctx.paused))
    facts = []
    if ctx.summary.goal:
        facts.append(f"目标{ctx.summary.goal}")
    described = describe_params({k: v for k, v in ctx.summary.constraints.items()
                                  if k in ("people", "budget", "dislikes", "city")})
    if described:
        facts.append(described)
    if facts:
        parts.append("已知用户信息：" + "，".join(facts))
    text = "；".join(parts) + "。" if parts else "这是一段新的对话，没有进行中的事情。"
    return ModelSummary(text=text[:MAX_SUMMARY_CHARS])
