"""reminder.create: store the reminder at the time said and confirm it back in the bot's own words."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from runtime.skill import Entity, SkillResult
from runtime.skill.parsers import TimeExpr, describe_rrule, format_when
from runtime.views import ExecView
from skills.datetime import day_entity
from skills.reminders import store
from skills.reminders._assumed import assumed_note
from skills.reminders._listing import left, local
from skills.reminders._text import TIMER_CONTENT
from skills.reminders._when import as_time, unexplained_question

__all__ = ["PAST", "create_reminder"]

PAST = "这个时间已经过去了，换个以后的时间吧？比如「明天早上8点」。"


def _when(value: Any) -> TimeExpr | None:
    return as_time(value)


def _describe(view: ExecView, at: datetime, rrule: str | None) -> str:
    mine = local(view, at)
    if rrule:
        return f"{describe_rrule(rrule, mine)}（第一次：{format_when(mine, view.now)}）"
    return format_when(mine, view.now)


def create_reminder(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """Store the reminder and confirm it back with the resolved time."""
    when = _when(params.get("when"))
    content = str(params.get("content") or "").strip()
    if when is None or not content:
        return SkillResult("没听清提醒的时间或内容，可以说「明天早上8点提醒我开会」。", ok=False)
    question = unexplained_question(when)
    if question:  # never confirm a time that leaves a temporal word unexplained (DESIGN §3.4)
        return SkillResult(question, ok=False)
    if when.at <= view.now:
        return SkillResult(PAST, ok=False)
    reminder_id, created = store.create(services.db, user=view.user, content=content, at=when.at,
                                        rrule=when.rrule, tz=view.tz, msg_id=view.msg_id)
    said = _describe(view, when.at, when.rrule)
    if content == TIMER_CONTENT:
        reply = f"好的，开始计时{left(view, when.at)}，{local(view, when.at):%H:%M:%S} 到点提醒你。"
    else:
        reply = f"好的，{said} 提醒你：{content}{assumed_note(when)}"
    return SkillResult(
        reply,
        data={"reminder_id": reminder_id, "ref": reminder_id, "created": created, "at": when.at.isoformat(),
              "rrule": when.rrule},
        dto={"content": content, "when": said},
        facts={"last_reminder": f"{said} {content}"},
        entities=(Entity("reminder", content, None, {"due": when.at.isoformat()}),
                  day_entity(local(view, when.at).date(), "", when.said or "", minor=True)),
    )
