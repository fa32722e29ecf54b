"""Reading the user's reminders: the numbered list (all, or one day's), timers, and which one a cancel names."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from runtime.skill import Choice, Entity, SkillResult
from runtime.skill.parsers import describe_rrule, format_when
from runtime.views import ExecView
from skills.reminders import store
from skills.reminders._text import ALL, TIMER, TIMER_CONTENT, parse_target
from skills.reminders._when import as_time

__all__ = ["left", "line", "list_reminders", "local", "lookup_target", "target_of"]

NOTHING = "你现在没有待提醒的事项。可以说「明天早上8点提醒我开会」来添加。"
NOTHING_TO_CANCEL = "你现在没有待提醒的事项，不用取消。"


def local(view: ExecView, dt: datetime) -> datetime:
    """``dt`` on the user's clock."""
    return dt.astimezone(ZoneInfo(view.tz))


def left(view: ExecView, at: datetime) -> str:
    """How long until ``at``: 1小时5分钟 / 4分30秒 / 20秒."""
    seconds = max(0, int((at - view.now).total_seconds()))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}小时{minutes}分钟" if minutes else f"{hours}小时"
    if minutes:
        return f"{minutes}分{secs}秒" if secs else f"{minutes}分钟"
    return f"{secs}秒"


def line(view: ExecView, item: store.ActiveReminder) -> str:
    """One numbered line of the list (the number is the one a cancel refers to)."""
    at = local(view, item.next_due)
    if item.rrule:
        return f"{item.number}. {describe_rrule(item.rrule, at)} {item.content}（下次 {format_when(at)}）"
    return f"{item.number}. {format_when(at)} {item.content}"


def _days(params: Mapping[str, Any], view: ExecView) -> tuple[str, set[date]] | None:
    """The days a list asks about ("明天有什么提醒", "周末有啥提醒"), as said and as dates; None for all."""
    when = as_time(params.get("day"))
    if when is None or when.rrule:
        return None
    first = local(view, when.at).date()
    said = when.said or f"{first.month}月{first.day}日"
    if "周末" in said and first.weekday() == 5:
        return said, {first, first + timedelta(days=1)}
    return said, {first}


def list_reminders(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """The user's pending reminders, numbered (the numbers cancel refers to); one day's when a day is said."""
    active = store.list_active(services.db, view.user)
    if params.get("kind") == TIMER:
        return _timers(view, active)
    days = _days(params, view)
    shown = active if days is None else [r for r in active if local(view, r.next_due).date() in days[1]]
    if days is not None:
        dates = "、".join(f"{d.month}月{d.day}日" for d in sorted(days[1]))
        head = f"{days[0]}（{dates}）"
        if not shown:
            more = f"你一共有{len(active)}条提醒，说「我的提醒」可以都看看。" if active else ""
            return SkillResult(f"{head}没有提醒。{more}", data={"count": 0}, dto={"reminders": []})
        title = f"{head}的提醒（{len(shown)}条）"
    elif not active:
        return SkillResult(NOTHING, data={"count": 0}, dto={"reminders": []})
    else:
        title = f"你的提醒（共{len(active)}条）"
    lines = "\n".join(line(view, r) for r in shown)
    return SkillResult(
        f"{title}：\n{lines}\n回复编号或「取消第{shown[0].number}个」可以取消。",
        choices=tuple(Choice(r.content, "reminder.cancel", {"target": r.number}) for r in shown),
        entities=tuple(Entity("reminder", r.content, None, {"due": r.next_due.isoformat()}) for r in shown),
        data={"count": len(shown), "ids": [r.reminder_id for r in shown]},
        dto={"reminders": [{"number": r.number, "content": r.content,
                            "when": format_when(local(view, r.next_due))} for r in shown]},
    )


def _timers(view: ExecView, active: list[store.ActiveReminder]) -> SkillResult:
    timers = [r for r in active if r.content == TIMER_CONTENT]
    if not timers:
        return SkillResult("现在没有进行中的计时器。可以说「10分钟计时器」开始计时。", data={"count": 0},
                           dto={"timers": []})
    lines = "；".join(f"还剩{left(view, r.next_due)}（{local(view, r.next_due):%H:%M:%S} 到点）" for r in timers)
    return SkillResult(f"计时器{lines}。", data={"count": len(timers), "ids": [r.reminder_id for r in timers]},
                       dto={"timers": [left(view, r.next_due) for r in timers]})


def target_of(params: Mapping[str, Any]) -> int | str | None:
    """The cancel target in ``params``: a list number, 全部, 计时, or words of the content."""
    raw = params.get("target")
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, float) and raw.is_integer():
        return int(raw)
    return parse_target(str(raw)) if raw is not None else None


def lookup_target(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult | None:
    """Before a cancel is asked or confirmed: nothing to cancel ends the task; a target that names no
    reminder (or none yet) is asked for with the numbered list; a target that names one goes on."""
    active = store.list_active(services.db, view.user)
    target = target_of(params)
    if target == TIMER:
        if any(r.content == TIMER_CONTENT for r in active):
            return None
        return SkillResult("现在没有进行中的计时器。", ok=False)
    if not active:
        return SkillResult(NOTHING_TO_CANCEL, ok=False)
    if target is not None and store.select_targets(active, target):
        return None
    listing = "\n".join(line(view, r) for r in active)
    if target is None or target == ALL:
        head = "要取消哪个提醒？"
    elif isinstance(target, int):
        head = f"没有第{target}个提醒。要取消哪个？"
    else:
        head = f"没找到「{target}」的提醒。要取消哪个？"
    return SkillResult(f"{head}你现在的提醒：\n{listing}\n回复编号、内容或「全部」；不取消就说「算了」。")
