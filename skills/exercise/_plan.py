"""A weekly exercise plan from goal, level and minutes per session, and what the person said about it:
what to avoid (a sore knee rules out running and jumping), which days are free, what to add (pure).

Volumes follow the WHO 2020 physical-activity guidelines for adults (150–300 min of moderate
activity a week plus muscle-strengthening on 2+ days), scaled by level.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from skills.exercise._limits import CARDIO, ruled_out

__all__ = ["LEVELS", "SESSIONS_SAID", "PlanDay", "WeekPlan", "extract_sessions", "parse_level", "shift_level", "weekly_plan"]

LEVELS = ("初级", "中级", "高级")
_LEVEL_WORDS = (("高级", ("高级", "老手", "很有经验", "专业")), ("中级", ("中级", "有基础", "练过", "一般")),
                ("初级", ("初级", "新手", "入门", "刚开始", "零基础", "没怎么练", "小白")))
_DAYS = "一二三四五六日"
# (day index, activity, note) templates per goal; the level picks how many days are used
_TEMPLATES: dict[str, tuple[tuple[int, str, str], ...]] = {
    "减脂": ((0, "快走", "中等强度，能说话但不能唱歌"), (2, "力量训练", "全身：深蹲、俯卧撑、划船"),
             (4, "跑步", "慢跑，可走跑交替"), (5, "骑车", "户外或动感单车"), (1, "跳绳", "分组跳，每组1-2分钟"),
             (3, "力量训练", "下肢和核心")),
    "增肌": ((0, "力量训练", "上肢推：卧推、肩推、俯卧撑"), (2, "力量训练", "下肢：深蹲、硬拉、弓步"),
             (4, "力量训练", "上肢拉：引体、划船、弯举"), (5, "快走", "低强度有氧，帮助恢复"),
             (1, "力量训练", "核心与薄弱部位"), (3, "拉伸", "放松和活动度")),
    "控糖": ((0, "快走", "饭后30分钟开始"), (1, "力量训练", "全身，弹力带或哑铃"), (2, "快走", "饭后"),
             (4, "骑车", "中等强度"), (3, "力量训练", "全身"), (5, "快走", "饭后")),
    "保持": ((0, "快走", "中等强度"), (2, "力量训练", "全身"), (4, "跑步", "轻松跑"), (5, "羽毛球", "或其他球类"),
             (1, "瑜伽", "拉伸放松"), (3, "骑车", "中等强度")),
}
# what a session of an activity put in by a change is about
_NOTES = {"快走": "中等强度，对关节友好", "骑车": "中等强度，户外或动感单车", "游泳": "中等强度，对关节最友好",
          "椭圆机": "中等强度，对关节友好", "动感单车": "中等强度", "力量训练": "全身：深蹲、俯卧撑、划船、平板支撑",
          "瑜伽": "拉伸放松", "拉伸": "放松和活动度", "跑步": "轻松跑", "太极": "舒缓，练平衡"}
_STRENGTH_ALTERNATIVES = ("拉伸", "瑜伽", "太极")
SESSIONS = {"初级": 3, "中级": 4, "高级": 5}


@dataclass(frozen=True, slots=True)
class PlanDay:
    """One training day of the week."""

    weekday: int
    activity: str
    minutes: int
    note: str

    @property
    def label(self) -> str:
        return f"周{_DAYS[self.weekday]}"


@dataclass(frozen=True, slots=True)
class WeekPlan:
    """The training days, Monday first, and what was changed to respect what the person said."""

    days: list[PlanDay]
    changes: list[str] = field(default_factory=list)


# how often a week: "每周练三次", "一周四天", "一个礼拜两回", "每星期跑3次"; 每天 is every day
SESSIONS_SAID = (r"(?:(?:改成|换成|变成)?(?:每|一)(?:个)?(?:周|星期|礼拜))(?:只能|只有|能|可以|打算|想|大概|就|最多|顶多)?"
                 r"(?:抽出|挤出|抽|挤|有)?(?:练|运动|锻炼|健身|训练|去|跑|游|骑|走)?(?P<n>[1-7一二两三四五六七])(?:次|回|天|趟)"
                 r"(?:就行|就够了|吧|好了)?"
                 r"|每天都?(?:练|运动|锻炼|健身|训练)|天天(?:练|运动|锻炼)")
_SESSIONS = re.compile(SESSIONS_SAID)
_CN_DIGIT = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7}


def extract_sessions(text: str) -> int | None:
    """Sessions a week said ("每周练三次" → 3, "每天都练" → 7); None when not said."""
    m = _SESSIONS.search(text)
    if m is None:
        return None
    n = m.group("n")
    return 7 if n is None else int(n) if n.isdigit() else _CN_DIGIT[n]


def parse_level(text: str) -> str | None:
    """初级/中级/高级 from words such as 新手 / 有基础 / 老手."""
    for level, words in _LEVEL_WORDS:
        if any(w in text for w in words):
            return level
    return None


def shift_level(level: str | None, step: int) -> str:
    """One level up (``step`` 1) or down (-1), within 初级..高级."""
    index = LEVELS.index(level) if level in LEVELS else 0
    return LEVELS[max(0, min(len(LEVELS) - 1, index + step))]


def _spread(free: Sequence[int], count: int) -> list[int]:
    """``count`` of the ``free`` weekdays, spread over the week (rest days between when possible)."""
    if count >= len(free):
        return list(free)
    step = len(free) / count
    return sorted({free[min(len(free) - 1, round(i * step))] for i in range(count)})


def _substitute(activity: str, avoid: set[str], used: set[str]) -> str | None:
    """What to do instead of a ruled-out ``activity``: another of its kind, preferably not yet in the plan."""
    pool = CARDIO if activity in CARDIO else _STRENGTH_ALTERNATIVES
    allowed = [a for a in pool if a not in avoid]
    return next((a for a in allowed if a not in used), allowed[0] if allowed else None)


def weekly_plan(goal: str | None, level: str | None, minutes: float | None, *, avoid: Sequence[str] = (),
                days: Sequence[int] = (), add: Sequence[str] = (), per_week: int | None = None) -> WeekPlan:
    """Training days for one week, Monday first, respecting ``avoid`` (restrictions: 膝盖, 跑跳, 游泳 …),
    the free weekdays ``days`` (0 = Monday; all when empty), the activities to ``add`` and the sessions
    ``per_week`` asked for (else the level's)."""
    template = _TEMPLATES.get(goal or "保持", _TEMPLATES["保持"])
    level = level if level in LEVELS else "初级"
    per_session = int(max(10, min(120, minutes or {"初级": 30, "中级": 45, "高级": 60}[level])))
    banned = ruled_out(avoid)
    changes: list[str] = []
    count = max(1, min(len(template), per_week)) if per_week else SESSIONS[level]
    chosen = list(template[:count])
    free = sorted(set(days)) if days else []
    if free:
        picked = _spread(free, len(chosen))
        chosen = [(day, act, note) for day, (_, act, note) in zip(picked, chosen, strict=False)]
    sessions: list[PlanDay] = []
    for day, act, note in chosen:
        if act in banned:
            instead = _substitute(act, banned, {s.activity for s in sessions} | {a for _, a, _ in chosen})
            if instead is None:
                continue
            act, note = instead, _NOTES.get(instead, "中等强度")
        sessions.append(PlanDay(day, act, per_session, note))
    for wanted in add:  # as many sessions as were asked for stay as many
        sessions = _added(sessions, wanted, banned, free, per_session, changes, full=per_week is not None)
    return WeekPlan(sorted(sessions, key=lambda p: p.weekday), changes)


def _added(sessions: list[PlanDay], wanted: str, banned: set[str], free: Sequence[int], minutes: int,
           changes: list[str], *, full: bool = False) -> list[PlanDay]:
    """``sessions`` with one more session of ``wanted`` (an activity, or 有氧 for any cardio): on a free day
    (unless the week is ``full``: as many sessions as were asked for), else in place of a repeated activity,
    else as the last part of the sessions there are."""
    used = {s.activity for s in sessions}
    activity = wanted
    if wanted == "有氧":
        activity = next((a for a in CARDIO if a not in banned and a not in used), "") or \
            next((a for a in CARDIO if a not in banned), "")
    if not activity or activity in banned:
        return sessions
    taken = {s.weekday for s in sessions}
    open_days = [] if full else [d for d in (free or range(7)) if d not in taken]
    if open_days:
        # a day away from the others when there is one (Tuesday before Monday after a Monday session)
        day = max(open_days, key=lambda d: min((abs(d - t) for t in taken), default=7))
        changes.append(f"周{_DAYS[day]}加了一次{activity}")
        return [*sessions, PlanDay(day, activity, minutes, _NOTES.get(activity, "中等强度"))]
    repeated = [s for s in sessions if sum(o.activity == s.activity for o in sessions) > 1 and s.activity != activity]
    if activity not in used and repeated:
        old = repeated[-1]
        changes.append(f"{old.label}换成{activity}")
        return [s if s is not old else PlanDay(s.weekday, activity, minutes, _NOTES.get(activity, "中等强度"))
                for s in sessions]
    tail = 10 if minutes >= 20 else 5
    changes.append(f"每次最后{tail}分钟做{activity}")
    return [s if s.activity == activity else PlanDay(s.weekday, s.activity, s.minutes, f"{s.note}；最后{tail}分钟{activity}")
            for s in sessions]
