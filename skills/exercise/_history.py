"""exercise.history: what was done in a period (这周, 上个月, 最近三天 …), per activity, or one activity's
workouts one by one — with the activities or workouts shown as entities, so "跑步那项看看" and then
"把第二条删了" follow."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlmodel import Session, col, select

from runtime.skill import Entity, SkillResult
from runtime.views import ExecView
from skills.exercise._met import activity_word, same_activity
from skills.exercise._period import Period, extract_period, find_period, resolve_period
from skills.models import ExerciseLog

__all__ = ["DEFAULT_PERIOD", "asks_history", "extract_activity", "extract_history_period", "history", "summarise",
           "workout_entity", "workout_line"]

DEFAULT_PERIOD = "最近7天"
LISTED = 10  # workouts listed one by one at most
FEW = 5  # a period with no more workouts than this lists them one by one, whatever their activity
# a message that says a workout was done ("昨天游泳了", "今天跑了5公里") and asks nothing
_DONE = re.compile(r"(?:了|完|过)(?!多少|几)|[\d一二两三四五六七八九十半]\s*(?:分钟|小时|钟头|公里|千米|km)")
_ASKS = re.compile(r"[?？吗呢么]|没有?$|有没有|几|多少|多久|多长|多远|啥|什么|哪些|怎么样|咋样|如何|情况|记录|统计|总结|汇总|看看|看下|看一下|查|列|说说|报告")


def asks_history(text: str) -> bool:
    """Whether ``text`` can be about the history at all (not a statement of a workout done)."""
    return bool(_ASKS.search(text)) or not _DONE.search(text)


def extract_history_period(text: str) -> str | None:
    """The ``period`` slot: the words naming the period a history question is about ("上个月", "最近一个月"),
    never the day of a workout being told."""
    found = find_period(text) if asks_history(text) else None
    return found[0] if found else None


_ANY = re.compile(r"运动|锻炼|训练")


def extract_activity(text: str) -> str | None:
    """The ``activity`` slot of a history question: the one activity it asks about, as it names it ("今年跑了多少公里"
    → 跑步, "蛙泳的记录" → 蛙泳), or "运动" when it asks about every activity ("近三个月的运动" after a look at the
    runs drops that filter)."""
    if not asks_history(text):
        return None
    return activity_word(text) or ("运动" if _ANY.search(text) else None)


def _at(row: ExerciseLog) -> datetime:
    return row.done_at if row.done_at.tzinfo else row.done_at.replace(tzinfo=UTC)


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


def _amount(minutes: float, km: float) -> str:
    return f"{round(minutes)}分钟" + (f"、{km:g}公里" if km else "")


def workout_line(row: ExerciseLog, tz: str) -> str:
    """One workout as said in a list: 12月1日 跑步 3公里、22分钟，约187千卡."""
    local = _at(row).astimezone(ZoneInfo(tz))
    amount = "、".join(p for p in (f"{row.distance_km:g}公里" if row.distance_km else "",
                                   f"{round(row.minutes)}分钟" if row.minutes else "") if p)
    return f"{local.month}月{local.day}日 {row.activity} {amount}，约{round(row.kcal)}千卡"


def workout_entity(row: ExerciseLog, tz: str) -> Entity:
    """A shown workout: "删掉这条" / "第二条删了" act on exactly this record."""
    said = workout_line(row, tz).split("，")[0]
    # named by its activity alone: its date or amount in the name would make "不对，是50分钟" a pick
    return Entity("workout", row.activity, {"id": row.id, "said": said}, {"said": said})


def _rows(services: Any, user: str, start: datetime, end: datetime, activity: str | None) -> list[ExerciseLog]:
    """The workouts of the period; with ``activity``, those it means (an activity's own name covers every
    word for it: 跑步 takes 慢跑 and 夜跑)."""
    query = select(ExerciseLog).where(ExerciseLog.user_id == user, col(ExerciseLog.done_at) >= start.astimezone(UTC),
                                      col(ExerciseLog.done_at) <= end.astimezone(UTC))
    with Session(services.db) as session:
        rows = list(session.exec(query.order_by(col(ExerciseLog.done_at), col(ExerciseLog.id))).all())
    return [r for r in rows if same_activity(r.activity, activity)] if activity else rows


def _title(period: Period, today: datetime) -> str:
    if period.name in ("今天", "昨天", "前天", "大前天"):
        return f"{period.name}（{period.span()}）"
    if period.name == "全部":
        return "到现在为止"
    if re.fullmatch(r"(?:\d{4}年)?\d{1,2}月|今年|去年", period.name):
        return period.name
    return f"{period.name}（{period.span()}）"


def history(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """Totals for the period asked (else the last 7 days), per activity; one activity's workouts listed."""
    tz = ZoneInfo(view.tz)
    local = view.now.astimezone(tz)
    said = str(params.get("period") or DEFAULT_PERIOD)
    period = resolve_period(extract_period(said) or said, local.date()) or resolve_period(DEFAULT_PERIOD, local.date())
    assert period is not None
    activity = activity_word(str(params.get("activity") or "")) if params.get("activity") else None
    start, end = period.bounds(tz)
    rows = _rows(services, view.user, start, min(end, local + timedelta(seconds=1)), activity)
    title = _title(period, local)
    base = {"period": period.name, "from": period.start.isoformat(), "to": period.end.isoformat(),
            "activity": activity}
    if not rows:
        example = "今天快走了40分钟" if activity is None else f"今天{activity}30分钟"
        reply = f"{title}{'的' + activity if activity else ''}还没有记录。运动完跟我说一声就能记下，比如“{example}”。"
        return SkillResult(reply, data={**base, "times": 0}, dto={**base, "times": 0},
                           shown={"period": period.name})
    totals = summarise(rows)
    minutes = sum(t["minutes"] for t in totals.values())
    km = sum(t["km"] for t in totals.values())
    kcal = sum(t["kcal"] for t in totals.values())
    days = len({_at(r).astimezone(tz).date() for r in rows})
    times = f"{len(rows)}次" + (f"（{days}天）" if days != len(rows) else "")
    head = f"{title}{activity if activity else '：运动'}{times}，共{_amount(minutes, km)}，约消耗{round(kcal)}千卡。"
    dto = {**base, "times": len(rows), "days": days, "minutes": round(minutes), "km": round(km, 1), "kcal": round(kcal),
           "per_activity": totals}
    if activity:  # one activity: its workouts one by one (the latest ones when there are many)
        listed = rows[-LISTED:]
        lines = [head, *(f"{n}. {workout_line(r, view.tz)}" for n, r in enumerate(listed, 1))]
        if len(rows) > LISTED:
            lines.append(f"（只列了最近{LISTED}次）")
        entities = tuple(workout_entity(r, view.tz) for r in listed)
        return SkillResult("\n".join(lines), data=dto, dto=dto, entities=entities, shown={"period": period.name})
    if 2 <= len(rows) <= FEW and len(totals) == len(rows):  # a few, each its own activity: numbered ("第二条删了")
        lines = [head, *(f"{n}. {workout_line(r, view.tz)}" for n, r in enumerate(rows, 1))]
        return SkillResult("\n".join(lines), data=dto, dto=dto, entities=tuple(workout_entity(r, view.tz) for r in rows),
                           shown={"period": period.name})
    lines = [head]
    for act, t in sorted(totals.items(), key=lambda a: -a[1]["times"]):
        lines.append(f"· {act} {t['times']:g}次，{_amount(t['minutes'], t['km'])}，约{round(t['kcal'])}千卡")
    entities = tuple(Entity("activity", act, act, {"times": totals[act]["times"]})
                     for act in sorted(totals, key=lambda a: -totals[a]["times"]))
    return SkillResult("\n".join(lines), data=dto, dto=dto, entities=entities, shown={"period": period.name})
