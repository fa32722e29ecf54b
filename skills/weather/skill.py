"""weather.query: city (message, else the profile's city) and day (今天/明天/后天/大后天) → forecast text.

Forecasts are cached per city and hour in ``services.cache`` (Redis-like, optional). When the
provider cannot be reached the reply says so honestly ("暂时查不到") — never an error.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from runtime.skill import ActionSpec, SkillResult, SkillSpec, SlotSpec, SlotType, skill_cache
from runtime.views import ExecView
from skills.store import get_profile
from skills.weather._cities import clean_city, find_city
from skills.weather._triggers import TRIGGERS
from skills.weather.provider import CityForecast, CityNotFound, DayForecast, WeatherUnavailable

__all__ = ["CACHE_TTL_S", "DAYS", "SPEC", "cache_key", "extract_day", "get_forecast", "query"]

log = logging.getLogger(__name__)

DAYS = {"今天": 0, "今日": 0, "明天": 1, "明日": 1, "后天": 2, "大后天": 3}
FORECAST_DAYS = 4
CACHE_TTL_S = 2 * 3600


def cache_key(city: str, hour: str) -> str:
    """The Redis key of a city's forecast for one hour (named by runtime.keys via the skill protocol)."""
    return skill_cache("weather", city, hour)


def extract_day(text: str) -> str | None:
    """今天/明天/后天/大后天 named in ``text`` (the longest word wins)."""
    for word in sorted(DAYS, key=len, reverse=True):
        if word in text:
            return word
    return None


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
    return f"{word}（{day.month}月{day.day}日）"


def query(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """Answer a weather question for a city and a day."""
    word = str(params.get("day") or "今天")
    word = extract_day(word) or "今天"
    city = clean_city(str(params.get("city") or "")) or None
    if city is None:
        profile = get_profile(services.db, view.user)
        city = profile.city if profile and profile.city else None
    if city is None:  # the query's frame (its day) stays, so the city said next completes it
        return SkillResult("想查哪个城市的天气？可以说“杭州明天天气”，或者告诉我“我在杭州”，以后就默认查它。",
                           dto={"city": None}, ok=False, asks=True)
    local: datetime = view.now.astimezone(ZoneInfo(view.tz))
    target = local.date() + timedelta(days=DAYS[word])
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
    day = forecast.on(target)
    if day is None:
        return SkillResult(f"{city}{word}的天气暂时查不到。", dto={"city": city, "day": word, "available": False},
                           facts={"city": city}, ok=False)
    rain = f"，降水概率{day.precip_probability}%" if day.precip_probability is not None else ""
    reply = f"{city}{_day_label(word, target)}：{day.text}，{day.temp_min:.0f}~{day.temp_max:.0f}℃{rain}。"
    advice = _advice(day)
    if advice:
        reply += advice + "。"
    dto = {"city": city, "day": word, "date": target.isoformat(), "weather": day.text,
           "temp_min": day.temp_min, "temp_max": day.temp_max, "precip_probability": day.precip_probability,
           "rain": day.rainy}
    return SkillResult(reply, data=dto, dto={k: v for k, v in dto.items() if k != "date"}, facts={"city": city})


SPEC = SkillSpec(
    triggers=TRIGGERS,
    name="weather",
    description="查天气",
    actions=(
        ActionSpec(
            name="query", intent="weather.query", run=query, read_only=True,
            slots=(
                SlotSpec("city", SlotType.TEXT, "查哪个城市？", required=False, extract=find_city, standalone=True),
                SlotSpec("day", SlotType.TEXT, "查哪一天？（今天/明天/后天）", required=False, default="今天",
                         extract=extract_day, standalone=True),
            ),
            description="查某个城市今天、明天或后天的天气",
        ),
    ),
)
