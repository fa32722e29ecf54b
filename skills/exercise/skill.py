"""exercise.plan / exercise.log / exercise.history — energy from MET values and the profile's weight."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from runtime.skill import (
    ActionSpec,
    DomainObject,
    FollowUps,
    Operation,
    SkillResult,
    SkillSpec,
    SlotSpec,
    SlotType,
)
from runtime.views import ExecView
from skills.exercise._delete import amend_log, delete_confirm_text, delete_log, extract_log_target
from skills.exercise._entries import extract_entries
from skills.exercise._history import extract_activity, extract_history_period, history, summarise
from skills.exercise._limits import describe_avoid, describe_days, extract_add, extract_avoid, extract_days
from skills.exercise._log import confirm_log, corrected_log, how_long, log, num, weight_of
from skills.exercise._met import DEFAULT_WEIGHT_KG, activities, activity_word, estimate
from skills.exercise._plan import extract_sessions, parse_level, weekly_plan
from skills.exercise._plan_follow import FOLLOW_UPS as PLAN_FOLLOW_UPS
from skills.exercise._triggers import TRIGGERS
from skills.exercise._when import extract_day
from skills.profile import parse_goal
from skills.store import get_profile

__all__ = ["SPEC", "history", "log", "plan", "summarise"]


def _items(params: Mapping[str, Any], name: str) -> list[Any]:
    value = params.get(name)
    return list(value) if isinstance(value, list) else []


def plan(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """A weekly plan for the goal (slot, else profile), level and minutes per session, respecting what to
    avoid, the free days and what to add."""
    goal = parse_goal(str(params.get("goal") or ""))
    if goal is None:
        profile = get_profile(services.db, view.user)
        goal = profile.goal if profile and profile.goal else None
    level = parse_level(str(params.get("level") or "")) or "初级"
    avoid = [str(a) for a in _items(params, "avoid")]
    free = [int(d) for d in _items(params, "days") if isinstance(d, int) and 0 <= d <= 6]
    per_week = params.get("sessions")
    week = weekly_plan(goal, level, num(params.get("minutes")), avoid=avoid, days=free,
                       add=[str(a) for a in _items(params, "add")],
                       per_week=per_week if isinstance(per_week, int) and not isinstance(per_week, bool) else None)
    days = week.days
    weight, assumed = weight_of(services, view.user)
    weekly_kcal = sum(estimate(d.activity, minutes=d.minutes, distance_km=None, weight_kg=weight).kcal for d in days)
    minutes = days[0].minutes if days else int(num(params.get("minutes")) or 30)
    lines = _that_day(days, params.get("day_asked"))
    lines += [f"一周训练计划（目标：{goal or '保持健康'}，{level}，每周{len(days)}次，每次{minutes}分钟）："]
    lines += [f"· {d.label} {d.activity} {d.minutes}分钟 — {d.note}" for d in days]
    kept = describe_avoid(avoid) + ([describe_days(free)] if free else []) + week.changes
    if kept:
        lines.append("按你说的：" + "；".join(kept) + "。")
    lines.append(f"其余几天休息或散步。每周约消耗{round(weekly_kcal)}千卡"
                 + (f"（按默认体重{DEFAULT_WEIGHT_KG:g}公斤估算）。" if assumed else "。"))
    lines.append("每次先热身5分钟，结束后拉伸；身体不适就停下来。")
    dto = {"goal": goal, "level": level, "days": [{"day": d.label, "activity": d.activity, "minutes": d.minutes,
                                                   "note": d.note} for d in days], "weekly_kcal": round(weekly_kcal),
           "avoid": avoid, "free_days": free}
    return SkillResult("\n".join(lines), data=dto, dto=dto, facts={"goal": goal} if goal else {},
                       shown={"minutes": minutes, "level": level})


_WEEKDAY_NAMES = "一二三四五六日"


def _that_day(days: list[Any], asked: Any) -> list[str]:
    """The answer for one day of the plan ("周六练啥"), said before the plan it comes from."""
    if not isinstance(asked, int) or isinstance(asked, bool) or not 0 <= asked <= 6:
        return []
    name = f"周{_WEEKDAY_NAMES[asked]}"
    found = [d for d in days if d.weekday == asked]
    if not found:
        return [f"{name}没有安排训练，休息或散散步就好。", ""]
    return [f"{name}：" + "；".join(f"{d.activity} {d.minutes}分钟（{d.note}）" for d in found) + "。", ""]


def _extract_level(text: str) -> str | None:
    return parse_level(text)


def _activity_words() -> list[str]:
    """Every activity's name and aliases (游泳, 羽毛球, 跳绳…): what a slip is repaired towards."""
    return [w for a in activities().values() for w in (a.name, *a.aliases)]


SPEC = SkillSpec(
    triggers=TRIGGERS,
    name="exercise",
    vocabulary=_activity_words,
    description="运动计划、记录和统计",
    help="运动：比如“帮我制定运动计划”“今天跑了5公里”“这周运动记录”",
    objects=(
        DomainObject("workout", ("运动记录", "锻炼记录", "健身记录", "跑步记录", "运动", "锻炼", "健身", "训练", "跑步",
                                 "游泳", "骑车", "快走", "瑜伽", "跳绳", "爬山", "打球", "练了"),
                     ((Operation.SEE, "exercise.history"), (Operation.CREATE, "exercise.log"),
                      (Operation.DELETE, "exercise.delete")), noun="运动", pick="target",
                     signals=("动", "练", "瘦", "胖", "减肥", "腹肌", "出汗", "体能")),
        DomainObject("activity", ("运动项目",), ((Operation.SEE, "exercise.history"),), noun="运动项目",
                     pick="activity", carry=("period",)),
        DomainObject("workout_plan", ("运动计划", "健身计划", "训练计划", "锻炼计划", "运动方案"),
                     ((Operation.CREATE, "exercise.plan"), (Operation.SEE, "exercise.plan"),
                      (Operation.CHANGE, "exercise.plan")), noun="运动计划"),
    ),
    actions=(
        ActionSpec(
            name="plan", intent="exercise.plan", run=plan, repeatable=True, task="制定运动计划", follow=PLAN_FOLLOW_UPS,
            shown_as="给了一周运动计划（{level}，每次{minutes}分钟）",
            slots=(
                SlotSpec("goal", SlotType.TEXT, "运动目标是什么？（减脂/增肌/控糖/保持）", required=False,
                         extract=parse_goal, standalone=True),
                SlotSpec("level", SlotType.TEXT, "现在的运动基础怎么样？（新手/有基础/老手）", required=False,
                         extract=_extract_level, standalone=True),
                SlotSpec("minutes", SlotType.DURATION, "每次大概能练多久？", required=False, minimum=5, maximum=240),
                SlotSpec("avoid", SlotType.TEXT_LIST, "有没有要避开的运动或身体部位？", required=False, extract=extract_avoid),
                SlotSpec("days", SlotType.TEXT_LIST, "哪几天有空？", required=False, extract=extract_days),
                SlotSpec("add", SlotType.TEXT_LIST, "想多练点什么？", required=False, extract=extract_add),
                SlotSpec("sessions", SlotType.TEXT, "一周想练几次？", required=False, extract=extract_sessions),
            ),
            description="按目标和时间给一周运动计划（可说明身体限制、有空的日子）",
        ),
        ActionSpec(
            name="log", intent="exercise.log", run=log, writes=True, confirm_text=confirm_log, amend=amend_log,
            follow_up=corrected_log, task="记录运动", shown_as="记了一次{activity}",
            undo="exercise.delete", undo_with=(("target", "刚才那条"),),
            slots=(
                SlotSpec("activity", SlotType.TEXT, "练的什么、练了多久？比如“跑步40分钟”。", extract=activity_word),
                SlotSpec("minutes", SlotType.DURATION, "运动了多长时间？", minimum=1, maximum=1440, lookup=how_long),
                SlotSpec("distance_km", SlotType.DISTANCE, "多少公里？", minimum=0.05, maximum=300),
                SlotSpec("day", SlotType.TEXT, "哪天练的？", required=False, extract=extract_day,
                         standalone=True),
                SlotSpec("entries", SlotType.TEXT_LIST, "都练了些什么？", required=False, extract=extract_entries),
            ),
            any_of=(("minutes", "distance_km"),),
            description="记录一次运动并估算消耗（可说哪天：昨晚、上周六）",
        ),
        ActionSpec(name="history", intent="exercise.history", run=history, read_only=True, task="查看运动记录",
                   shown_as="报了{period}的运动记录",
                   follow=FollowUps(slots=("period", "activity")),
                   slots=(
                       SlotSpec("period", SlotType.TEXT, "想看哪段时间的？（这周/上个月/最近30天）", required=False,
                                extract=extract_history_period),
                       SlotSpec("activity", SlotType.TEXT, "看哪项运动？", required=False, extract=extract_activity),
                   ),
                   description="某段时间（这周、上周、这个月、上个月、今年、最近N天）的运动次数、时长、距离、消耗"),
        ActionSpec(
            name="delete", intent="exercise.delete", run=delete_log, writes=True, confirm_text=delete_confirm_text,
            task="删除运动记录", reports_as="exercise.log", shown_as="删了一条运动记录",
            slots=(SlotSpec("target", SlotType.TEXT, "要删哪一条？说“刚才那条”，或者运动名称（比如“跑步那条”）。",
                            extract=extract_log_target),),
            description="删除一条记错的运动记录",
        ),
    ),
)
