"""The stretch of time a history question is about: 这周, 上礼拜, 这个月, 上个月, 11月份, 今年, 去年, 最近,
最近三天, 过去两周, 近一个月, 周末, 今天, 昨天, from a day until now (上周三到现在, 10号以来) — and the dates it
covers.

Pure. :func:`extract_period` finds the words and gives them back in one plain form (the ``period`` slot's
value, so "那上个月呢" can replace it); :func:`resolve_period` turns that form into a :class:`Period`
against the clock of the run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from runtime.skill.parsers import parse_value
from skills.exercise._when import extract_day, past_day

__all__ = ["RECENT_DAYS", "Period", "extract_period", "find_period", "resolve_period"]

RECENT_DAYS = 30  # "最近" alone
_N = r"[\d一二两三四五六七八九十半]{1,3}"
_WEEK = r"(?:周|星期|礼拜)"
# not a weekday after 周/星期: "这星期一共练了多久", "上周一直在跑"
_NO_DAY = r"(?![一二三四五六日天末几](?<!一)|一(?!共|起|直|般|些|样))"
# each form, most specific first: (pattern, plain form — a format of the match's groups)
_FORMS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), f) for p, f in (
    (rf"(?P<lead>最近|过去|近|这|前)\s*(?P<n>{_N})\s*(?:个)?(?P<unit>天|日|{_WEEK}|月|年)(?:以来|来|内|以内|之内|里)?", "recent"),
    (rf"(?P<n>{_N})\s*(?:个)?(?P<unit>天|{_WEEK}|月)(?:以来|内|以内|之内)", "recent"),
    (r"上上(?:个)?(?:月|月份)", "上上个月"), (r"上(?:个)?月", "上个月"), (r"(?:这个?|本|当)月", "本月"),
    (rf"上上(?:个|一)?{_WEEK}{_NO_DAY}", "上上周"), (rf"上(?:个|一)?{_WEEK}末", "上周末"),
    (rf"(?:这个?|本)?{_WEEK}末", "周末"),
    (rf"上(?:个|一)?{_WEEK}{_NO_DAY}", "上周"), (rf"(?:这个?|本|这一)?{_WEEK}{_NO_DAY}", "本周"),
    (r"去年", "去年"), (r"(?:今年|本年|这一年|这年)", "今年"),
    (r"(?P<month>[\d一二三四五六七八九十]{1,3})\s*月份?(?![\d一二三四五六七八九十]|号|日)", "month"),
    (r"大前天", "大前天"), (r"前天", "前天"), (r"昨天|昨日|昨儿", "昨天"), (r"今天|今日|今儿", "今天"),
    (r"最近|近期|近来|这段时间|这阵子|这些天|这几天|这段日子", "最近"),
    (r"一共|总共|所有|全部|到现在|至今|有史以来|以来|历史", "全部"),
))
# from a day until now: "上周三到现在", "从3号开始到今天", "12月10号以来", "自打上个月5号起"
_SINCE = re.compile(r"(?:从|自打|自从|自)?(?P<day>[^，,。？?]{1,10}?)\s*(?:开始)?(?:到现在|到今天|到目前|至今|以来|起(?:到现在)?)")
_UNIT_DAYS = {"天": 1, "日": 1, "周": 7, "星期": 7, "礼拜": 7, "月": 30, "年": 365}


@dataclass(frozen=True, slots=True)
class Period:
    """Dates ``start``..``end`` (inclusive), how to name them ("本周", "11月"), and the dates said."""

    start: date
    end: date
    name: str

    def span(self) -> str:
        """The dates covered, as said in a reply: "11月23日–11月29日", "12月1日起"."""
        if self.start == self.end:
            return f"{self.start.month}月{self.start.day}日"
        return f"{self.start.month}月{self.start.day}日–{self.end.month}月{self.end.day}日"

    def bounds(self, tz: object) -> tuple[datetime, datetime]:
        """The first and last instant of the period in the user's timezone ``tz``."""
        return (datetime.combine(self.start, time.min, tzinfo=tz),  # type: ignore[arg-type]
                datetime.combine(self.end, time.max, tzinfo=tz))  # type: ignore[arg-type]


def _count(said: str) -> float | None:
    if said == "半":
        return 0.5
    value = parse_value("number", said) if said.isdigit() else parse_value("count", said + "个", answer=True)
    return int(value) if isinstance(value, int | float) and value > 0 else None


def extract_period(text: str) -> str | None:
    """The period a message names, in one plain form ("本周", "上个月", "11月", "最近14天"); None when none."""
    found = find_period(text)
    return found[1] if found else None


def _since(text: str) -> tuple[str, str] | None:
    """"上周三到现在": the words and the plain form ("上周三起": the day as a workout's day is said) of a period
    from a day said until now."""
    m = _SINCE.search(text)
    said = extract_day(m.group("day")) if m else None
    if m is None or said is None or said.startswith("今天"):
        return None
    return m.group(0), f"{said}起"


def find_period(text: str) -> tuple[str, str] | None:
    """The words of ``text`` that name a period, and its plain form ("最近一个月" → "最近30天")."""
    since = _since(text)
    if since is not None:
        return since
    for pattern, form in _FORMS:
        m = pattern.search(text)
        if m is None:
            continue
        if form == "recent":
            n, unit = _count(m.group("n")), m.group("unit")
            if n is None:
                continue
            if n == 1 and (unit in ("天", "日") or m.groupdict().get("lead") == "这"):
                return m.group(0), {"天": "今天", "日": "今天", "月": "本月", "年": "今年"}.get(unit, "本周")  # 这一周
            return m.group(0), f"最近{round(n * _UNIT_DAYS[unit])}天"
        if form == "month":
            month = _count(m.group("month"))
            if month is None or month != int(month) or not 1 <= month <= 12:
                continue
            return m.group(0), f"{int(month)}月"
        return m.group(0), form
    return None


def _month(year: int, month: int) -> tuple[date, date]:
    first = date(year, month, 1)
    nxt = date(year + (month == 12), month % 12 + 1, 1)
    return first, nxt - timedelta(days=1)


def resolve_period(said: str, today: date) -> Period | None:
    """The dates ``said`` (a plain form from :func:`extract_period`) covers, up to ``today``."""
    monday = today - timedelta(days=today.weekday())
    fixed: dict[str, tuple[date, date]] = {
        "今天": (today, today), "昨天": (today - timedelta(days=1),) * 2, "前天": (today - timedelta(days=2),) * 2,
        "大前天": (today - timedelta(days=3),) * 2,
        "本周": (monday, today), "上周": (monday - timedelta(days=7), monday - timedelta(days=1)),
        "上上周": (monday - timedelta(days=14), monday - timedelta(days=8)),
        "上周末": (monday - timedelta(days=2), monday - timedelta(days=1)),
        "本月": (today.replace(day=1), today),
        "今年": (date(today.year, 1, 1), today), "去年": (date(today.year - 1, 1, 1), date(today.year - 1, 12, 31)),
        "最近": (today - timedelta(days=RECENT_DAYS - 1), today), "全部": (date(2000, 1, 1), today),
    }
    if said in fixed:
        start, end = fixed[said]
        return Period(start, min(end, today), said)
    if said == "周末":  # the weekend just past (or this one, once it has begun)
        saturday = monday + timedelta(days=5)
        if saturday > today:
            saturday -= timedelta(days=7)
        return Period(saturday, min(saturday + timedelta(days=1), today), "周末")
    if said in ("上个月", "上上个月"):
        year, month = today.year, today.month - (1 if said == "上个月" else 2)
        if month < 1:
            year, month = year - 1, month + 12
        start, end = _month(year, month)
        return Period(start, end, f"{month}月")
    since = past_day(said[:-1], today) if said.endswith("起") else None
    if since is not None:
        return Period(since, today, f"{since.month}月{since.day}日以来")
    m = re.fullmatch(r"(\d{1,2})月", said)
    if m:
        month = int(m.group(1))
        year = today.year if month <= today.month else today.year - 1
        start, end = _month(year, month)
        return Period(start, min(end, today), f"{month}月" if year == today.year else f"{year}年{month}月")
    m = re.fullmatch(r"最近(\d{1,4})天", said)
    if m:
        days = max(1, min(int(m.group(1)), 3660))
        name = {182: "最近半年", 365: "最近一年"}.get(days) or (f"最近{days // 30}个月" if days >= 60 and days % 30 == 0
                                                           else said)
        return Period(today - timedelta(days=days - 1), today, name)
    return None
