"""A correction right after a reminder was set ("不对，改成9点", "哦不对，是大后天") moves that reminder.

The engine calls :func:`amend_reminder` with the corrected slots plus ``replaces`` (the id the last
create returned as ``ref``), ``previous`` (its params) and ``said`` (the correction's own words).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from runtime.skill import SkillResult, TimeExpr
from runtime.views import ExecView
from skills.reminders import store

__all__ = ["amend_reminder", "merged_when"]

_DATE_WORDS = re.compile(r"天|号|日|周|星期|礼拜|月|年|节|晚|早|下午|上午|中午|凌晨")


def _expr(value: Any) -> TimeExpr | None:
    if isinstance(value, Mapping):
        try:
            return TimeExpr.from_param(dict(value))
        except (KeyError, ValueError, TypeError):
            return None
    return None


def merged_when(new: TimeExpr, old: TimeExpr, said: str) -> TimeExpr:
    """The corrected moment: a new day keeps the old clock time; a new clock time keeps the old day."""
    if not new.has_time and old.has_time:  # "是大后天": the day changes, the time stays
        at = new.at.replace(hour=old.at.hour, minute=old.at.minute, second=0, microsecond=0)
        return TimeExpr(at=at, rrule=new.rrule or old.rrule, has_time=True, span=new.span)
    if new.has_time and not _DATE_WORDS.search(said):  # "改成9点": the time changes, the day stays
        hour = new.at.hour
        if hour % 12 and not re.search(r"\d{2}:|1[2-9]点|2[0-3]点", said):  # 9点 said after 8:00 means 9:00
            hour = min((hour % 12, hour % 12 + 12), key=lambda h: abs(h - old.at.hour))
        at = old.at.replace(hour=hour, minute=new.at.minute, second=0, microsecond=0)
        return TimeExpr(at=at, rrule=old.rrule, has_time=True, span=new.span)
    return new


def amend_reminder(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """Replace the reminder just set with one at the corrected time or with the corrected content."""
    from skills.reminders.skill import create_reminder

    new, old = _expr(params.get("when")), _expr((params.get("previous") or {}).get("when"))
    fixed = dict(params)
    if new is not None and old is not None:
        fixed["when"] = merged_when(new, old, str(params.get("said") or "")).to_param()
    result = create_reminder(view, fixed, services)
    replaced = params.get("replaces")
    if result.ok and isinstance(replaced, int) and result.data.get("reminder_id") != replaced:
        store.cancel(services.db, [replaced])
        return SkillResult("改好了：" + result.reply.removeprefix("好的，"), data=result.data, dto=result.dto,
                           facts=result.facts)
    return result
