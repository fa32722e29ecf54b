"""Answers about named days: a festival's date, countdowns, weekdays, lunar dates, solar terms,
holiday lengths, week numbers and weekends in a month. Each returns None when the question is
not of its kind, so :func:`skills.datetime.skill.answer` can try the next one.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

import chinese_calendar as cc

from runtime.skill.parsers import festivals, next_solar_term, parse_time_phrase, solar_term_on, solar_to_lunar
from skills.datetime._calendar import last_year_known

__all__ = ["calendar_answer", "counted_to", "fmt", "lunar_text", "named_day"]

WEEKDAYS = "一二三四五六日"
_NAMED_HINT = re.compile("|".join(sorted(map(re.escape, festivals.WORDS), key=len, reverse=True))
                         + r"|农历|阴历|正月|腊月|冬月|初[一二三四五六七八九十]|廿|月底|月初|月中|月末|年底|年初|年末"
                         + r"|[天周月年]后|[天周月年]以后|个月后|天前|周末")
_HOW_LONG = r"(?:几|多少)天|多久|多长时间"
_COUNTDOWN = re.compile(rf"(?:离|距离|距|到)(?P<what>.{{1,12}}?)(?:还有|还剩|还差|还要|有|剩)?(?:{_HOW_LONG})"
                        rf"|(?P<what2>.{{1,12}}?)还(?:有|要|差)(?:{_HOW_LONG})|还有(?:{_HOW_LONG})(?:就到|就是|到)?(?P<what3>.{{1,12}})")
_UNDATED = re.compile(r"^(?:我的|我们的|我|咱们的?|那个|这个)|[，,。？?！!\s]|(?:还|就)$")
_FROM_NOW = re.compile(r"^.*?(?:今天|今儿个?|今日|现在|眼下|这会儿?)[^到离距]{0,4}?(?:到|离|距离|距)")
_HOLIDAY_LENGTH = re.compile(r"放几天|放假几天|放多少天|休几天|放多久|假期多长|几天假|连休几天|放假多少天|休多少天")


def fmt(day: date, *, year: bool = True) -> str:
    """2027年2月6日（星期六）."""
    head = f"{day.year}年" if year else ""
    return f"{head}{day.month}月{day.day}日（星期{WEEKDAYS[day.weekday()]}）"


# the same day of another year, month or week: 明年的今天, 去年今日, 下个月的今天, 上礼拜的今天
_SAME_DAY = re.compile(r"(?P<shift>明年|后年|去年|前年|下个?月|上个?月|下(?:个|一)?(?:周|星期|礼拜)|上(?:个|一)?(?:周|星期|礼拜))"
                       r"(?:的)?(?:今天|今日|今儿|这一?天|这个日子|同一天)")


def _same_day(question: str, today: date) -> tuple[date, str] | None:
    """(day, words) of "明年的今天" and its kind: today moved by a year, a month or a week (29 Feb → 28 Feb)."""
    m = _SAME_DAY.search(question)
    if m is None:
        return None
    shift = m.group("shift")
    if "年" in shift:
        year = today.year + {"明": 1, "后": 2, "去": -1, "前": -2}[shift[0]]
        return date(year, today.month, min(today.day, 28 if today.month == 2 and not _leap(year) else 31)), m.group()
    if "月" in shift:
        step = 1 if shift.startswith("下") else -1
        year, month = divmod(today.year * 12 + today.month - 1 + step, 12)
        last = (date(year + (month == 11), (month + 1) % 12 + 1, 1) - timedelta(days=1)).day
        return date(year, month + 1, min(today.day, last)), m.group()
    return today + timedelta(weeks=1 if shift.startswith("下") else -1), m.group()


def _leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def named_day(question: str, now: datetime) -> tuple[date, str] | None:
    """(day, words) of a festival, lunar date, month end, N天后 or the same day of another year (明年的今天)
    named in ``question``; None otherwise."""
    same = _same_day(question, now.date())
    if same is not None:
        return same
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    expr = parse_time_phrase(question, midnight)
    if expr is None or not expr.said or not _NAMED_HINT.search(expr.said):
        return None
    return expr.at.date(), expr.said


def _festival(words: str) -> festivals.Festival | None:
    found = [festivals.by_word(w) for w in festivals.WORDS if w in words]
    return max((f for f in found if f), key=lambda f: len(f.name), default=None)


def lunar_text(day: date, *, term_too: bool = True) -> str:
    lunar = solar_to_lunar(day)
    term = solar_term_on(day) if term_too else None
    extra = f"，{term}" if term else ""
    return f"农历{lunar.month_name}{lunar.day_name}{extra}"


def _statutory(festival: festivals.Festival, day: date) -> str:
    """What is known about the statutory days off around ``day``."""
    if not festival.statutory:
        return ""
    if day.year > last_year_known():
        return f"{day.year}年的放假安排还没公布（节假日数据目前只到{last_year_known()}年），以国务院办公厅通知为准。"
    days = _holiday_run(festival.statutory, day)
    if not days:
        return ""
    return f"放假：{days[0].month}月{days[0].day}日到{days[-1].month}月{days[-1].day}日，共{len(days)}天。"


def _holiday_run(english: str, near: date) -> list[date]:
    """The statutory days off named ``english`` within two weeks of ``near`` (known years only)."""
    days = []
    for offset in range(-14, 15):
        day = near + timedelta(days=offset)
        try:
            on, name = cc.get_holiday_detail(day)
        except NotImplementedError:
            continue
        if on and name == english:
            days.append(day)
    return days


def _festival_date(question: str, day: date, words: str, today: date) -> str | None:
    festival = _festival(words)
    name = festival.name if festival else words
    if re.search(r"星期几|周几|礼拜几", question) and not re.search(r"几号|哪天|什么时候|日期", question):
        return f"{name}（{fmt(day)}）是星期{WEEKDAYS[day.weekday()]}。"
    if re.search(r"周末", question):  # "中秋那天是不是周末"
        weekend = day.weekday() >= 5
        return f"{'是' if weekend else '不是'}，{name}是{fmt(day)}" + ("，正好是周末。" if weekend else "。")
    lunar = f"，{lunar_text(day, term_too=festival is None or festival.rule is not festivals.Rule.TERM)}"
    head = f"{name}是{fmt(day)}{lunar}。"
    if festival is not None and day < today:
        again = next(festivals.occurrences(festival, today), None)
        head = f"{name}是{fmt(day)}{lunar}，已经过去了。" + (f"下一个是{fmt(again)}。" if again else "")
    elif festival is not None and day == today:
        head = f"今天就是{name}（{fmt(day)}{lunar}）！"
    return head + (_statutory(festival, day) if festival else "")


def _countdown(question: str, now: datetime) -> str | None:
    m = _COUNTDOWN.search(question)
    if m is None:
        return None
    what = next(g for g in (m.group("what"), m.group("what2"), m.group("what3"), "") if g is not None)
    what = _FROM_NOW.split(what)[-1] or what  # "从今天到五一还有几天": the day counted to, not the one from
    found = named_day(what, now) or _plain_day(what, now)
    if found is None:
        thing = _UNDATED.sub("", what).strip()
        # "离我生日还有几天": a day only the user knows — asked, never answered with today
        return f"“{thing}”是哪天呀？告诉我日期（比如“5月20日”）我就能算还有几天。" if thing else None
    day, words = found
    today = now.date()
    festival = _festival(words)
    name = festival.name if festival else words
    return countdown(f"{name}（{fmt(day)}）", (day - today).days, today=f"今天就是{name}（{fmt(day)}）！")


def counted_to(question: str) -> str:
    """The question without the day it counts from ("从今天到端午还有几天" → "端午还有几天")."""
    return _FROM_NOW.sub("", question) or question


def countdown(subject: str, days: int, *, today: str) -> str:
    """How far ``subject`` is, ``days`` from today (negative: past); ``today`` is the answer on the day."""
    if days == 0:
        return today
    if days < 0:
        return f"{subject}已经过去{-days}天了。"
    return f"离{subject}还有{days}天。"


def _plain_day(text: str, now: datetime) -> tuple[date, str] | None:
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    expr = parse_time_phrase(text, midnight)
    return None if expr is None or not expr.said else (expr.at.date(), expr.said)


def _lunar_question(question: str, now: datetime) -> str | None:
    if not re.search(r"农历|阴历|旧历", question) or not re.search(r"几|什么|哪|多少", question):
        return None
    found = _plain_day(question, now)
    if found is not None and re.search(r"(?:农历|阴历)[^几什么哪]*?(?:月|初|廿|十|号)", found[1]):
        day, words = found  # 农历八月十五是几号: the Gregorian day of a lunar date
        return f"{words}是{fmt(day)}。"
    day = found[0] if found else now.date()
    label = found[1] if found else "今天"
    lunar = solar_to_lunar(day)
    names = [f.name for f in festivals.festivals_on(day)]
    extra = f"，是{'、'.join(names)}" if names else ""
    return f"{label}（{fmt(day)}）是农历{lunar.ganzhi}{lunar.zodiac}年{lunar.month_name}{lunar.day_name}{extra}。"


def _term_question(question: str, now: datetime) -> str | None:
    if not re.search(r"节气", question):
        return None
    today = now.date()
    term = solar_term_on(today)
    upcoming = next_solar_term(today + timedelta(days=1))
    head = f"今天是{term}。" if term else ""
    if upcoming is None:
        return head or None
    name, day = upcoming
    return f"{head}下一个节气是{name}，{fmt(day)}，还有{(day - today).days}天。"


def _holiday_length(question: str, now: datetime) -> str | None:
    if not _HOLIDAY_LENGTH.search(question):
        return None
    festival = _festival(question)
    if festival is None or not festival.statutory:
        return None
    today = now.date()
    year_m = re.search(r"(\d{4})年|(今|明|去)年", question)
    year = None
    if year_m:
        year = int(year_m.group(1)) if year_m.group(1) else today.year + {"今": 0, "明": 1, "去": -1}[year_m.group(2)]
    day = festivals.in_year(festival, year) if year else next(festivals.occurrences(festival, today), None)
    if day is None:
        return None
    if day.year > last_year_known():
        last = festivals.in_year(festival, last_year_known())
        known = _holiday_run(festival.statutory, last) if last else []
        was = f"{last_year_known()}年{festival.name}放了{len(known)}天（{known[0].month}月{known[0].day}日到" \
              f"{known[-1].month}月{known[-1].day}日）。" if known else ""
        return (f"{day.year}年{festival.name}是{fmt(day)}，放几天假还没公布（节假日数据目前只到{last_year_known()}年）。"
                f"{was}")
    days = _holiday_run(festival.statutory, day)
    if not days:
        return None
    return f"{day.year}年{festival.name}放假{len(days)}天：{fmt(days[0], year=False)}到{fmt(days[-1], year=False)}。"


_REMAINING = re.compile(r"(今年|这一年|本年|这个月|本月|这周|本周|这个星期|这礼拜)(还)?(剩|有|剩下)(几|多少)天")


def _remaining(question: str, now: datetime) -> str | None:
    """今年还剩几天 / 这个月还剩几天 / 这周还剩几天: whole days after today, to the period's last day."""
    m = _REMAINING.search(question)
    if m is None:
        return None
    today, span = now.date(), m.group(1)
    if "年" in span:
        last, name = date(today.year, 12, 31), "今年"
    elif "月" in span:
        nxt = date(today.year + today.month // 12, today.month % 12 + 1, 1)
        last, name = nxt - timedelta(days=1), "这个月"
    else:
        last, name = today + timedelta(days=6 - today.weekday()), "这周"
    left = (last - today).days
    return (f"{name}还剩{left}天（不算今天；到{last.month}月{last.day}日），算上今天是{left + 1}天。" if left
            else f"今天就是{name}的最后一天了。")


def _week_number(question: str, now: datetime) -> str | None:
    if not re.search(r"第几周|第几个星期|第几个礼拜|多少周", question):
        return None
    today = now.date()
    year, week, _ = today.isocalendar()
    return f"今天是{year}年的第{week}周（按ISO周计，周一为一周的第一天）。"


_CN_MONTH = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10, "十一": 11,
             "十二": 12}


def _weekends(question: str, now: datetime) -> str | None:
    if not re.search(r"几个周末|多少个周末|周末有哪几天|哪几个周末|几个双休", question):
        return None
    today = now.date()
    year, month = today.year, today.month
    m = re.search(r"(下个?月|上个?月)|(\d{1,2}|十[一二]?|[一二三四五六七八九])月", question)
    if m and m.group(1):
        month += 1 if m.group(1).startswith("下") else -1
        year, month = (year + 1, 1) if month == 13 else (year - 1, 12) if month == 0 else (year, month)
    elif m and m.group(2):
        raw = m.group(2)
        month = int(raw) if raw.isdigit() else _CN_MONTH[raw]
        if not 1 <= month <= 12:
            return None
    first = date(year, month, 1)
    days = [first + timedelta(days=n) for n in range(31) if (first + timedelta(days=n)).month == month
            and (first + timedelta(days=n)).weekday() >= 5]
    groups: list[list[date]] = []
    for day in days:
        if groups and (day - groups[-1][-1]).days == 1:
            groups[-1].append(day)
        else:
            groups.append([day])
    parts = "、".join(f"{g[0].day}–{g[-1].day}日" if len(g) > 1 else f"{g[0].day}日（星期{WEEKDAYS[g[0].weekday()]}）"
                     for g in groups)
    return f"{year}年{month}月有{len(groups)}个周末（{len(days)}天）：{parts}。"


_IS_IT = re.compile(r"(?P<day>今天|明天|后天|今儿|明儿|今日)(?:是不是|是|就是)(?P<what>[^，,。？?]{1,8}?)(?:吗|吧|呀|啊|呢|么)?[？?！!。]*$")
_OFFSET = {"今天": 0, "今儿": 0, "今日": 0, "明天": 1, "明儿": 1, "后天": 2}


def _is_it(question: str, now: datetime) -> str | None:
    """"今天是不是龙抬头" / "明天是冬至吗": yes or no, and when it is."""
    m = _IS_IT.search(question)
    if m is None:
        return None
    found = named_day(m.group("what"), now)
    if found is None:
        return None
    day, words = found
    festival = _festival(words)
    name = festival.name if festival else words
    asked = now.date() + timedelta(days=_OFFSET[m.group("day")])
    if day == asked:
        return f"是的，{m.group('day')}就是{name}（{fmt(day)}，{lunar_text(day)}）！"
    days = (day - now.date()).days
    when = f"还有{days}天" if days > 0 else f"已经过去{-days}天了"
    return f"{m.group('day')}不是{name}。{name}是{fmt(day)}，{when}。"


def calendar_answer(question: str, now: datetime) -> str | None:
    """The answer when ``question`` is about a named day or the calendar; None to fall through."""
    for kind in (_is_it, _remaining, _countdown, _lunar_question, _term_question, _holiday_length, _week_number, _weekends):
        reply = kind(question, now)
        if reply is not None:
            return reply
    found = named_day(question, now)
    if found is None:
        return None
    day, words = found
    if re.search(r"工作日|上班|调休|放假|休息|节假", question):
        return None  # the workday answer knows about make-up days
    return _festival_date(question, day, words, now.date())
