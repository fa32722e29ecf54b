"""exercise.plan / exercise.log / exercise.history — energy from MET values and the profile's weight."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlmodel import Session, col, select

from runtime.skill import ActionSpec, DomainObject, Operation, SkillResult, SkillSpec, SlotSpec, SlotType
from runtime.views import ExecView
from skills.exercise._delete import amend_log, delete_confirm_text, delete_log, extract_log_target
from skills.exercise._met import DEFAULT_WEIGHT_KG, estimate, find_activity
from skills.exercise._plan import parse_level, weekly_plan
from skills.exercise._triggers import TRIGGERS
from skills.models import ExerciseLog
from skills.profile._parse import parse_goal
from skills.store import get_profile, insert_once

__all__ = ["SPEC", "history", "log", "plan", "summarise"]


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) and value > 0 else None


def _activity(params: Mapping[str, Any]) -> str | None:
    raw = params.get("activity")
    return find_activity(str(raw)) if raw else None


def _weight(services: Any, user: str) -> tuple[float, bool]:
    profile = get_profile(services.db, user)
    if profile is not None and profile.weight_kg:
        return float(profile.weight_kg), False
    return DEFAULT_WEIGHT_KG, True


def _amount(minutes: float | None, km: float | None, estimated: bool = False) -> str:
    parts = []
    if km:
        parts.append(f"{km:g}公里")
    if minutes:
        parts.append(f"约{round(minutes)}分钟" if estimated else f"{minutes:g}分钟")
    return "、".join(parts)


def log(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """Record one workout (once per message) with its energy estimate."""
    activity = _activity(params)
    minutes, km = _num(params.get("minutes")), _num(params.get("distance_km"))
    if activity is None:
        said = params.get("activity") or ""
        return SkillResult(f"“{said}”这个运动我还不认识，换个说法试试？比如跑步、快走、游泳、跳绳、力量训练。", ok=False)
    weight, assumed = _weight(services, view.user)
    try:
        est = estimate(activity, minutes=minutes, distance_km=km, weight_kg=weight)
    except ValueError:
        return SkillResult(f"{activity}多长时间？告诉我分钟数就能算消耗。", ok=False)
    row = ExerciseLog(user_id=view.user, activity=activity, minutes=est.minutes, distance_km=km, met=est.met,
                      weight_kg=weight, weight_assumed=assumed, kcal=est.kcal,
                      done_at=view.now.astimezone(UTC), source_msg_id=view.msg_id)
    stored, inserted = insert_once(services.db, row, msg_id=view.msg_id, user=view.user, tz=view.tz)
    amount = _amount(stored.minutes, stored.distance_km, est.minutes_estimated)
    head = "记下了" if inserted else "这条已经记过了"
    reply = f"{head}：{stored.activity} {amount}，约消耗{round(stored.kcal)}千卡（MET {stored.met:g}）。"
    if stored.weight_assumed:
        reply += f"你还没填体重，先按{DEFAULT_WEIGHT_KG:g}公斤估算；说“体重70公斤”可以算得更准。"
    dto = {"activity": stored.activity, "minutes": stored.minutes, "distance_km": stored.distance_km,
           "kcal": round(stored.kcal), "met": stored.met, "weight_assumed": stored.weight_assumed,
           "recorded_now": inserted}
    return SkillResult(reply, data={**dto, "ref": stored.id}, dto=dto, facts={"last_exercise": stored.activity})


def _confirm(params: Mapping[str, Any]) -> str:
    activity = _activity(params) or str(params.get("activity") or "运动")
    return f"确认记录：{activity} {_amount(_num(params.get('minutes')), _num(params.get('distance_km')))}吗？"


def summarise(rows: list[ExerciseLog]) -> dict[str, dict[str, float]]:
    """Totals per activity: times, minutes, km, kcal."""
    out: dict[str, dict[str, float]] = {}
    for r in rows:
        t = out.setdefault(r.activity, {"times": 0, "minutes": 0.0, "km": 0.0, "kcal": 0.0})
        t["times"] += 1
        t["minutes"] += r.minutes or 0.0
        t["km"] += r.distance_km or 0.0
        t["kcal"] += r.kcal
    return {a: {k: round(v, 1) for k, v in t.items()} for a, t in out.items()}


def _lines(title: str, totals: Mapping[str, Mapping[str, float]]) -> list[str]:
    if not totals:
        return [f"{title}：还没有记录。"]
    lines = [f"{title}："]
    for act, t in totals.items():
        km = f"、{t['km']:g}公里" if t["km"] else ""
        lines.append(f"· {act} {t['times']:g}次，{round(t['minutes'])}分钟{km}，约{round(t['kcal'])}千卡")
    total_min = sum(t["minutes"] for t in totals.values())
    total_kcal = sum(t["kcal"] for t in totals.values())
    lines.append(f"合计{round(total_min)}分钟，约{round(total_kcal)}千卡。")
    return lines


def history(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """This week (from Monday) and the last 7 days, totals per activity."""
    local = view.now.astimezone(ZoneInfo(view.tz))
    monday = (local - timedelta(days=local.weekday())).replace(hour=0, minute=0, second=0, microsecond=0)
    week_ago = local - timedelta(days=7)
    start = min(monday, week_ago).astimezone(UTC)
    with Session(services.db) as session:
        rows = list(session.exec(select(ExerciseLog).where(ExerciseLog.user_id == view.user,
                                                           col(ExerciseLog.done_at) >= start)
                                 .order_by(col(ExerciseLog.done_at))).all())

    def at(r: ExerciseLog) -> datetime:
        return r.done_at if r.done_at.tzinfo else r.done_at.replace(tzinfo=UTC)

    now_utc = view.now.astimezone(UTC)
    this_week = summarise([r for r in rows if monday <= at(r) <= now_utc])
    last7 = summarise([r for r in rows if week_ago <= at(r) <= now_utc])
    reply = "\n".join(_lines("本周（周一起）", this_week) + _lines("最近7天", last7))
    dto = {"this_week": this_week, "last_7_days": last7}
    return SkillResult(reply, data=dto, dto=dto)


def plan(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """A weekly plan for the goal (slot, else profile), level and minutes per session."""
    goal = parse_goal(str(params.get("goal") or ""))
    if goal is None:
        profile = get_profile(services.db, view.user)
        goal = profile.goal if profile and profile.goal else None
    level = parse_level(str(params.get("level") or "")) or "初级"
    days = weekly_plan(goal, level, _num(params.get("minutes")))
    weight, assumed = _weight(services, view.user)
    weekly_kcal = sum(estimate(d.activity, minutes=d.minutes, distance_km=None, weight_kg=weight).kcal for d in days)
    lines = [f"一周训练计划（目标：{goal or '保持健康'}，{level}，每次{days[0].minutes}分钟）："]
    lines += [f"· {d.label} {d.activity} {d.minutes}分钟 — {d.note}" for d in days]
    lines.append(f"其余几天休息或散步。每周约消耗{round(weekly_kcal)}千卡"
                 + (f"（按默认体重{DEFAULT_WEIGHT_KG:g}公斤估算）。" if assumed else "。"))
    lines.append("每次先热身5分钟，结束后拉伸；身体不适就停下来。")
    dto = {"goal": goal, "level": level, "days": [{"day": d.label, "activity": d.activity, "minutes": d.minutes,
                                                   "note": d.note} for d in days], "weekly_kcal": round(weekly_kcal)}
    return SkillResult("\n".join(lines), data=dto, dto=dto, facts={"goal": goal} if goal else {})


def _extract_level(text: str) -> str | None:
    return parse_level(text)


SPEC = SkillSpec(
    triggers=TRIGGERS,
    name="exercise",
    description="运动计划、记录和统计",
    help="运动：比如“帮我制定运动计划”“今天跑了5公里”“这周运动记录”",
    objects=(
        DomainObject("workout", ("运动记录", "锻炼记录", "健身记录", "跑步记录", "运动", "锻炼", "健身", "训练", "跑步",
                                 "游泳", "骑车", "快走", "瑜伽", "跳绳", "爬山", "打球"),
                     ((Operation.SEE, "exercise.history"), (Operation.CREATE, "exercise.log"),
                      (Operation.DELETE, "exercise.delete")), noun="运动", pick="target"),
        DomainObject("workout_plan", ("运动计划", "健身计划", "训练计划", "锻炼计划", "运动方案"),
                     ((Operation.CREATE, "exercise.plan"), (Operation.SEE, "exercise.plan"),
                      (Operation.CHANGE, "exercise.plan")), noun="运动计划"),
    ),
    actions=(
        ActionSpec(
            name="plan", intent="exercise.plan", run=plan, repeatable=True, task="制定运动计划",
            slots=(
                SlotSpec("goal", SlotType.TEXT, "运动目标是什么？（减脂/增肌/控糖/保持）", required=False,
                         extract=parse_goal, standalone=True),
                SlotSpec("level", SlotType.TEXT, "现在的运动基础怎么样？（新手/有基础/老手）", required=False,
                         extract=_extract_level, standalone=True),
                SlotSpec("minutes", SlotType.DURATION, "每次大概能练多久？", required=False, ask_once=True,
                         minimum=5, maximum=240),
            ),
            description="按目标和时间给一周运动计划",
        ),
        ActionSpec(
            name="log", intent="exercise.log", run=log, writes=True, confirm_text=_confirm, amend=amend_log,
            task="记录运动",
            undo="exercise.delete", undo_with=(("target", "刚才那条"),),
            slots=(
                SlotSpec("activity", SlotType.TEXT, "做的什么运动？", extract=find_activity),
                SlotSpec("minutes", SlotType.DURATION, "运动了多长时间？", minimum=1, maximum=1440),
                SlotSpec("distance_km", SlotType.DISTANCE, "多少公里？", minimum=0.05, maximum=300),
            ),
            any_of=(("minutes", "distance_km"),),
            description="记录一次运动并估算消耗",
        ),
        ActionSpec(name="history", intent="exercise.history", run=history, read_only=True, task="查看运动记录",
                   description="本周和最近7天的运动统计"),
        ActionSpec(
            name="delete", intent="exercise.delete", run=delete_log, writes=True, confirm_text=delete_confirm_text,
            task="删除运动记录", reports_as="exercise.log",
            slots=(SlotSpec("target", SlotType.TEXT, "要删哪一条？说“刚才那条”，或者运动名称（比如“跑步那条”）。",
                            extract=extract_log_target),),
            description="删除一条记错的运动记录",
        ),
    ),
)
