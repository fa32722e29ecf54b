"""Tool answers recorded at the edge and answered again in re-runs.

Built where the services are built (``bot.compose``): :class:`RecordingWeather` wraps the weather port and
:class:`RecordingCache` the skills' cache, so every forecast a turn used — fetched, or read from the
hourly cache — and every weather error land in the turn's transcript entry
(``runtime.transcript.ToolCall``). A re-run (``wxbot replay USER --rerun``, the admin page's diff)
answers each turn's weather from that record with :class:`ReplayWeather`; a turn recorded before
recording existed (or a question the turn did not ask) falls back to the deterministic fake.
The clock needs no recording: a turn runs at its recorded ``Inbound.at``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date
from typing import Any

from runtime import keys
from runtime.transcript import ToolCall, record_tool_call
from skills.weather import (
    CityForecast,
    CityNotFound,
    FakeWeatherProvider,
    WeatherProvider,
    WeatherUnavailable,
)

__all__ = ["WEATHER", "RecordingCache", "RecordingWeather", "ReplayWeather"]

WEATHER = "weather.forecast"
_WEATHER_CACHE = keys.skill_cache("weather", "")  # the prefix of the weather skill's cache keys


def _args(city: str, start: date | str, days: int) -> dict[str, Any]:
    return {"city": city, "start": str(start), "days": days}


class RecordingWeather:
    """A :class:`WeatherProvider` that records each answer (or error) of ``inner`` for the turn."""

    def __init__(self, inner: WeatherProvider) -> None:
        self.inner = inner

    def forecast(self, city: str, start: date, days: int) -> CityForecast:
        try:
            found = self.inner.forecast(city, start, days)
        except CityNotFound as exc:
            record_tool_call(ToolCall(tool=WEATHER, args=_args(city, start, days),
                                      error={"type": "CityNotFound", "detail": exc.city}))
            raise
        except WeatherUnavailable as exc:
            record_tool_call(ToolCall(tool=WEATHER, args=_args(city, start, days),
                                      error={"type": "WeatherUnavailable", "detail": exc.reason}))
            raise
        record_tool_call(ToolCall(tool=WEATHER, args=_args(city, start, days), result=found.to_dict()))
        return found


class RecordingCache:
    """The skills' cache client, recording the forecasts the weather skill reads from it (a cached
    forecast is what the turn answered from); every other call goes straight through."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def get(self, key: Any) -> Any:
        value = self.inner.get(key)
        name = key.decode() if isinstance(key, bytes) else str(key)
        if value is not None and name.startswith(_WEATHER_CACHE):
            try:
                raw = json.loads(value)
                days = raw["days"]
                record_tool_call(ToolCall(tool=WEATHER, args=_args(raw["city"], days[0]["day"], len(days)),
                                          result=raw, cached=True))
            except (ValueError, KeyError, IndexError, TypeError):
                pass  # the skill will not use it either: it fetches anew, and that answer is recorded
        return value

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class ReplayWeather:
    """Answers forecasts from a turn's recorded tool calls (:meth:`load` before each turn); what the
    record lacks comes from ``fallback`` (the deterministic fake). ``replayed`` and ``missed`` count."""

    def __init__(self, fallback: WeatherProvider | None = None) -> None:
        self.fallback = fallback or FakeWeatherProvider()
        self._calls: list[ToolCall] = []
        self.replayed = 0
        self.missed = 0

    def load(self, calls: Sequence[ToolCall]) -> None:
        """The recorded calls of the next turn to re-run."""
        self._calls = [c for c in calls if c.tool == WEATHER]

    def forecast(self, city: str, start: date, days: int) -> CityForecast:
        call = next((c for c in self._calls if c.args.get("city") == city
                     and c.args.get("start") == start.isoformat()), None)
        call = call or next((c for c in self._calls if c.args.get("city") == city), None)
        if call is None:
            self.missed += 1
            return self.fallback.forecast(city, start, days)
        self.replayed += 1
        if call.error is not None:
            if call.error.get("type") == "CityNotFound":
                raise CityNotFound(call.error.get("detail", city))
            raise WeatherUnavailable(call.error.get("detail", "recorded as unavailable"))
        assert call.result is not None
        return CityForecast.from_dict(call.result)
