"""A correction right after a reminder was set ("不对，改成9点", "哦不对，是大后天") moves that reminder.

The engine calls :func:`amend_reminder` with the corrected slots plus ``replaces`` (the id the last
create returned as ``ref``), ``previous`` (its params).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from runtime.skill import SkillResult
from runtime.skill.parsers import corrected_time
from runtime.views import ExecView
from skills.reminders import store
from skills.reminders._create import create_reminder
from skills.reminders._when import as_time

__all__ = ["amend_reminder"]


def amend_reminder(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """Replace the reminder just set with one at the corrected time or with the corrected content."""
    new, old = as_time(params.get("when")), as_time((params.get("previous") or {}).get("when"))
    fixed = dict(params)
    if new is not None and old is not None:
        fixed["when"] = corrected_time(new, old, new.said).to_param()
    result = create_reminder(view, fixed, services)
    replaced = params.get("replaces")
    if result.ok and isinstance(replaced, int) and result.data.get("reminder_id") != replaced:
        store.cancel(services.db, [replaced])
        return SkillResult("改好了：" + result.reply.removeprefix("好的，"), data=result.data, dto=result.dto,
                           facts=result.facts, entities=result.entities, shown=result.shown)
    return result
