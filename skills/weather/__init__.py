"""Weather skill: the :class:`WeatherProvider` port, the Open-Meteo adapter and a deterministic fake;
the cities it knows (:data:`CITIES`, :func:`find_city`, :func:`clean_city`), which the profile uses too.

The skill spec is ``skills.weather.skill.SPEC``; processes build a provider with
:func:`provider_from_settings`.
"""

from __future__ import annotations

from typing import Any

from skills.weather._cities import CITIES, clean_city, find_city
from skills.weather.open_meteo import OpenMeteoProvider
from skills.weather.provider import (
    CityForecast,
    CityNotFound,
    DayForecast,
    FakeWeatherProvider,
    WeatherError,
    WeatherProvider,
    WeatherUnavailable,
)

__all__ = ["CITIES", "CityForecast", "CityNotFound", "DayForecast", "FakeWeatherProvider", "OpenMeteoProvider",
           "WeatherError", "WeatherProvider", "WeatherUnavailable", "clean_city", "find_city", "provider_from_settings"]


def provider_from_settings(*, fake: bool = False, base_url: str = "https://api.open-meteo.com",
                           geocoding_url: str = "https://geocoding-api.open-meteo.com", cache: Any = None,
                           timeout: float = 3.0) -> WeatherProvider:
    """The configured provider. ``cache`` is accepted for wiring symmetry; the skill caches per city and hour."""
    if fake:
        return FakeWeatherProvider()
    return OpenMeteoProvider(base_url=base_url, geocoding_url=geocoding_url, timeout=timeout)
