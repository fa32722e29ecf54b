"""weather.query: city (message, else the profile's city) and day (今天…大后天, 周六, 这周末, 12月3日, within
the week ahead) → forecast text.

Forecasts are cached per city and hour in ``services.cache`` (Redis-like, optional). When the
provider cannot be reached the reply says so honestly ("暂时查不到") — never an error.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from runtime.skill import ActionSpec, DomainObject, Operation, SkillResult, SkillSpec, SlotSpec, SlotType
from runtime.skill.parsers import parse_time_phrase, skill_cache, time_spans
from runtime.views import ExecView
from skills.datetime import day_entity
from skills.store import get_profile
from skills.weather._cities import clean_city, find_city, other_cities
from skills.weather._triggers import TRIGGERS
from skills.weather.provider import CityForecast, CityNotFound, DayForecast, WeatherUnavailable

__all__ = ["CACHE_TTL_S", "DAYS", "SPEC", "cache_key", "extract_day", "get_forecast", "query"]

log = logging.getLogger(__name__)

DAYS = {"今天": 0, "今日": 0, "明天": 1, "明日": 1, "后天": 2, "大后天": 3}
FORECAST_DAYS = 7  # today and the six days after it
_DATE_WORD = re.compile(r"[天日号周末月]|星期|礼拜")
_WEEKEND = re.compile(r"周末|礼拜六日|星期六日")
CACHE_TTL_S = 2 * 3600


def cache_key(city: str, hour: str) -> str:
    """The Redis key of a city's forecast for one hour (named by runtime.keys via the skill protocol)."""
    return skill_cache("weather", city, hour)


def extract_day(text: str) -> str | None:
    """The day ``text`` names: 今天/明天/后天/大后天 (the longest word wins), else a date phrase
    (周六, 这周末, 下周一, 12月3日) as said; a clock time alone (8点) is not a day."""
    for word in sorted(DAYS, key=len, reverse=True):
        if word in text:
            return word
    for start, end in time_spans(text):
        if _DATE_WORD.search(text[start:end]):
            return text[start:end]
    return None


def _dates(word: str, today: datetime) -> list[date] | None:
    """The dates ``word`` names from ``today`` (two for a weekend); None when it names none."""
    if word in DAYS:
        return [today.date() + timedelta(days=DAYS[word])]
    expr = parse_time_phrase(word, today)
    if expr is None:
        return None
    first = expr.at.astimezone(today.tzinfo).date()
    return [first, first + timedelta(days=1)] if _WEEKEND.search(word) and first.weekday() == 5 else [first]


def get_forecast(provider: Any, cache: Any, city: str, today: date, hour: str) -> CityForecast:
    """The city's forecast from ``today``: from the hourly cache, else from ``provider`` (then cached)."""
    key = cache_key(city, hour)
    if cache is not None:
        try:
            raw = cache.get(key)
            if raw:
                return CityForecast.from_dict(json.loads(raw))
        except Exception:  # a cache outage only costs a provider call
            log.warning("weather cache read failed", exc_info=True)
    forecast: CityForecast = provider.forecast(city, today, FORECAST_DAYS)
    if cache is not None:
        try:
            cache.set(key, json.dumps(forecast.to_dict(), ensure_ascii=False), ex=CACHE_TTL_S)
        except Exception:
            log.warning("weather cache write failed", exc_info=True)
    return forecast


def _advice(day: DayForecast) -> str:
    tips = []
    if day.rainy:
        tips.append("记得带伞")
    if day.temp_min <= 5:
        tips.append("注意保暖")
    elif day.temp_max >= 33:
        tips.append("注意防暑")
    return "，".join(tips)


def _day_label(word: str, day: date) -> str:
    return f"{word}（{_md(day)}）"


def _md(day: date) -> str:
    return f"{day.month}月{day.day}日"


def _day_line(day: DayForecast, on: date) -> str:
    """One day's forecast: 12月5日（周六）：晴，-2~7℃，降水概率10%。注意保暖。"""
    rain = f"，降水概率{day.precip_probability}%" if day.precip_probability is not None else ""
    advice = _advice(day)
    return (f"{_md(on)}（周{'一二三四五六日'[on.weekday()]}）：{day.text}，{day.temp_min:.0f}~{day.temp_max:.0f}℃{rain}。"
            + (advice + "。" if advice else ""))


def query(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """Answer a weather question for a city and a day; several cities said at once are each answered,
    and "哪个冷/哪个热" is answered too."""
    others = [c for c in params.get("others") or () if isinstance(c, str)]
    if others and params.get("city"):
        answers = [_one(view, {**params, "city": c, "others": None}, services) for c in [params["city"], *others]]
        reply = "\n".join(a.reply for a in answers) + _compared(answers, str(params.get("asked") or ""))
        return SkillResult(reply, dto={"cities": [a.dto for a in answers]}, facts=answers[0].facts,
                           ok=all(a.ok for a in answers))
    return _one(view, params, services)


def _compared(answers: list[SkillResult], asked: str) -> str:
    """"哪个冷": the colder city by the lowest temperature (the warmer by the highest for 哪个热)."""
    known = [a.dto for a in answers if a.ok and "temp_min" in a.dto]
    if len(known) < 2 or not re.search(r"哪个|哪边|哪里|谁", asked):
        return ""
    if re.search(r"冷|凉", asked):
        coldest = min(known, key=lambda d: d["temp_min"])
        return f"\n{coldest['city']}更冷一些（最低{coldest['temp_min']:g}℃），记得多穿点。"
    if re.search(r"热|暖", asked):
        warmest = max(known, key=lambda d: d["temp_max"])
        return f"\n{warmest['city']}更暖和一些（最高{warmest['temp_max']:g}℃）。"
    return ""


def _one(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """One city's weather on one day."""
    word = str(params.get("day") or "今天")
    word = extract_day(word) or "今天"
    city = clean_city(str(params.get("city") or "")) or None
    if city is None:
        profile = get_profile(services.db, view.user)
        city = profile.city if profile and profile.city else None
    if city is None:  # the query's frame (its day) stays, so the city said next completes it
        return SkillResult("想查哪个城市的天气？直接回城市名就行，比如“杭州”。",
                           dto={"city": None}, ok=False, asks=True)
    local: datetime = view.now.astimezone(ZoneInfo(view.tz))
    dates = _dates(word, local)
    if not dates:
        return SkillResult(f"“{word}”是哪一天我没弄明白，可以说“明天”“周六”或者“12月3日”。", dto={"city": city}, ok=False)
    last = local.date() + timedelta(days=FORECAST_DAYS - 1)
    if dates[0] < local.date() or dates[-1] > last:
        # an answer, not a failure: the city stays in focus ("那明天呢" asks about the same city)
        return SkillResult(f"{city}{word}（{_md(dates[0])}）的天气还查不到：只能查今天到{_md(last)}这一周的。",
                           dto={"city": city, "day": word, "available": False}, facts={"city": city})
    provider = services.weather
    try:
        if provider is None:
            raise WeatherUnavailable("no provider configured")
        forecast = get_forecast(provider, services.cache, city, local.date(), local.strftime("%Y%m%d%H"))
    except CityNotFound:
        return SkillResult(f"没找到“{city}”这个地方，换个城市名试试？", dto={"city": city, "found": False}, ok=False)
    except WeatherUnavailable as exc:
        log.warning("weather unavailable: %s", exc.reason)
        return SkillResult(f"{city}{word}的天气暂时查不到，天气服务连不上，过一会儿再问我吧。",
                           dto={"city": city, "day": word, "available": False}, facts={"city": city}, ok=False)
    days = [forecast.on(d) for d in dates]
    if any(d is None for d in days):
        return SkillResult(f"{city}{word}的天气暂时查不到。", dto={"city": city, "day": word, "available": False},
                           facts={"city": city}, ok=False)
    parts = [f"{_day_line(d, dates[i])}" for i, d in enumerate(days) if d is not None]
    head = f"{city}{word}" if len(parts) > 1 else f"{city}{_day_label(word, dates[0])}"
    reply = f"{head}：" + ("\n".join(parts) if len(parts) > 1 else parts[0].split("：", 1)[1])
    day = days[0]
    assert day is not None
    target = dates[0]
    dto = {"city": city, "day": word, "date": target.isoformat(), "weather": day.text,
           "temp_min": day.temp_min, "temp_max": day.temp_max, "precip_probability": day.precip_probability,
           "rain": day.rainy}
    return SkillResult(reply, data=dto, dto={k: v for k, v in dto.items() if k != "date"}, facts={"city": city},
                       entities=(day_entity(target, word, word, minor=True),))  # "那天星期几" is about this day


def _comparison(text: str) -> str | None:
    """The words of a comparison ("哪个冷"), kept for the answer."""
    m = re.search(r"(哪个|哪边|哪里|谁)(更)?(冷|热|暖和?|凉快?)", text)
    return m.group() if m else None


def _shown_as(facts: Mapping[str, Any]) -> str:
    """"报了北京明天的天气" for the model summary."""
    return f"报了{facts.get('city') or ''}{facts.get('day') or '今天'}的天气"


SPEC = SkillSpec(
    triggers=TRIGGERS,
    name="weather",
    description="查天气",
    help="天气：比如“明天天气怎么样”",
    objects=(DomainObject("weather", ("天气预报", "天气", "气温", "温度"), ((Operation.SEE, "weather.query"),),
                          noun="天气", signals=("下雨", "下雪", "冷不冷", "热不热", "带伞", "穿什么", "刮风")),),
    actions=(
        ActionSpec(
            name="query", intent="weather.query", run=query, read_only=True, task="查天气", shown_as=_shown_as,
            slots=(
                SlotSpec("city", SlotType.TEXT, "查哪个城市？", required=False, extract=find_city, standalone=True),
                SlotSpec("others", SlotType.TEXT_LIST, "还有别的城市吗？", required=False, extract=other_cities),
                SlotSpec("asked", SlotType.TEXT, "想问什么？", required=False, extract=_comparison),
                SlotSpec("day", SlotType.TEXT, "查哪一天？（今天/明天/后天）", required=False, default="今天",
                         extract=extract_day, standalone=True),
            ),
            description="查某个城市今天、明天或后天的天气",
        ),
    ),
)
