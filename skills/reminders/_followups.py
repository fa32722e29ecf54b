"""How a reminder just shown is followed up: one that just fired can come again later ("过十分钟再叫我",
"明天这个点再提醒我"); a listed one can be picked and cancelled (the ``reminder`` object's ``pick``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from runtime.skill import Entity, FollowUps, Modifier, SkillResult
from runtime.skill.parsers import TimeExpr, parse_time_phrase, parse_value
from skills.smalltalk import DONE_SAID

__all__ = ["FIRED", "fired"]

_SAME_TIME = re.compile(r"这个点|这个时候|这个时间|同一(?:个)?时间|同样的?时间|现在这个点")


def fired(content: str, due: str) -> SkillResult:
    """The focus a push leaves behind: the reminder that just fired (its content, and when it was due)."""
    return SkillResult("", entities=(Entity("reminder", content, None, {"due": due}),))


def _due(entity: Entity | None) -> datetime | None:
    due = entity.attrs.get("due") if entity is not None else None
    return datetime.fromisoformat(due) if isinstance(due, str) and due else None


def _later(params: Mapping[str, Any], m: re.Match[str], entity: Entity | None,
           shown: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """Again after a while: an amount said ("再等十分钟"), a day at the same time ("明天这个点"), a time
    said ("明天晚上8点"); none of them: the default wait."""
    text, due = m.string, _due(entity)
    if due is not None and _SAME_TIME.search(text):
        days = 1 if "明天" in text else 2 if "后天" in text else 0
        if days:
            return {"when": TimeExpr(at=due + timedelta(days=days), has_time=True, said="明天这个点").to_param()}
    if due is not None:
        expr = parse_time_phrase(text, due)
        if expr is not None and expr.has_time and expr.at > due:
            return {"when": expr.to_param()}
    minutes = parse_value("duration", text)
    if isinstance(minutes, int | float) and 0 < minutes <= 24 * 60:
        return {"later": float(minutes)}
    return {}


def _also(params: Mapping[str, Any], m: re.Match[str], entity: Entity | None,
          shown: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The same reminder on another day said, at the same time ("后天也要", "周末也提醒一下")."""
    due = _due(entity)
    if due is None or entity is None:
        return None
    said_at = entity.attrs.get("said_at")  # "后天" counts from the day it was said, not from the due time
    expr = parse_time_phrase(m.string, datetime.fromisoformat(said_at) if isinstance(said_at, str) else due)
    if expr is None or expr.rrule:
        return None
    clock = due.astimezone(expr.at.tzinfo)  # the due time as the user's clock shows it
    at = expr.at if expr.has_time else expr.at.replace(hour=clock.hour, minute=clock.minute, second=0, microsecond=0)
    if at <= due:
        return None
    return {"when": TimeExpr(at=at, has_time=True, said=expr.said).to_param(), "content": entity.name}


def _done(params: Mapping[str, Any], m: re.Match[str], entity: Entity | None,
          shown: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """"做完了" right after a reminder fired: what it asked for is done — acknowledged, nothing to ask."""
    return {"kind": "done"}


FIRED = FollowUps(
    modifiers=(
        Modifier("done", DONE_SAID, _done, intent="chitchat"),
        Modifier("again on another day", r"也要|也得|也提醒|也叫|也喊|也一样|照旧|同样提醒", _also,
                 intent="reminder.create"),
        Modifier("again later",
                 r"(?:过|等|晚)\s*[^，,。]{0,6}?(?:再|后|叫|喊|提醒|通知|催)(?:我|一下|一声)*|再(?:叫|提醒|喊|通知|催)我?|到点再|稍后|"
                 r"晚点|待会|一会儿?|推迟|晚\s*(?:半|[一两二三四五六七八九十\d]+)\s*个?(?:小时|钟头|分钟)|"
                 r"延后|往后推|挪到|这个点|这个时候|同一时间", _later, intent="reminder.snooze"),
    ),
)
