"""How a weekly plan just shown is followed up (DESIGN §3.4): a restriction, the free days, something to
add, the time per session, the intensity or the goal said next changes the plan and keeps the rest.

Each rule reads the plan's params (goal, level, minutes, avoid, days, add) and returns the params of the
plan to make instead; None when the words change nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from runtime.skill import Entity, FollowUps, Modifier, Question, Refine
from runtime.skill.parsers import parse_value
from skills.exercise._limits import BODY, DAYS_SAID, extract_add, extract_avoid, extract_days
from skills.exercise._plan import SESSIONS_SAID, extract_sessions, shift_level
from skills.profile import parse_goal

__all__ = ["FOLLOW_UPS"]

Params = Mapping[str, Any]


def _merged(params: Params, name: str, new: list[Any] | None) -> Params | None:
    before = list(params.get(name) or [])
    added = [x for x in new or [] if x not in before]
    return {**params, name: [*before, *added]} if added else None


def _avoid(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    return _merged(params, "avoid", extract_avoid(m.string))


def _days(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    days = extract_days(m.string)
    return {**params, "days": days} if days and days != params.get("days") else None


def _add(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    return _merged(params, "add", extract_add(m.string))


def _minutes(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    said = parse_value("duration", m.string)
    now = shown.get("minutes") or params.get("minutes") or 30
    if said is None:
        if m.group("shorter"):
            said = max(10, round(float(now) * 0.7 / 5) * 5)
        elif m.group("longer"):
            said = min(120, float(now) + 15)
    return {**params, "minutes": float(said)} if said and said != params.get("minutes") else None


def _sessions(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    said = extract_sessions(m.string)
    return {**params, "sessions": said} if said and said != params.get("sessions") else None


def _level(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    """One level harder or easier; easier than the easiest level is shorter sessions."""
    now = shown.get("level") or params.get("level")
    level = shift_level(str(now) if now else None, 1 if m.group("up") else -1)
    if level != now:
        return {**params, "level": level}
    minutes = float(shown.get("minutes") or params.get("minutes") or 30)
    if m.group("down") and minutes > 15:
        return {**params, "minutes": float(max(15, round(minutes * 0.7 / 5) * 5))}
    return None


def _goal(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    goal = parse_goal(m.group(0))
    return {**params, "goal": goal} if goal and goal != params.get("goal") else None


_NOT = (r"(?:也)?(?:别|不要|不想|不能|不用|不适合|没法|避开|避免|不爱|不喜欢|讨厌|去掉)(?:再)?(?:安排|练|做|去)?"
        r"(?:跑跳|又跑又跳|蹦跳|剧烈运动|剧烈的|高强度|[\u4e00-\u9fff]{2,4}?)(?:了|的)?(?=$|[，,。；;！!？?也])"
        r"|[\u4e00-\u9fff]{2,4}?(?:就)?(?:算了|免了|不要了|去掉吧?|别安排了?)")
_ADD = (r"(?:想|要|再|多|能不能|可以)?(?:加|添|增加|多安排|多练|多来|多做|安排|练练)(?:点|些|一点|一些|个|一次|一天|上)?"
        r"(?:练练|练|做)?(?:力量训练|力量|撸铁|肌肉|核心|有氧|拉伸|柔韧|瑜伽|游泳|骑车|快走|跑步|跳绳|球类?)(?:训练|练习|运动)?(?:吧|呢)?")
_MINUTES = (r"(?:每次|一次|每天|一天)(?:只能|只有|就|最多|顶多|能|可以)?(?:练|运动|锻炼)?(?:个)?"
            r"|(?P<shorter>(?:时间)?(?:再)?(?:短|少)(?:一)?点|太长了?|没(?:那么|这么)多时间)"
            r"|(?P<longer>(?:时间)?(?:再)?(?:长|多)(?:一)?点|多练会儿?)")
_LEVEL = (r"(?P<up>强度(?:再)?(?:大|高|加大|提高|加)(?:一)?点|太轻松了?|太简单了?|不够累|再难(?:一)?点)"
          r"|(?P<down>强度(?:再)?(?:小|低|降低|减)(?:一)?点|太累了?|太难了?|吃不消|受不了|轻松(?:一)?点)")
_GOAL = r"(?:目标)?(?:改成|换成|变成|改为|是|想)?(?:减脂|减肥|瘦身|减重|增肌|长肌肉|控糖|降血糖|保持体重|保持身材)(?:为主)?"

_DAY_NUM = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_WHAT_THAT_DAY = (r"(?:那)?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天])(?:那天|那次|那一天|的)?(?:我)?"
                  r"(?:(?:要|该|是|都)?(?:练|做|安排|排|干|运动|锻炼|搞)?(?:了|的|些)?(?:是|有)?(?:个)?"
                  r"(?:啥|什么|哪些|些什么|些啥|什么项目|啥项目|嘛|哪样)"
                  r"|(?:有没有|要不要|用不用|需不需要|有|要|需要|用)(?:没有)?(?:安排|训练|练|运动|锻炼)(?:吗|么|没|不)?"
                  r"|(?=呢))(?:来着|呢|啊|呀|哈)?")
# a weekday of the plan asked after: "周三安排的是啥", "礼拜五干嘛", "周日要练吗", "那周二呢"


def _that_day(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
    """"周六那天练啥来着": the plan shown, told for that day."""
    return {**params, "day_asked": _DAY_NUM[m.group("wd")]}


def _fresh(apply: Refine) -> Refine:
    """A change of the plan answers no question about one of its days any more."""
    def run(params: Params, m: re.Match[str], entity: Entity | None, shown: Params) -> Params | None:
        return apply({k: v for k, v in params.items() if k != "day_asked"}, m, entity, shown)
    return run


FOLLOW_UPS = FollowUps(
    slots=("goal", "level"),
    modifiers=(
        Modifier("restriction", f"{BODY}|{_NOT}", _fresh(_avoid)),
        Modifier("free days", DAYS_SAID, _fresh(_days)),
        Modifier("add an activity", _ADD, _fresh(_add)),
        Modifier("time per session", _MINUTES, _fresh(_minutes)),
        Modifier("sessions a week", SESSIONS_SAID, _fresh(_sessions)),
        Modifier("intensity", _LEVEL, _fresh(_level)),
        Modifier("goal", _GOAL, _fresh(_goal)),
    ),
    questions=(Question("what on that day", _WHAT_THAT_DAY, _that_day),),
)
