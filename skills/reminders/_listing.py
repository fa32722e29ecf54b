"""Reading the user's reminders: the numbered list (all, or one day's), timers, and which one a cancel names."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from runtime.skill import Choice, Entity, SkillResult
from runtime.skill.parsers import describe_rrule, format_when, next_occurrence
from runtime.views import ExecView
from skills.reminders import store
from skills.reminders._text import ALL, LATEST, PICKED, TIMER, TIMER_CONTENT, parse_target
from skills.reminders._when import as_time

__all__ = ["extract_period", "left", "line", "list_reminders", "local", "lookup_target", "target_of"]

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
        return f"{item.number}. {describe_rrule(item.rrule, at)} {item.content}（下次 {format_when(at, view.now)}）"
    return f"{item.number}. {format_when(at, view.now)} {item.content}"


_PERIOD = re.compile(r"(这|本|下下?|上)个?(周|星期|礼拜|月)")


def extract_period(text: str) -> str | None:
    """A week or a month a list asks about ("这周都有啥要提醒的", "下个月的提醒"), as said."""
    m = _PERIOD.search(text)
    return m.group() if m and not re.search(r"(周|星期|礼拜)[一二三四五六日天1-7]", text[m.start():m.end() + 1]) else None


def _period(said: str, today: date) -> set[date]:
    """The days of 这周/下周/这个月/下个月 (from today on, for the current one)."""
    shift = 2 if "下下" in said else 1 if "下" in said else -1 if "上" in said else 0
    if "月" in said:
        year, month = today.year, today.month + shift
        year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
        first = date(year, month, 1)
        days = (date(year + month // 12, month % 12 + 1, 1) - first).days
        return {first + timedelta(days=n) for n in range(days) if first + timedelta(days=n) >= today or shift}
    monday = today - timedelta(days=today.weekday()) + timedelta(weeks=shift)
    return {monday + timedelta(days=n) for n in range(7) if monday + timedelta(days=n) >= today or shift}


def _days(params: Mapping[str, Any], view: ExecView) -> tuple[str, set[date]] | None:
    """The days a list asks about ("明天有什么提醒", "周末有啥提醒", "这周"), as said and as dates; None for all."""
    period = params.get("period")
    if isinstance(period, str) and period:
        return period, _period(period, local(view, view.now).date())
    when = as_time(params.get("day"))
    if when is None or when.rrule:
        return None
    first = local(view, when.at).date()
    said = when.said or f"{first.month}月{first.day}日"
    if "周末" in said and first.weekday() == 5:
        return said, {first, first + timedelta(days=1)}
    return said, {first}


def _falls_on(view: ExecView, item: store.ActiveReminder, days: set[date]) -> bool:
    """Whether ``item`` is due on one of ``days`` (a repeating one on any of its occurrences)."""
    if local(view, item.next_due).date() in days:
        return True
    if not item.rrule or not days:
        return False
    last = max(days)
    start = local(view, item.next_due)  # the rule's days are the user's days, not UTC's
    at: datetime | None = start
    for _ in range(400):
        at = next_occurrence(item.rrule, start, at) if at is not None else None
        if at is None or local(view, at).date() > last:
            return False
        if local(view, at).date() in days:
            return True
    return False


def list_reminders(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """The user's pending reminders, numbered (the numbers cancel refers to); one day's when a day is said."""
    active = store.list_active(services.db, view.user)
    if params.get("kind") == TIMER:
        return _timers(view, active)
    days = _days(params, view)
    shown = active if days is None else [r for r in active if _falls_on(view, r, days[1])]
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
        entities=_entities(view, shown),
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


def _entities(view: ExecView, shown: list[store.ActiveReminder]) -> tuple[Entity, ...]:
    """The reminders listed, as they were numbered (what "第二个" or "早上那个" picks next)."""
    return tuple(Entity("reminder", r.content, f"{PICKED}{r.reminder_id} {r.content}（{_when(view, r)}）",
                        {"due": r.next_due.isoformat(), "aka": _aka(local(view, r.next_due))}) for r in shown)


def _when(view: ExecView, item: store.ActiveReminder) -> str:
    at = local(view, item.next_due)
    return describe_rrule(item.rrule, at) if item.rrule else format_when(at)


def _aka(at: datetime) -> str:
    """Other words that name a reminder by its time: its part of the day and its weekday ("早上那个")."""
    part = ("凌晨" if at.hour < 5 else "早上" if at.hour < 9 else "上午" if at.hour < 11 else "中午" if at.hour < 13
            else "下午" if at.hour < 18 else "晚上")
    return f"{part} 周{'一二三四五六日'[at.weekday()]} {at.month}月{at.day}日 {at.hour}点"


def target_of(params: Mapping[str, Any]) -> int | str | None:
    """The cancel target in ``params``: a list number, 全部, 计时, or words of the content."""
    raw = params.get("target")
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, float) and raw.is_integer():
        return int(raw)
    if isinstance(raw, str) and raw.startswith(PICKED):
        return raw  # one reminder picked from a list shown ("#12 吃药")
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
    chosen = store.select_targets(active, target) if target is not None else []
    if len(chosen) > 1 and target not in (ALL, LATEST) and isinstance(target, str):  # 取消一个吃药的: which?
        listing = "\n".join(line(view, r) for r in chosen)
        return SkillResult(f"有{len(chosen)}条「{target}」的提醒，要取消哪个？\n{listing}\n回复编号，或者说「都取消」。",
                           entities=_entities(view, chosen))
    if chosen:
        return None
    listing = "\n".join(line(view, r) for r in active)
    if target is None or target == ALL:
        head = "要取消哪个提醒？"
    elif isinstance(target, int) or target.startswith(PICKED):
        head = f"没有第{target}个提醒。要取消哪个？"
    else:
        head = f"没找到「{target}」的提醒。要取消哪个？"
    return SkillResult(f"{head}你现在的提醒：\n{listing}\n回复编号、内容或「全部」；不取消就说「算了」。",
                       entities=_entities(view, active))
