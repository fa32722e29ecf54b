"""The weather port: :class:`WeatherProvider`, its forecast records and errors, and a deterministic fake."""

from __future__ import annotations

import zlib
from dataclasses import asdict, dataclass
from datetime import date, timedelta
from typing import Any, Protocol

from skills.weather._climate import monthly_mean, rain_chance

__all__ = ["CityForecast", "CityNotFound", "DayForecast", "FakeWeatherProvider", "WMO_TEXT", "WeatherError",
           "WeatherProvider", "WeatherUnavailable", "describe_code"]

# WMO weather interpretation codes (as used by Open-Meteo) in Chinese
WMO_TEXT: dict[int, str] = {
    0: "晴", 1: "晴间多云", 2: "多云", 3: "阴", 45: "雾", 48: "雾凇", 51: "小毛毛雨", 53: "毛毛雨", 55: "较强毛毛雨",
    56: "冻毛毛雨", 57: "冻毛毛雨", 61: "小雨", 63: "中雨", 65: "大雨", 66: "冻雨", 67: "冻雨", 71: "小雪", 73: "中雪",
    75: "大雪", 77: "雪粒", 80: "小阵雨", 81: "阵雨", 82: "强阵雨", 85: "阵雪", 86: "强阵雪", 95: "雷阵雨",
    96: "雷阵雨伴冰雹", 99: "强雷阵雨伴冰雹",
}


def describe_code(code: int) -> str:
    """The Chinese words for a WMO weather code."""
    return WMO_TEXT.get(code, "天气多变")


class WeatherError(Exception):
    """Base of the weather errors."""


class WeatherUnavailable(WeatherError):
    """The provider could not be reached or answered nonsense; carries the reason."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class CityNotFound(WeatherError):
    """The provider does not know this place."""

    def __init__(self, city: str) -> None:
        super().__init__(city)
        self.city = city


@dataclass(frozen=True, slots=True)
class DayForecast:
    """One day's forecast for a city."""

    day: str                 # ISO date, local to the city
    code: int                # WMO weather code
    temp_min: float
    temp_max: float
    precip_probability: int | None
    precip_mm: float | None

    @property
    def text(self) -> str:
        return describe_code(self.code)

    @property
    def rainy(self) -> bool:
        """Rain (or snow/showers) expected, or a high chance of it."""
        return self.code >= 51 or (self.precip_probability or 0) >= 50


@dataclass(frozen=True, slots=True)
class CityForecast:
    """Forecast days for a resolved city."""

    city: str
    days: tuple[DayForecast, ...]

    def on(self, day: date) -> DayForecast | None:
        """The forecast for ``day`` if it is covered."""
        return next((d for d in self.days if d.day == day.isoformat()), None)

    def to_dict(self) -> dict[str, Any]:
        return {"city": self.city, "days": [asdict(d) for d in self.days]}

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> CityForecast:
        return cls(raw["city"], tuple(DayForecast(**d) for d in raw["days"]))


class WeatherProvider(Protocol):
    """Daily forecasts for a city, starting at ``start`` (the user's local date) for ``days`` days.

    Raises :class:`CityNotFound` or :class:`WeatherUnavailable`; never anything else.
    """

    def forecast(self, city: str, start: date, days: int) -> CityForecast: ...


class FakeWeatherProvider:
    """Deterministic forecasts derived from the city name and date (tests, ``--fake-weather``).

    Temperatures follow the city's rough climate for the season (``_climate``), so Beijing in
    December is below freezing and Guangzhou mild; a wet day below 1 °C is snow. ``unavailable=True``
    simulates a provider that cannot be reached; ``unknown`` lists cities it does not know. ``calls``
    counts forecast requests (to observe caching).
    """

    _DRY = (0, 1, 2, 3, 1, 0, 2)
    _WET = (61, 63, 80, 61, 51)
    _SNOW = (71, 73, 85, 71)

    def __init__(self, *, unavailable: bool = False, unknown: tuple[str, ...] = ()) -> None:
        self.unavailable = unavailable
        self.unknown = unknown
        self.calls = 0

    def forecast(self, city: str, start: date, days: int) -> CityForecast:
        self.calls += 1
        if self.unavailable:
            raise WeatherUnavailable("fake provider switched off")
        if city in self.unknown:
            raise CityNotFound(city)
        return CityForecast(city, tuple(self._day(city, start + timedelta(days=n)) for n in range(days)))

    def _day(self, city: str, day: date) -> DayForecast:
        seed = zlib.crc32(f"{city}|{day.isoformat()}".encode())
        mean = monthly_mean(city, day) + ((seed >> 4) % 7 - 3)  # ±3 °C from day to day
        low, high = round(mean - 3 - (seed >> 8) % 3), round(mean + 3 + (seed >> 12) % 4)
        wet = (seed % 1000) / 1000 < rain_chance(city, day)
        if not wet:
            code = self._DRY[(seed >> 16) % len(self._DRY)]
            return DayForecast(day.isoformat(), code, float(low), float(high), (seed >> 20) % 30, 0.0)
        codes = self._SNOW if high <= 1 else self._WET
        code = codes[(seed >> 16) % len(codes)]
        return DayForecast(day.isoformat(), code, float(low), float(high), 60 + (seed >> 20) % 40,
                           round(((seed >> 24) % 90) / 10 + 0.5, 1))
