"""Moving a reminder to another time ("复查那个改到周五，时间不变", "喝水那个改成7点半").

The reminder is named by words of its content (or picked from a list shown); the new time keeps what
it does not say: a day alone keeps the clock time, a clock time alone keeps the day, and a repeating
reminder keeps repeating at the new time. A name that fits several, or none, is asked about.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from runtime.skill import SkillResult
from runtime.skill.parsers import TimeExpr
from runtime.views import ExecView
from skills.reminders import store
from skills.reminders._create import PAST, create_reminder
from skills.reminders._listing import _entities, line, local
from skills.reminders._text import PICKED, parse_target
from skills.reminders._when import as_time

__all__ = ["extract_move_target", "extract_move_when", "move_reminder"]

_MOVE = re.compile(r"(?:时间)?(?:改到|改成|改为|改在|挪到|移到|推到|推迟到|延后到|延到|提前到|换到|调到|调成)")
_PART = re.compile(r"早|上午|中午|午|下午|晚|夜|凌晨|傍晚|黄昏|清晨")
_DAY_WORDS = re.compile(r"[今明后昨]天|大?后天|周|星期|礼拜|号|日|月|年|[节夕]|初|廿")


def extract_move_target(text: str) -> str | None:
    """The words before the move that name the reminder ("复查那个改到周五" → 复查)."""
    m = _MOVE.search(text)
    if m is None:
        return None
    target = parse_target(text[:m.start()] + "取消")  # read as a cancel target is read: 那个/提醒 dropped
    return target if isinstance(target, str) and target and target != "取消" else None


def extract_move_when(text: str) -> str | None:
    """The words after the move, where its new time is said ("周五，时间不变")."""
    m = _MOVE.search(text)
    rest = text[m.end():].strip(" ，,。.!！吧") if m is not None else ""
    return rest or None


def _new_time(when: TimeExpr, old: datetime, now: datetime) -> datetime | None:
    """The moment ``when`` moves a reminder due at ``old`` to (both aware, the user's zone)."""
    if when.unexplained:
        return None
    dated = when.dated if when.dated is not None else bool(_DAY_WORDS.search(when.said))
    if not when.has_time:  # 改到周五(，时间不变): that day, the old clock time
        return when.at.replace(hour=old.hour, minute=old.minute, second=0, microsecond=0)
    if not dated:  # 改成7点半: the old day, the new clock time, in the half of the day nearest the old one
        hour = when.at.hour
        if not _PART.search(when.said) and 1 <= hour % 12 <= 11:
            hour = min((hour % 12, hour % 12 + 12), key=lambda h: abs(h - old.hour))
        moved = old.replace(hour=hour, minute=when.at.minute, second=0, microsecond=0)
        return moved if moved > now else when.at
    return when.at


def move_reminder(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """Set the reminder named by ``target`` again at the time ``when`` says; the old one is cancelled."""
    active = store.list_active(services.db, view.user)
    raw = params.get("target")
    target = raw if isinstance(raw, str) and raw.startswith(PICKED) else parse_target(str(raw or ""))
    chosen = store.select_targets(active, target) if target is not None else []
    if len(chosen) != 1:
        shown = chosen if len(chosen) > 1 else active
        if not shown:
            return SkillResult("你现在没有待提醒的事项，没有可以改的。", ok=False)
        listing = "\n".join(line(view, r) for r in shown)
        return SkillResult(f"要改哪一个？\n{listing}\n回复编号，或者说「X那个改到…」。", ok=False, asks=True,
                           entities=_entities(view, shown))
    old = chosen[0]
    when = as_time(params.get("when"))
    at = _new_time(when, local(view, old.next_due), view.now) if when is not None else None
    if when is None or at is None:
        return SkillResult(f"「{old.content}」要改到什么时候？比如「周五上午9点」。", ok=False, asks=True)
    if at <= view.now:
        return SkillResult(PAST, ok=False)
    result = create_reminder(view, {"when": {"at": at.isoformat(), "rrule": old.rrule, "has_time": True,
                                             "said": when.said}, "content": old.content}, services)
    if not result.ok:
        return result
    store.cancel(services.db, [old.reminder_id])
    return SkillResult("改好了：" + result.reply.removeprefix("好的，"), data=result.data, dto=result.dto,
                       facts=result.facts, entities=result.entities)
