"""The real weather adapter: Open-Meteo geocoding + daily forecast over HTTP (no API key needed).

https://open-meteo.com/en/docs and https://open-meteo.com/en/docs/geocoding-api. Base URLs are
configurable (tests point them at a local fake server). Every failure becomes
:class:`WeatherUnavailable` or :class:`CityNotFound`.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import httpx

from skills.weather.provider import CityForecast, CityNotFound, DayForecast, WeatherUnavailable

__all__ = ["OpenMeteoProvider"]


class OpenMeteoProvider:
    """Open-Meteo over ``httpx``; one geocoding and one forecast request per call."""

    def __init__(self, *, base_url: str = "https://api.open-meteo.com",
                 geocoding_url: str = "https://geocoding-api.open-meteo.com", timeout: float = 3.0,
                 client: httpx.Client | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.geocoding_url = geocoding_url.rstrip("/")
        self._client = client or httpx.Client(timeout=timeout)

    def close(self) -> None:
        """Close the HTTP client."""
        self._client.close()

    def _get(self, url: str, params: dict[str, Any]) -> dict[str, Any]:
        try:
            response = self._client.get(url, params=params)
            response.raise_for_status()
            body = response.json()
        except (httpx.HTTPError, ValueError) as exc:
            raise WeatherUnavailable(f"{type(exc).__name__}: {exc}"[:200]) from exc
        if not isinstance(body, dict):
            raise WeatherUnavailable("unexpected response")
        return body

    def _locate(self, city: str) -> tuple[float, float, str]:
        body = self._get(f"{self.geocoding_url}/v1/search",
                         {"name": city, "count": 1, "language": "zh", "format": "json"})
        results = body.get("results") or []
        if not results:
            raise CityNotFound(city)
        top = results[0]
        try:
            return float(top["latitude"]), float(top["longitude"]), str(top.get("timezone") or "auto")
        except (KeyError, TypeError, ValueError) as exc:
            raise WeatherUnavailable("bad geocoding result") from exc

    def forecast(self, city: str, start: date, days: int) -> CityForecast:
        lat, lon, tz = self._locate(city)
        body = self._get(f"{self.base_url}/v1/forecast", {
            "latitude": lat, "longitude": lon, "timezone": tz,
            "daily": "weather_code,temperature_2m_max,temperature_2m_min,precipitation_probability_max,"
                     "precipitation_sum",
            "start_date": start.isoformat(), "end_date": (start + timedelta(days=days - 1)).isoformat(),
        })
        try:
            daily = body["daily"]
            out = tuple(
                DayForecast(day=str(d), code=int(daily["weather_code"][i]),
                            temp_min=float(daily["temperature_2m_min"][i]),
                            temp_max=float(daily["temperature_2m_max"][i]),
                            precip_probability=_opt_int(daily.get("precipitation_probability_max"), i),
                            precip_mm=_opt_float(daily.get("precipitation_sum"), i))
                for i, d in enumerate(daily["time"])
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise WeatherUnavailable("bad forecast result") from exc
        return CityForecast(city, out)


def _opt_int(values: list[Any] | None, i: int) -> int | None:
    value = values[i] if values and i < len(values) else None
    return None if value is None else int(value)


def _opt_float(values: list[Any] | None, i: int) -> float | None:
    value = values[i] if values and i < len(values) else None
    return None if value is None else float(value)
