"""What the admin page shows people instead of codes: Chinese names, local 24-hour times, outcomes.

Pure functions over plain values; the page receives their results with the data (``*_text`` and
``label`` fields), so the browser's own zone and locale never change what an operator reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from skills import registry

STAGE_NAMES = {
    "event": "事件", "control": "控制命令", "expected_input": "等待中的回答", "rules": "规则",
    "intent_model": "本地意图模型", "llm_router": "大模型路由", "fallback": "兜底",
}
SKILL_NAMES = {
    "dinner": "安排晚饭", "reminders": "提醒", "exercise": "运动", "profile": "健康档案", "pantry": "冰箱库存",
    "datetime": "日期时间", "weather": "天气",
}
SLOT_NAMES = {
    "people": "人数", "budget": "预算", "dietary": "忌口", "when": "时间", "content": "提醒内容",
    "activity": "运动项目", "minutes": "时长", "distance_km": "距离", "goal": "目标", "height_cm": "身高",
    "weight_kg": "体重", "city": "城市", "day": "日期", "items": "食材", "target": "对象", "level": "强度",
    "dislikes": "不吃的", "allergies": "过敏", "question": "问题", "choice": "选项",
}
SENT_AS = {"passive": "被动回复", "custom": "客服消息", "template": "模板消息", "subscribe": "订阅消息"}
FAILED = {"failed": "失败", "refused": "失败（用户拒收）", "dropped": "失败（已放弃）"}
UNCERTAIN = frozenset({"uncertain", "resent_uncertain"})


def local_time(moment: datetime, tz: str) -> str:
    """``moment`` in the bot's zone, 24-hour: ``2026-12-01 20:05:09``."""
    return moment.astimezone(ZoneInfo(tz)).strftime("%Y-%m-%d %H:%M:%S")


def stage_name(stage: str) -> str:
    """``规则（rules）``: the Chinese name with the code operators grep logs for."""
    return f"{STAGE_NAMES.get(stage, stage)}（{stage}）"


def delivery_label(channel: str, outcome: str) -> str:
    """What happened to one outgoing text, named for people: 被动回复, 客服消息, 模板消息, 等下次互动,
    失败, 不确定 (a send that may or may not have reached WeChat)."""
    if outcome in UNCERTAIN:
        return "不确定"
    if outcome == "parked" or channel == "park":
        return "等下次互动"
    if outcome in FAILED:
        return FAILED[outcome]
    if outcome == "duplicate":
        return f"{SENT_AS.get(channel, channel)}（重复，未再发）"
    return SENT_AS.get(channel, f"{channel} · {outcome}")


def counted_deliveries(fields: Mapping[str, int]) -> dict[str, int]:
    """The delivery counters (``reply:custom:sent`` …) summed by :func:`delivery_label`."""
    out: dict[str, int] = {}
    for field, count in fields.items():
        _kind, _, rest = field.partition(":")
        channel, _, outcome = rest.partition(":")
        label = delivery_label(channel, outcome)
        out[label] = out.get(label, 0) + int(count)
    return dict(sorted(out.items(), key=lambda item: -item[1]))


def state_text(state: Mapping[str, Any]) -> str:
    """A conversation state snapshot in a sentence: ``安排晚饭 · 等待：人数 · 暂停：提醒``; ``空闲`` when
    nothing is going on."""
    parts: list[str] = []
    if state.get("active_skill"):
        skill = str(state["active_skill"])
        parts.append(SKILL_NAMES.get(skill, skill))
    if state.get("expected_field"):
        field = str(state["expected_field"])
        parts.append(f"等待：{SLOT_NAMES.get(field, field)}")
    if state.get("pending_confirmation"):
        parts.append(f"待确认：{registry().task_name(str(state['pending_confirmation']))}")
    paused = [SKILL_NAMES.get(str(p), str(p)) for p in state.get("paused") or []]
    if paused:
        parts.append(f"暂停：{'、'.join(paused)}")
    return " · ".join(parts) if parts else "空闲（没有进行中的任务）"


def entry_view(entry: Mapping[str, Any], tz: str) -> dict[str, Any]:
    """A transcript entry as JSON (``model_dump(mode="json")``) plus what the page shows of it."""
    out = dict(entry)
    if entry.get("kind") == "turn":
        trace = dict(entry["trace"])
        trace["stage_name"] = stage_name(str(trace.get("stage", "")))
        trace["state_before_text"] = state_text(trace.get("state_before") or {})
        trace["state_after_text"] = state_text(trace.get("state_after") or {})
        out["trace"] = trace
        out["time"] = local_time(datetime.fromisoformat(entry["inbound"]["at"]), tz)
    elif entry.get("kind") == "delivery":
        out["time"] = local_time(datetime.fromisoformat(entry["recorded_at"]), tz)
        out["label"] = delivery_label(str(entry.get("channel", "")), str(entry.get("outcome", "")))
    return out
