"""One-line Chinese descriptions of the intent labels, for the routing prompt."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["DEFAULT_DESCRIPTIONS", "RouteLabel", "default_labels", "labels_from_registry"]

DEFAULT_DESCRIPTIONS: dict[str, str] = {
    "weather.query": "问天气",
    "datetime.query": "问日期时间星期节假日",
    "reminder.create": "新建提醒",
    "reminder.list": "查看提醒",
    "reminder.cancel": "取消提醒",
    "dinner.plan": "按人数预算规划晚饭",
    "recipe.query": "问菜谱做法",
    "exercise.plan": "制定运动计划",
    "exercise.log": "记录一次运动",
    "exercise.history": "查看运动记录",
    "profile.view": "查看个人资料",
    "profile.update": "改目标身高体重",
    "pantry.update": "更新家中食材",
    "chitchat": "闲聊问候",
    "unknown": "都不是",
}


@dataclass(frozen=True, slots=True)
class RouteLabel:
    """One intent the router may choose, with its one-line description and the params it accepts."""

    intent: str
    description: str
    params: tuple[str, ...] = ()


def default_labels() -> tuple[RouteLabel, ...]:
    """Every DESIGN §3.2 label with its default description."""
    return tuple(RouteLabel(i, d) for i, d in DEFAULT_DESCRIPTIONS.items())


def labels_from_registry(skills: Iterable[object]) -> tuple[RouteLabel, ...]:
    """Labels for the actions of ``SkillSpec``-like objects, plus ``chitchat`` and ``unknown``.

    Duck-typed (``.actions`` with ``.intent``, ``.description``, ``.slots[].name``) so this module
    does not import the skill protocol.
    """
    seen: dict[str, RouteLabel] = {}
    for skill in skills:
        for action in getattr(skill, "actions", ()):
            intent = str(action.intent)
            if intent in seen:
                continue
            description = str(getattr(action, "description", "") or DEFAULT_DESCRIPTIONS.get(intent, intent))
            params = tuple(str(s.name) for s in getattr(action, "slots", ()))
            seen[intent] = RouteLabel(intent, description, params)
    for intent in ("chitchat", "unknown"):
        seen.setdefault(intent, RouteLabel(intent, DEFAULT_DESCRIPTIONS[intent]))
    return tuple(seen.values())
