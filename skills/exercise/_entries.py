"""Several workouts told in one message: "周一游了半小时，周二跑了4公里，今天跳绳15分钟", "上周二和上周五都
打了一小时球", "早上跑了5公里，晚上又快走了四十分钟".

Pure. :func:`extract_entries` reads each clause as one workout (its activity, its amount and its day; a
clause without a day is on the day of the clause before it), and one clause naming several days as the
same workout on each of them. It gives the workouts only when there are at least two, each with an activity
and an amount: that is the ``entries`` slot of exercise.log, recorded as one write.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from runtime.skill.parsers import parse_value
from skills.exercise._met import activity_word
from skills.exercise._when import DAY_SAID, extract_day

__all__ = ["entries_of", "entry_text", "extract_entries"]

_CLAUSES = re.compile(r"[，,。；;！!]|然后|之后|接着")
_PAUSE = re.compile(r"\s+")  # a voice run-on or a chat message leaves only spaces between its clauses
# days joined in one clause: "上周一和上周四都…", "周二、周五各…"
_JOINED = re.compile(r"(?P<a>(?:上上|上|这|本)?(?:周|星期|礼拜)[一二三四五六日天]|\d{1,2}\s*[号日]|昨天|前天|今天)"
                     r"\s*(?:和|跟|与|、|还有)\s*"
                     r"(?P<b>(?:上上|上|这|本)?(?:周|星期|礼拜)[一二三四五六日天]|\d{1,2}\s*[号日]|昨天|前天|今天)")
_WEEK_OF = re.compile(r"^(上上|上|这|本)")
_TODAY = re.compile(r"今天|今日|今儿|今早|今晚|今夜")
_PART = re.compile(r"(?:凌晨|清晨|早上|上午|中午|下午|傍晚|晚上|半夜|\d).*$")


def _amount(clause: str) -> dict[str, float]:
    found: dict[str, float] = {}
    minutes = parse_value("duration", clause)
    km = parse_value("distance", clause)
    if isinstance(minutes, int | float) and not isinstance(minutes, bool) and minutes > 0:
        found["minutes"] = float(minutes)
    if isinstance(km, int | float) and not isinstance(km, bool) and km > 0:
        found["distance_km"] = float(km)
    return found


# both days of a weekend: "周末两天都去爬山了", "上周末两天各跑了5公里"
_BOTH_WEEKEND = re.compile(r"(?P<week>上上|上|这|本)?(?:个)?(?:周末|礼拜天和礼拜六)(?:这)?两天(?:都|各|每天)?")


def _days_of(clause: str) -> list[str] | None:
    """The days one clause names when it joins several ("上周一和上周四", "周末两天都…"), in their plain form."""
    both = _BOTH_WEEKEND.search(clause)
    if both is not None:
        which = {"本": "这"}.get(both.group("week") or "", both.group("week") or "")
        return [f"{which}周六", f"{which}周日"]
    m = _JOINED.search(clause)
    if m is None:
        return None
    first, second = m.group("a"), m.group("b")
    week = _WEEK_OF.match(first)
    if week and not _WEEK_OF.match(second) and re.match(r"(?:周|星期|礼拜)", second):
        second = week.group(1) + second  # "上周一和周四": both last week
    days = [extract_day(first), extract_day(second + clause[m.end():])]
    return [d for d in days if d] if all(days) else None


def _clauses(text: str) -> list[str]:
    """The clauses of ``text``: cut at punctuation, and at a space once what comes before it tells a whole
    workout (an activity and an amount): "上周六打了俩小时球 上周日骑了十公里" is two, "昨天 跑了5公里" one; a day
    named right after a whole workout starts the next."""
    out: list[str] = []
    for clause in _CLAUSES.split(text):
        said = ""
        # a day named after a whole workout starts the next one, pause or not ("昨天跑了五公里前天游了一千米")
        clause = DAY_SAID.sub(lambda m: f" {m.group()}" if m.start() else m.group(), clause)
        for piece in _PAUSE.split(clause):
            said += piece
            if activity_word(said) is not None and _amount(said):
                out.append(said)
                said = ""
        if said or not clause.strip():
            out.append(said)
    return out


def extract_entries(text: str) -> list[dict[str, Any]] | None:
    """The workouts of a message that tells several (each {"activity", "minutes"/"distance_km", "day"}); None
    when it tells one, or when one of its clauses names an activity without an amount (that one is asked)."""
    entries: list[dict[str, Any]] = []
    day: str | None = None
    for clause in _clauses(text):
        if not clause.strip():
            continue
        activity = activity_word(clause)
        amount = _amount(clause)
        joined = _days_of(clause)
        said = extract_day(clause)
        if said is not None:
            if said.startswith("今天") and not _TODAY.search(clause) and day is not None:
                said = _PART.sub("", day) + said[2:]  # "昨天跑了5公里，晚上又…": that day's evening
            day = said
        if activity is None and not amount:
            continue
        if activity is None or not amount:
            return None
        days: list[str | None] = list(joined) if joined else [day]
        for one in days:
            entry: dict[str, Any] = {"activity": activity, **amount}
            if one:
                entry["day"] = one
            entries.append(entry)
    return entries if len(entries) >= 2 else None


def entries_of(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The several workouts of a log's params (none when it is one workout)."""
    value = params.get("entries")
    if not isinstance(value, list) or len(value) < 2:
        return []
    return [dict(e) for e in value if isinstance(e, Mapping) and e.get("activity")]


def entry_text(entry: Mapping[str, Any], day: str) -> str:
    """One workout as a confirmation lists it: "周一 游泳 30分钟"."""
    amount = "、".join(p for p in (f"{entry['distance_km']:g}公里" if entry.get("distance_km") else "",
                                   f"{entry['minutes']:g}分钟" if entry.get("minutes") else "") if p)
    return f"{day + ' ' if day else ''}{entry['activity']} {amount}"
