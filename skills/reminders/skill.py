"""The reminders skill: create, list, cancel (confirmed by the engine) and snooze after a push.

The engine fills the slots: ``when`` arrives as :meth:`TimeExpr.to_param` (a dict), ``content``
and ``target`` as text (or what the ``extract`` functions pulled out of the first message).
Every write is keyed by the message id, so a retried message never doubles a reminder.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from runtime.skill import (
    ActionSpec,
    DomainObject,
    Entity,
    Operation,
    SkillResult,
    SkillSpec,
    SlotSpec,
    SlotType,
)
from runtime.skill.parsers import TimeExpr, format_when
from runtime.views import ExecView
from skills.reminders import store
from skills.reminders._amend import amend_reminder
from skills.reminders._create import create_reminder
from skills.reminders._followups import FIRED
from skills.reminders._listing import (
    extract_period,
    line,
    list_reminders,
    local,
    lookup_target,
    target_of,
)
from skills.reminders._move import extract_move_target, extract_move_when, move_reminder
from skills.reminders._text import (
    ALL,
    LATEST,
    PICKED,
    TIMER,
    TIMER_CONTENT,
    extract_content,
    extract_kind,
    extract_target,
)
from skills.reminders._triggers import TRIGGERS
from skills.reminders._when import as_time, check_when

__all__ = ["SPEC", "SNOOZE_DEFAULT"]

SNOOZE_DEFAULT = timedelta(minutes=10)
_PAST = "这个时间已经过去了，换个以后的时间吧？比如「明天早上8点」。"


def _when(value: Any) -> TimeExpr | None:
    return as_time(value)


def cancel_confirm_text(params: Mapping[str, Any]) -> str:
    """The engine's yes/no question before cancelling."""
    target = target_of(params)
    if target == TIMER:
        return "确认停止计时器吗？"
    if target == ALL:
        return "确认取消全部提醒吗？"
    if target == LATEST:
        return "确认取消刚才设的提醒吗？"
    if isinstance(target, int):
        return f"确认取消第{target}个提醒吗？"
    if target is not None and target.startswith(PICKED):  # "#12 吃药（每天 08:00）"
        return f"确认取消「{target.split(' ', 1)[-1]}」这条提醒吗？"
    return f"确认取消「{target}」的提醒吗？"


def cancel_reminders(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """Cancel by list number, by content words, or all of them."""
    target = target_of(params)
    active = store.list_active(services.db, view.user)
    if not active:
        return SkillResult("你现在没有待提醒的事项，不用取消。", data={"cancelled": 0})
    if target == TIMER:
        chosen = [r for r in active if r.content == TIMER_CONTENT]
        if not chosen:
            return SkillResult("现在没有进行中的计时器。", data={"cancelled": 0})
        store.cancel(services.db, [r.reminder_id for r in chosen])
        return SkillResult("计时器已停止。", data={"cancelled": len(chosen), "ids": [r.reminder_id for r in chosen]},
                           dto={"cancelled": [r.content for r in chosen]})
    chosen = store.select_targets(active, target) if target is not None else []
    if not chosen:
        listing = "\n".join(line(view, r) for r in active)
        return SkillResult(f"没找到要取消的提醒。你现在的提醒：\n{listing}\n回复编号或「全部」。",
                           data={"cancelled": 0}, ok=False)
    store.cancel(services.db, [r.reminder_id for r in chosen])
    if target == ALL and len(chosen) > 1:
        reply = f"已取消全部{len(chosen)}条提醒。"
    else:
        reply = "已取消提醒：" + "、".join(r.content for r in chosen)
    return SkillResult(reply, data={"cancelled": len(chosen), "ids": [r.reminder_id for r in chosen]},
                       dto={"cancelled": [r.content for r in chosen]})


def snooze_reminder(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """Repeat the most recently pushed reminder later: at ``when``, after ``later`` minutes, else in 10."""
    when = _when(params.get("when"))
    later = params.get("later")
    wait = timedelta(minutes=float(later)) if isinstance(later, int | float) and later > 0 else SNOOZE_DEFAULT
    at = when.at if when is not None else view.now + wait
    if at <= view.now:
        return SkillResult(_PAST, ok=False)
    content = store.snooze(services.db, user=view.user, at=at, msg_id=view.msg_id)
    if content is None:
        return SkillResult("最近没有发给你的提醒。要新建提醒可以说「10分钟后提醒我关火」。", ok=False)
    said = format_when(local(view, at))
    return SkillResult(f"好的，{said} 再提醒你：{content}", data={"at": at.isoformat()},
                       dto={"content": content, "when": said},
                       entities=(Entity("reminder", content, None, {"due": at.isoformat(),
                                                                    "said_at": view.now.isoformat()}),))


def _list_shown(facts: Mapping[str, Any]) -> str:
    """How many reminders were listed (for the model summary; never what they say)."""
    when = facts.get("period") or facts.get("day") or ""
    count = facts.get("count") or 0
    when = f"{when}的" if when else ""
    return f"给用户列了{when}{count}条提醒" if count else f"告诉用户{when}没有待提醒的事"


SPEC = SkillSpec(
    triggers=TRIGGERS,
    name="reminders",
    description="提醒：按时间提醒用户做某事，支持重复、查看、取消和稍后再提醒。",
    help="设提醒：比如“明天早上8点提醒我带伞”“我的提醒”",
    objects=(DomainObject("reminder", ("提醒事项", "提醒", "闹钟", "闹铃", "日程", "行程", "待办", "计时器", "安排",
                                       "要做的事", "要办的事", "要记着的事", "要记的事"),
                          ((Operation.SEE, "reminder.list"), (Operation.CREATE, "reminder.create"),
                           (Operation.DELETE, "reminder.cancel"), (Operation.SNOOZE, "reminder.snooze"),
                           (Operation.CHANGE, "reminder.move")),
                          noun="提醒", pick="target", signals=("催", "叫我", "喊我", "忘", "记得", "记着", "到点")),),
    actions=(
        ActionSpec(
            name="create", intent="reminder.create", run=create_reminder, writes=False, amend=amend_reminder,
            task="设提醒", shown_as="设了一条{when}的提醒",
            undo="reminder.cancel", undo_with=(("target", LATEST),),
            description="新建提醒",
            slots=(
                SlotSpec("when", SlotType.TIME, "什么时候提醒你？比如「明天早上8点」。", check=check_when),
                SlotSpec("content", SlotType.TEXT, "要提醒你做什么？", extract=extract_content),
            ),
        ),
        ActionSpec(name="list", intent="reminder.list", run=list_reminders, read_only=True, description="查看提醒",
                   task="查看提醒", shown_as=_list_shown,
                   slots=(SlotSpec("kind", SlotType.TEXT, "要看提醒还是计时器？", required=False,
                                   extract=extract_kind),
                          SlotSpec("day", SlotType.TIME, "要看哪天的提醒？", required=False),
                          SlotSpec("period", SlotType.TEXT, "要看哪段时间的提醒？", required=False,
                                   extract=extract_period))),
        ActionSpec(
            name="cancel", intent="reminder.cancel", run=cancel_reminders, writes=True,
            confirm_text=cancel_confirm_text, description="取消提醒", task="取消提醒", shown_as="取消了提醒",
            slots=(SlotSpec("target", SlotType.TEXT, "要取消哪个提醒？回复编号、内容，或「全部」。",
                            extract=extract_target, lookup=lookup_target),),
        ),
        ActionSpec(
            name="move", intent="reminder.move", run=move_reminder, writes=False, reports_as="reminder.create",
            description="把一个提醒改到别的时间", task="改提醒时间", shown_as="改了一条提醒的时间",
            slots=(SlotSpec("target", SlotType.TEXT, "要改哪个提醒？回复编号或内容。", extract=extract_move_target),
                   SlotSpec("when", SlotType.TIME, "改到什么时候？比如「周五上午9点」。", within=extract_move_when)),
        ),
        ActionSpec(
            name="snooze", intent="reminder.snooze", run=snooze_reminder, writes=False,
            description="稍后再提醒刚才的提醒", task="推迟提醒", reports_as="reminder.create", follow=FIRED,
            shown_as="把刚才的提醒推后了",
            slots=(SlotSpec("when", SlotType.TIME, "多久以后再提醒你？", required=False),),
        ),
    ),
)
