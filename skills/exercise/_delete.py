"""Taking back a logged workout: "删掉刚才那条运动记录", "跑步那条记错了，删了吧", then a number from a list."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC
from typing import Any
from zoneinfo import ZoneInfo

from sqlmodel import Session, col, select

from runtime.skill import Choice, SkillResult
from runtime.views import ExecView
from skills.exercise._log import log
from skills.exercise._met import activity_word, same_activity
from skills.models import ExerciseLog
from skills.store import apply_once

__all__ = ["LATEST", "amend_log", "delete_log", "delete_confirm_text", "extract_log_target"]

LATEST = "latest"
RECENT = 5
_LATEST_WORDS = re.compile(r"刚才|刚刚|最后|最近|上一|这条|那条|上次")


def extract_log_target(text: str) -> str | int | None:
    """Which workout a message means: a list number, an activity, or the latest one."""
    m = re.search(r"第\s*(\d+)\s*[条个次]|^\s*(\d+)\s*$", text)
    if m:
        return int(m.group(1) or m.group(2))
    activity = activity_word(text)  # as said: "俯卧撑那条" is the 俯卧撑, not any 力量训练
    if activity:
        return activity
    return LATEST if _LATEST_WORDS.search(text) else None


def _target(params: Mapping[str, Any]) -> str | int | Mapping[str, Any] | None:
    raw = params.get("target")
    if isinstance(raw, bool) or raw is None:
        return None
    if isinstance(raw, Mapping):  # one workout a result showed: {"id": …, "said": "12月1日 跑步 3公里"}
        return raw if isinstance(raw.get("id"), int) else None
    if isinstance(raw, int | float):
        return int(raw)
    return extract_log_target(str(raw)) or str(raw)


def delete_confirm_text(params: Mapping[str, Any]) -> str:
    """The engine's yes/no question before deleting."""
    target = _target(params)
    if isinstance(target, Mapping):
        return f"确认删除这条运动记录：{target.get('said') or '这一条'}吗？"
    if isinstance(target, int) and not isinstance(target, bool):
        return f"确认删除倒数第{target}条运动记录吗？" if target > 1 else "确认删除最近一条运动记录吗？"
    if isinstance(target, str) and target != LATEST:
        return f"确认删除最近一条{target}记录吗？"
    return "确认删除最近一条运动记录吗？"


def _recent(services: Any, user: str) -> list[ExerciseLog]:
    with Session(services.db) as session:
        return list(session.exec(select(ExerciseLog).where(ExerciseLog.user_id == user)
                                 .order_by(col(ExerciseLog.done_at).desc(), col(ExerciseLog.id).desc())
                                 .limit(RECENT)).all())


def _describe(view: ExecView, row: ExerciseLog) -> str:
    done = row.done_at if row.done_at.tzinfo else row.done_at.replace(tzinfo=UTC)
    local = done.astimezone(ZoneInfo(view.tz))
    amount = "、".join(p for p in (f"{row.distance_km:g}公里" if row.distance_km else "",
                                   f"{round(row.minutes)}分钟" if row.minutes else "") if p)
    return f"{local.month}月{local.day}日 {row.activity} {amount}"


def delete_log(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """Delete one logged workout (once per message): by list number, by activity, or the latest."""
    recent = _recent(services, view.user)
    if not recent:
        return SkillResult("你还没有运动记录，不用删。", data={"deleted": 0})
    target = _target(params)
    chosen: ExerciseLog | None = None
    if isinstance(target, Mapping):
        with Session(services.db) as session:
            row = session.get(ExerciseLog, target["id"])
        if row is None or row.user_id != view.user:
            return SkillResult("这条运动记录已经不在了。", data={"deleted": 0})
        chosen = row
    elif isinstance(target, int) and not isinstance(target, bool) and 1 <= target <= len(recent):
        chosen = recent[target - 1]
    elif isinstance(target, str) and target != LATEST:
        chosen = next((r for r in recent if same_activity(r.activity, target)), None)
    elif target == LATEST:
        chosen = recent[0]
    if chosen is None:
        lines = "\n".join(f"{n}. {_describe(view, r)}" for n, r in enumerate(recent, 1))
        return SkillResult(f"要删哪一条？最近的运动记录：\n{lines}\n回复编号就行。", data={"deleted": 0}, ok=False,
                           choices=tuple(Choice(_describe(view, r), "exercise.delete", {"target": n})
                                         for n, r in enumerate(recent, 1)))
    said, row_id = _describe(view, chosen), chosen.id

    def write(session: Session) -> None:
        row = session.get(ExerciseLog, row_id)
        if row is not None:
            session.delete(row)

    apply_once(services.db, msg_id=view.msg_id, user=view.user, action="exercise.delete", tz=view.tz, write=write)
    return SkillResult(f"已删除运动记录：{said}。", data={"deleted": 1}, dto={"deleted": said})


def amend_log(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """"不对，是25分钟" right after a workout was logged: the corrected record replaces that one."""
    result = log(view, params, services)
    replaced = params.get("replaces")
    if not result.ok or not isinstance(replaced, int) or result.data.get("ref") == replaced:
        return result

    def write(session: Session) -> None:
        row = session.get(ExerciseLog, replaced)
        if row is not None and row.user_id == view.user:
            session.delete(row)

    apply_once(services.db, msg_id=f"{view.msg_id}:replaces", user=view.user, action="exercise.amend", tz=view.tz,
               write=write)
    return SkillResult("改好了：" + result.reply.removeprefix("记下了："), data=result.data, dto=result.dto,
                       facts=result.facts)

