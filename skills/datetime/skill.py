"""datetime.query: today's date, the time, weekdays, relative days, workdays and public holidays."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime, timedelta
from typing import Any

from runtime.skill import ActionSpec, DomainObject, Operation, SkillResult, SkillSpec, SlotSpec, SlotType
from runtime.skill.parsers import festivals
from runtime.views import ExecView
from skills.datetime._calendar import HOLIDAY_NAMES, BeyondCalendar, day_kind, holiday_days, last_year_known
from skills.datetime._calendar_answers import calendar_answer, counted_to, lunar_text, named_day
from skills.datetime._focus import DAY_QUESTIONS, aspect_answer, day_entity
from skills.datetime._triggers import TRIGGERS
from skills.datetime._zones import city_time
from skills.datetime.followup import follow_up_params

WEEKDAYS = "一二三四五六日"
_WD = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6, "1": 0, "2": 1, "3": 2,
       "4": 3, "5": 4, "6": 5, "7": 6}
_REL = {"大前天": -3, "前天": -2, "昨天": -1, "今天": 0, "今日": 0, "明天": 1, "明日": 1, "后天": 2, "大后天": 3,
        "大前儿": -3, "前儿": -2, "昨儿": -1, "今儿": 0, "明儿": 1, "后儿": 2, "大后儿": 3}


def fmt_day(day: date, *, year: bool = False) -> str:
    """12月3日（周四）, optionally with the year."""
    head = f"{day.year}年" if year else ""
    return f"{head}{day.month}月{day.day}日（星期{WEEKDAYS[day.weekday()]}）"


def resolve_day(text: str, today: date) -> date | None:
    """The day a question is about: 今天/明天/下周一/这周五/周三/12月24日/3号; None when none is named."""
    m = re.search(r"(下下|下个?|这个?|本|上个?)?(?:周|星期|礼拜)([一二三四五六日天1-7])", text)
    if m:
        prefix, target = m.group(1) or "", _WD[m.group(2)]
        monday = today - timedelta(days=today.weekday())
        week = {"下下": 2, "上": -1, "上个": -1}.get(prefix, 1 if prefix.startswith("下") else 0)
        day = monday + timedelta(weeks=week, days=target)
        if not prefix and day < today:
            day += timedelta(weeks=1)
        return day
    m = re.search(r"(下个?|这个?|本)月(\d{1,2})[日号]", text)
    if m:
        year, month = today.year, today.month
        if m.group(1).startswith("下"):
            year, month = (year + 1, 1) if month == 12 else (year, month + 1)
        try:
            return date(year, month, int(m.group(2)))
        except ValueError:
            return None
    m = re.search(r"(\d{1,2})月(\d{1,2})[日号]?", text)
    if m:
        month, dom = int(m.group(1)), int(m.group(2))
        try:
            day = date(today.year, month, dom)
        except ValueError:
            return None
        return day if day >= today else date(today.year + 1, month, dom)
    m = re.search(r"(?<!月)(\d{1,2})[号日]", text)
    if m and not re.search(r"几[号日]", text):
        dom = int(m.group(1))
        year, month = today.year, today.month
        if dom < today.day:
            year, month = (year + 1, 1) if month == 12 else (year, month + 1)
        try:
            return date(year, month, dom)
        except ValueError:
            return None
    for word in sorted(_REL, key=len, reverse=True):
        if word in text:
            return today + timedelta(days=_REL[word])
    return None


# holidays on a fixed solar date (the others move with the lunar calendar)
_FIXED = {(1, 1): "元旦", (5, 1): "劳动节", (10, 1): "国庆节", (10, 2): "国庆节", (10, 3): "国庆节"}
_FIXED_START = {"元旦": (1, 1), "劳动节": (5, 1), "国庆节": (10, 1), "国庆": (10, 1)}
# a holiday word that is really part of a date or number: 十一月, 二十一号, 五一点
_NOT_A_HOLIDAY = re.compile(r"[一二三四五六七八九十零两\d]十一|十一[月号日点]|五一[月号日点]|[十\d]五一")


_CN_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def _cn_small(run: str) -> int | None:
    """一..三十一 (days and months) as an int; None for anything else."""
    tens, _, ones = run.rpartition("十")
    if "十" not in run:
        return _CN_DIGITS.get(run) if len(run) == 1 else None
    ten = 1 if tens == "" else _CN_DIGITS.get(tens)
    one = 0 if ones == "" else _CN_DIGITS.get(ones)
    return None if ten is None or one is None or len(tens) > 1 or len(ones) > 1 else ten * 10 + one


def _digits_for_dates(text: str) -> str:
    """十一月二十一号 → 11月21号 (only numerals that name a month or a day)."""
    def repl(m: re.Match[str]) -> str:
        value = _cn_small(m.group(1))
        return m.group(0) if value is None else f"{value}{m.group(2)}"

    return re.sub(r"([一二两三四五六七八九十]{1,3})([月号日])", repl, text)


def _mentioned_holiday(question: str) -> tuple[str, str] | None:
    cleaned = _NOT_A_HOLIDAY.sub("", question)
    for word, english in HOLIDAY_NAMES.items():
        if word in cleaned:
            return word, english
    return None


def _holiday_answer(name_cn: str, english: str, today: date) -> str:
    days = holiday_days(english, today)
    if not days:
        festival = festivals.by_word(name_cn)
        upcoming = next(festivals.occurrences(festival, today), None) if festival is not None else None
        fixed = _FIXED_START.get(name_cn)
        if upcoming is None and fixed:
            upcoming = date(today.year + (date(today.year, *fixed) < today), *fixed)
        year = upcoming.year if upcoming is not None else today.year + 1  # the next one, this year if still ahead
        head = f"{year}年{name_cn}是{fmt_day(upcoming)}，具体" if upcoming is not None else f"{year}年{name_cn}的"
        return (f"{head}放假安排我这里还没有（节假日数据目前只到{last_year_known()}年），"
                f"要等国务院办公厅发布通知。一般来说{name_cn}是法定节假日，会放假的。")
    first, last = days[0], days[-1]
    span = f"{fmt_day(first)}到{fmt_day(last)}，共{len(days)}天" if len(days) > 1 else fmt_day(first)
    return f"{name_cn}放假：{span}。"


def _kind_answer(day: date, label: str) -> str:
    try:
        kind, name = day_kind(day)
    except BeyondCalendar:
        holiday = _FIXED.get((day.month, day.day))
        if holiday:
            return (f"{label}（{fmt_day(day)}）是{holiday}，法定节假日，一般会放假；"
                    f"具体安排我这里还没有（数据只到{last_year_known()}年），以官方通知为准。")
        return (f"{label}（{fmt_day(day)}）的节假日安排我这里还没有（数据只到{last_year_known()}年），"
                f"按星期看是{'周末' if day.weekday() >= 5 else '工作日'}，以官方通知为准。")
    words = {"holiday": f"是法定节假日（{name}），放假", "weekend": "是周末，休息",
             "makeup": "是调休上班日，要上班", "workday": "是工作日，要上班"}
    head = fmt_day(day) if re.fullmatch(r"\d{1,2}月\d{1,2}[日号]?", label) else f"{label}是{fmt_day(day)}"
    return f"{head}，{words[kind]}。"


def answer(question: str, now: datetime) -> str:
    """The deterministic answer to one date/time question, in Chinese."""
    special = city_time(question, now) or calendar_answer(question, now)
    if special is not None:
        return special
    today = now.date()
    holiday = _mentioned_holiday(question)
    if holiday and re.search(r"放假|休息|节假|几号|哪天|什么时候|上班|调休", question):
        word, english = holiday
        name = {"过年": "春节", "五一": "劳动节", "十一": "国庆节"}.get(word, word)
        return _holiday_answer(name, english, today)
    question = _digits_for_dates(question)
    day = resolve_day(question, today)
    named = re.search(r"(下下|下个?|这个?|本|上个?)?(?:周|星期|礼拜)[一二三四五六日天1-7]|\d{1,2}月\d{1,2}[日号]?"
                      r"|(?:下个?|这个?|本)月\d{1,2}[日号]|(?<![月\d])\d{1,2}[日号]", question)
    label = next((w for w in sorted(_REL, key=len, reverse=True) if w in question), None) or (
        named.group(0) if named else ("那天" if day is not None else "今天"))
    target = day or today
    if re.search(r"工作日|上班|放假|休息|节假日|调休|休息日|是不是周末|是周末|周末吗", question):
        return _kind_answer(target, label)
    if re.search(r"几点|时间|几时|时刻|报(?:个|一下|下)?时", question) and day is None:
        return f"现在是{now:%H:%M}，{fmt_day(today, year=True)}。"
    if re.search(r"星期几|周几|礼拜几", question) and not re.search(r"几号|几月", question):
        weekday = f"星期{WEEKDAYS[target.weekday()]}"
        dated = re.fullmatch(r"(?:\d{4}年)?\d{1,2}月\d{1,2}[日号]?", label)
        return f"{label}是{weekday}。" if dated else f"{label}是{weekday}（{target.month}月{target.day}日）。"
    if re.search(r"几年|哪年|今年", question) and day is None:
        return f"今年是{today.year}年。"
    head = f"{label}是{fmt_day(target, year=target.year != today.year or label in ('今天', '今日'))}"
    if re.search(r"什么日子|啥日子|什么节|啥节|特别的日子", question):  # 今天是什么日子: its festivals too
        fests = [f.name for f in festivals.festivals_on(target)]
        return f"{head}，{'、'.join(fests)}。" if fests else f"{head}，{lunar_text(target)}，不是什么节日。"
    return f"{head}。"


def _subject(question: str, now: datetime) -> tuple[date, str] | None:
    """The day a question is about and how it was named (a festival, 下周五, 12月3日, 明天), if one; a countdown
    is about the day it counts to."""
    question = counted_to(question)
    named = named_day(question, now)
    if named is not None:
        word = _mentioned_holiday(question)
        return named[0], word[0] if word else named[1]
    holiday = _mentioned_holiday(question)
    if holiday is not None:
        found = named_day(holiday[0], now)
        if found is not None:
            return found[0], holiday[0]
    text = _digits_for_dates(question)
    day = resolve_day(text, now.date())
    if day is None:
        return None
    said = re.search(r"(下下|下个?|这个?|本|上个?)?(?:周|星期|礼拜)[一二三四五六日天1-7]|\d{1,2}月\d{1,2}[日号]?"
                     r"|(?:下个?|这个?|本)月\d{1,2}[日号]|(?<![月\d])\d{1,2}[日号]", text)
    label = next((w for w in sorted(_REL, key=len, reverse=True) if w in text), None) or (said.group(0) if said else "")
    return day, label


def _run(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    question = str(params.get("question") or "今天几号")
    aspect, day = params.get("aspect"), params.get("day")
    if isinstance(aspect, str) and isinstance(day, str):  # a question about the day just answered
        on = date.fromisoformat(day)
        reply = aspect_answer(on, str(params.get("label") or ""), aspect, view.now, lunar=bool(params.get("lunar")),
                              claim=str(params.get("claim") or ""))
        subject: tuple[date, str] | None = (on, str(params.get("label") or ""))
    else:
        reply = answer(question, view.now)
        subject = _subject(question, view.now)
    entities = (day_entity(subject[0], subject[1], question),) if subject is not None else ()
    return SkillResult(reply=reply, dto={"answer": reply}, entities=entities)


SPEC = SkillSpec(
    triggers=TRIGGERS,
    name="datetime",
    vocabulary=lambda: festivals.WORDS,
    description="日期、时间、星期、工作日和节假日",
    help="日期和节日：比如“今天几号”“离春节还有几天”",
    objects=(DomainObject("day", ("那一天", "这一天", "那天", "当天", "这天", "同一天", "同一日", "同天", "那日", "当日",
                                  "日子"),
                          ((Operation.SEE, "datetime.query"),), noun="日子",
                          refers=("那一天", "这一天", "那天", "当天", "这天", "同一天", "同一日", "同天", "那日", "当日"),
                          questions=DAY_QUESTIONS,
                          anchors=("提前一天", "提前两天", "提前三天", "前一天", "前两天", "前三天", "前一晚", "头一天",
                                   "后一天", "第二天", "次日", "隔天", "后两天")),),
    actions=(
        ActionSpec(name="query", intent="datetime.query", run=_run, read_only=True, follow_up=follow_up_params,
                   task="查日期时间", shown_as="回答了“{question}”",
                   description="回答日期、时间、星期几、节日、农历、倒计时、是否放假、其他城市的时间",
                   slots=(SlotSpec("question", SlotType.TEXT, "你想问哪天？", required=False,
                                   extract=lambda text: text.strip() or None),)),
    ),
)
