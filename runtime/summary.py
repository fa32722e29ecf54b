"""The structured summary (long-term facts) and the one-sentence model summary built from it."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from runtime.context import ConversationRuntimeContext, Summary
from runtime.parsers.timephrase import TimeExpr, describe_rrule, format_when
from runtime.views import ModelSummary

MAX_CONFIRMED = 5
MAX_SUMMARY_CHARS = 200

# constraint name -> how a default is spoken ("还是3个人吗？")
_SPOKEN = {
    "people": lambda v: f"{int(v)}个人",
    "budget": lambda v: f"预算{_num(v)}元",
    "city": lambda v: str(v),
}


_UNITS = {"minutes": "{}分钟", "distance_km": "{}公里", "height_cm": "身高{}厘米", "weight_kg": "体重{}公斤",
          "servings": "{}份"}


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


def _when(value: Mapping[str, Any]) -> str:
    try:
        expr = TimeExpr.from_param(dict(value))
    except (KeyError, ValueError, TypeError):
        return "时间"
    return describe_rrule(expr.rrule, expr.at) if expr.rrule else format_when(expr.at)


def _plain(text: str) -> bool:
    """Free text safe to quote in a prompt: no JSON punctuation, no id-like runs."""
    return not re.search(r"[{}\[\]\"'<>:=]|[A-Za-z0-9_\-]{8,}", text)


def describe_params(params: Mapping[str, Any]) -> str:
    parts = []
    for key, value in params.items():
        if key == "people":
            parts.append(f"{_num(value)}人")
        elif key == "budget":
            parts.append(f"预算{_num(value)}元")
        elif key in ("dietary", "dislikes") and isinstance(value, list):
            parts.append("忌口" + ("、".join(map(str, value[:4])) if value else "无"))
        elif key in _UNITS and isinstance(value, int | float):
            parts.append(_UNITS[key].format(_num(value)))
        elif isinstance(value, str) and len(value) <= 12 and _plain(value):
            parts.append(value)
        elif isinstance(value, Mapping) and "at" in value:  # a time slot (TimeExpr.to_param)
            parts.append(_when(value))
        elif isinstance(value, list) and value and all(isinstance(v, str) and len(v) <= 8 and _plain(v) for v in value):
            parts.append("、".join(value[:4]))
    return "，".join(parts)


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
