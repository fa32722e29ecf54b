"""Tools the fallback agent may call, and how a turn's bundle is chosen.

Read tools return data (a skill's trimmed DTO) that reaches the model as rendered text. Write tools
are known only so a call to one can be turned into a pending confirmation; they are never offered.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from runtime.skill import ActionSpec, SkillResult, SkillSpec

__all__ = [
    "REQUEST_CHANGE",
    "AgentTool",
    "Bundle",
    "BundleChoice",
    "ToolFailed",
    "choose_bundle",
    "datetime_tool",
    "request_change_tool",
    "tool_name",
    "tools_from_skills",
]

ToolOutput = Mapping[str, Any] | Sequence[Any] | str
REQUEST_CHANGE = "request_change"
_WEEKDAYS = "一二三四五六日"


class ToolFailed(Exception):
    """A tool could not answer; its message is user-safe and is fed back to the model."""


@dataclass(frozen=True)
class AgentTool:
    """One tool. ``run`` is None for write tools (they are never executed by the agent)."""

    name: str
    description: str
    parameters: Mapping[str, Any] = field(default_factory=lambda: {"type": "object", "properties": {}})
    run: Callable[[Mapping[str, Any]], ToolOutput] | None = None
    intent: str | None = None
    writes: bool = False

    def schema(self) -> dict[str, Any]:
        """The OpenAI tool schema."""
        return {"type": "function",
                "function": {"name": self.name, "description": self.description, "parameters": dict(self.parameters)}}


def tool_name(intent: str) -> str:
    """The tool name of an intent (``weather.query`` → ``weather_query``)."""
    return re.sub(r"[^a-zA-Z0-9_]", "_", intent)


def datetime_tool(now: Callable[[], datetime]) -> AgentTool:
    """Today's (or an offset day's) date, weekday and time in the user's timezone."""

    def run(args: Mapping[str, Any]) -> ToolOutput:
        try:
            offset = int(args.get("offset_days") or 0)
        except (TypeError, ValueError) as exc:
            raise ToolFailed("offset_days 必须是整数") from exc
        if abs(offset) > 366:
            raise ToolFailed("offset_days 超出范围")
        current = now()
        day = current + timedelta(days=offset)
        return {"日期": f"{day.year}年{day.month}月{day.day}日", "星期": f"星期{_WEEKDAYS[day.weekday()]}",
                "现在时间": current.strftime("%H:%M")}

    params = {"type": "object", "properties": {
        "offset_days": {"type": "integer", "description": "相对今天的天数，明天为1，昨天为-1"}}}
    return AgentTool("datetime_query", "查询日期、星期和当前时间", params, run, intent="datetime.query")


def request_change_tool(write_intents: Iterable[str]) -> AgentTool:
    """The only way the agent can act on a wish to change data: propose it for the user's confirmation."""
    params = {"type": "object", "properties": {
        "intent": {"type": "string", "enum": sorted(write_intents)},
        "details": {"type": "string", "description": "用户要改的内容，一句话"}}, "required": ["intent"]}
    return AgentTool(REQUEST_CHANGE, "用户明确要新建、修改或删除数据时调用；不会直接执行，会先请用户确认", params)


_NUMERIC = {"count", "money", "number", "duration", "distance", "height", "weight"}


def tools_from_skills(skills: Iterable[SkillSpec], run_action: Callable[[ActionSpec, Mapping[str, Any]], SkillResult],
                      read_only: Iterable[str]) -> list[AgentTool]:
    """One tool per skill action: read-only intents get a runner, the others are write tools.

    ``run_action(action, args)`` runs an action for this turn (the engine supplies the exec view and
    services) and returns its :class:`~runtime.skill.SkillResult`; the tool hands the model its
    ``dto`` (or its reply text).
    """
    readable = frozenset(read_only)
    tools: list[AgentTool] = []
    for skill in skills:
        for action in skill.actions:
            if action.crisis:
                continue  # the crisis answer is reached by detection, never by a model
            intent = str(action.intent)
            props = {
                str(s.name): {"type": "number" if str(s.parser) in _NUMERIC else "string",
                              "description": str(s.question)}
                for s in action.slots
            }
            params = {"type": "object", "properties": props}
            description = action.description or intent
            writes = action.writes or intent not in readable
            runner = None if writes else _runner(action, run_action)
            tools.append(AgentTool(tool_name(intent), description, params, runner, intent=intent, writes=writes))
    return tools


def _runner(action: ActionSpec,
            run_action: Callable[[ActionSpec, Mapping[str, Any]], SkillResult]) -> Callable[[Mapping[str, Any]], ToolOutput]:
    def run(args: Mapping[str, Any]) -> ToolOutput:
        result = run_action(action, args)
        if not result.ok:
            raise ToolFailed(str(result.reply or "查询失败")[:80])
        return dict(result.dto) if result.dto else str(result.reply)
    return run


class Bundle(StrEnum):
    """The kind of tool bundle a turn gets."""

    CHAT = "chat"        # no tools, chat profile
    INFO = "info"        # date and weather
    SKILL = "skill"      # read-only queries of the user's own data (+ request_change)


@dataclass(frozen=True, slots=True)
class BundleChoice:
    """The bundle for a turn and the intents whose read tools it contains."""

    bundle: Bundle
    intents: tuple[str, ...] = ()


def choose_bundle(text: str, hints: Sequence[str] = ()) -> BundleChoice:
    """The bundle when the caller chose none: the read tools of the intents earlier stages thought
    plausible (``hints``), else chat only. The engine chooses from the domain the message names."""
    return BundleChoice(Bundle.SKILL, tuple(hints)) if hints else BundleChoice(Bundle.CHAT)
