"""exercise.log: one workout, on the day it was done (昨晚, 上周六 …), with its energy estimate; how a
correction of it is read ("不对，是前天"), and what to ask when no amount was said."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from runtime.skill import SkillResult
from runtime.skill.parsers import parse_value
from runtime.views import ExecView
from skills.exercise._entries import entries_of, entry_text
from skills.exercise._history import workout_entity
from skills.exercise._met import DEFAULT_WEIGHT_KG, activities, activity_word, estimate, find_activity
from skills.exercise._when import WorkoutTime, extract_day, resolve_day
from skills.models import ExerciseLog
from skills.store import get_profile, insert_once

__all__ = ["confirm_log", "corrected_log", "how_long", "log", "num", "weight_of"]


def num(value: Any) -> float | None:
    """A positive number from a slot value, else None."""
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) and value > 0 else None


def _activity(params: Mapping[str, Any]) -> str | None:
    """The kind of activity of the workout (its MET): 力量训练 for 俯卧撑."""
    raw = params.get("activity")
    return find_activity(str(raw)) if raw else None


def _word(params: Mapping[str, Any]) -> str | None:
    """The workout as the user called it (俯卧撑, 慢跑, 蛙泳): what is recorded and said back."""
    raw = str(params.get("activity") or "")
    return activity_word(raw) if raw else None


def weight_of(services: Any, user: str) -> tuple[float, bool]:
    """The weight energy is estimated with: the profile's, else the default (and True: assumed)."""
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


def _when(params: Mapping[str, Any], now: datetime) -> WorkoutTime | None:
    said = params.get("day")
    return resolve_day(str(said), now) if isinstance(said, str) and said else None


def _day_text(done: datetime, said: str, view: ExecView) -> str:
    """How the reply names the day of a workout: "12月1日（昨天晚上）"; nothing for one done today."""
    local = done.astimezone(ZoneInfo(view.tz))
    if not said or (local.date() == view.now.astimezone(ZoneInfo(view.tz)).date() and said.startswith("今天")
                    and len(said) <= 2):
        return ""
    dated = f"{local.month}月{local.day}日"
    return f"{dated}（{said}）" if said != dated else dated


def log(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """Record the workout (once per message) on the day said (else now), with its energy estimate; several
    workouts told in one message ("周一游了半小时，周二跑了4公里") are each recorded."""
    several = entries_of(params)
    if not several:
        return _log_one(view, params, services, view.msg_id)
    results = [_log_one(view, entry, services, view.msg_id if n == 0 else f"{view.msg_id}#{n + 1}")
               for n, entry in enumerate(several)]
    failed = [r for r in results if not r.ok]
    done = [r for r in results if r.ok]
    if not done:
        return failed[0]
    lines = [f"{n}. {r.reply.split('：', 1)[-1].split('。')[0]}" for n, r in enumerate(done, 1)]
    head = "记下了" if any(r.data.get("recorded_now") for r in done) else "这些已经记过了"
    reply = f"{head}这{len(done)}次运动：\n" + "\n".join(lines)
    reply += f"\n一共约消耗{round(sum(float(r.data.get('kcal') or 0) for r in done))}千卡。"
    reply += "".join(f"\n{r.reply}" for r in failed)
    if any(r.data.get("weight_assumed") for r in done):
        reply += f"\n你还没填体重，先按{DEFAULT_WEIGHT_KG:g}公斤估算；说“体重70公斤”可以算得更准。"
    dto = {"workouts": [dict(r.dto) for r in done]}
    return SkillResult(reply, data={**dto, "ref": done[0].data.get("ref")}, dto=dto,
                       facts={"last_exercise": done[-1].data.get("activity")},
                       entities=tuple(e for r in done for e in r.entities))


def _log_one(view: ExecView, params: Mapping[str, Any], services: Any, msg_id: str) -> SkillResult:
    activity = _activity(params)
    minutes, km = num(params.get("minutes")), num(params.get("distance_km"))
    if activity is None:
        said = params.get("activity") or ""
        return SkillResult(f"“{said}”这个运动我还不认识，换个说法试试？比如跑步、快走、游泳、跳绳、力量训练。", ok=False)
    when = _when(params, view.now)
    if params.get("day") and when is None:
        return SkillResult(f"“{params['day']}”是哪天我没算出来，换个说法试试？比如“昨天”“上周六”“12月1日”。", ok=False)
    if when is not None and when.future:
        return SkillResult(f"{when.said}还没到呢，运动完再跟我说吧。", ok=False)
    weight, assumed = weight_of(services, view.user)
    try:
        est = estimate(activity, minutes=minutes, distance_km=km, weight_kg=weight)
    except ValueError:
        return SkillResult(f"{activity}多长时间？告诉我分钟数就能算消耗。", ok=False)
    done = when.at if when is not None else view.now
    named = _word(params) or activity  # "俯卧撑", as said, not 力量训练
    row = ExerciseLog(user_id=view.user, activity=named, minutes=est.minutes, distance_km=km, met=est.met,
                      weight_kg=weight, weight_assumed=assumed, kcal=est.kcal,
                      done_at=done.astimezone(UTC), source_msg_id=msg_id)
    stored, inserted = insert_once(services.db, row, msg_id=msg_id, user=view.user, tz=view.tz)
    amount = _amount(stored.minutes, stored.distance_km, est.minutes_estimated)
    head = "记下了" if inserted else "这条已经记过了"
    day = _day_text(stored.done_at if stored.done_at.tzinfo else stored.done_at.replace(tzinfo=UTC),
                    str(params.get("day") or ""), view)
    reply = f"{head}：{day}{stored.activity} {amount}，约消耗{round(stored.kcal)}千卡（MET {stored.met:g}）。"
    if stored.weight_assumed:
        reply += f"你还没填体重，先按{DEFAULT_WEIGHT_KG:g}公斤估算；说“体重70公斤”可以算得更准。"
    dto = {"activity": stored.activity, "minutes": stored.minutes, "distance_km": stored.distance_km,
           "kcal": round(stored.kcal), "met": stored.met, "weight_assumed": stored.weight_assumed,
           "recorded_now": inserted}
    return SkillResult(reply, data={**dto, "ref": stored.id}, dto=dto, facts={"last_exercise": stored.activity},
                       entities=(workout_entity(stored, view.tz),))


def said_day(said: str, now: Any) -> str:
    """A day as a confirmation says it: "2月28日（上个月28号）"; as said for today or a date said in full."""
    if not said or not isinstance(now, datetime) or said.startswith("今天") or re.fullmatch(r"\d+月\d+日", said):
        return said
    when = resolve_day(said, now)
    if when is None:
        return said
    return f"{when.at.month}月{when.at.day}日（{said}）"


def confirm_log(params: Mapping[str, Any]) -> str:
    now = params.get("_now")
    several = entries_of(params)
    if several:
        lines = "\n".join(f"{n}. {entry_text(e, said_day(str(e.get('day') or ''), now))}"
                          for n, e in enumerate(several, 1))
        return f"确认记录这{len(several)}次运动吗？\n{lines}\n"
    raw = str(params.get("activity") or "")
    activity = _word(params) or raw or "运动"
    day = said_day(str(params.get("day") or ""), now)
    said = f"{day + ' ' if day else ''}{activity} {_amount(num(params.get('minutes')), num(params.get('distance_km')))}"
    if isinstance(params.get("previous"), Mapping):
        return f"确认把刚才那条改成：{said}吗？"
    return f"确认记录：{said}吗？"


_NOT_THIS = re.compile(r"(?:而)?不是[^，,。；;\s是]{1,6}")  # what a correction denies ("不是跑步")
_DENIED = re.compile(r"^.*?(?:不是|不对)[^，,。；;]*[，,。；;]\s*")
_SAID_INSTEAD = re.compile(r"而是|应该是|其实是|改成|换成|(?<!不)是")


def _instead(fragment: str) -> str:
    """The words a correction says instead ("昨天，是前天晚上" → "前天晚上", "不是周二是周三" → "周三"), not the
    ones it denies."""
    marks = [m for m in _SAID_INSTEAD.finditer(fragment) if fragment[m.end():].strip()]
    return fragment[marks[-1].end():].strip() if marks else _DENIED.sub("", fragment)


def corrected_log(previous: Mapping[str, Any], fragment: str) -> Mapping[str, Any] | None:
    """"不对，是前天" / "是40分钟" / "是游泳" (said of the workout being confirmed or just logged): the
    workout with what the correction names changed, the rest kept; None when it names nothing of it."""
    several = entries_of(previous)
    if several:
        return _corrected_entry(previous, several, fragment)
    changed: dict[str, Any] = {}
    day = extract_day(_instead(fragment))  # "不是昨天，是前天晚上": the day said after the denial
    if day is not None:
        changed["day"] = day
    minutes = parse_value("duration", fragment)
    km = parse_value("distance", fragment)
    if minutes is None and km is None and not changed and not find_activity(fragment):
        minutes = parse_value("duration", fragment, answer=True)  # "不对，是40" after 30分钟
        if minutes is not None and previous.get("minutes") is None:
            minutes, km = None, parse_value("distance", fragment, answer=True)
    if minutes is not None:
        changed["minutes"] = float(minutes)
    if km is not None:
        changed["distance_km"] = float(km)
    # "是蛙泳" after 游泳: the word changes, whatever its kind; "不是跑步 是游泳": the one said instead
    activity = activity_word(_NOT_THIS.sub("", _instead(fragment)))
    if activity is not None and activity != _word(previous):
        changed["activity"] = activity
    if not changed:
        return None
    kept = {k: v for k, v in previous.items() if k in ("activity", "minutes", "distance_km", "day")}
    return {**kept, **changed}


def _corrected_entry(previous: Mapping[str, Any], several: list[dict[str, Any]],
                     fragment: str) -> Mapping[str, Any] | None:
    """"周二是5公里" while several workouts wait: the one workout the words name (by its day or its activity),
    corrected; None when they name none, or more than one."""
    named = [n for n, e in enumerate(several) if (e.get("day") and str(e["day"]) in fragment) or e["activity"] in fragment]
    if len(named) != 1:
        return None
    entry = several[named[0]]
    changed = corrected_log(entry, fragment)
    if changed is None:
        return None
    return {**previous, "entries": [dict(changed) if n == named[0] else e for n, e in enumerate(several)]}


_VERBS = (("跑步", "跑"), ("快走", "走"), ("走路", "走"), ("散步", "走"), ("骑车", "骑"), ("游泳", "游"), ("爬山", "爬"),
          ("跳绳", "跳"), ("足球", "踢"), ("篮球", "打"), ("羽毛球", "打"), ("乒乓球", "打"), ("网球", "打"))


def how_long(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult | None:
    """The question for a workout told without an amount: how long, or how far for what is measured so."""
    if params.get("minutes") is not None or params.get("distance_km") is not None:
        return None
    activity = _activity(params)
    if activity is None:
        return None
    verb = dict(_VERBS).get(activity, "练")
    far = activities()[activity].typical_kmh is not None
    named = _word(params) or activity
    said = f"{verb}了" if verb in named else f"{named}{verb}了"  # 跑了 / 羽毛球打了 / 撸铁练了
    return SkillResult(f"{said}多长时间？" + (f"或者{verb}了几公里也行。" if far else "比如“半小时”“四十来分钟”。"))


