"""weather.query with the fake provider, the hourly cache, and the Open-Meteo adapter against a local HTTP fake."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from datetime import date, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse

import fakeredis
import pytest

from runtime.views import ExecView
from skills.profile import skill as profile
from skills.services import Services
from skills.weather import FakeWeatherProvider, OpenMeteoProvider, provider_from_settings
from skills.weather.provider import CityNotFound, WeatherUnavailable
from skills.weather.skill import SPEC, extract_day, query

View = Callable[..., ExecView]


class _OpenMeteoFake(BaseHTTPRequestHandler):
    requests: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 (http.server API)
        url = urlparse(self.path)
        q = {k: v[0] for k, v in parse_qs(url.query).items()}
        type(self).requests.append(url.path)
        if url.path == "/v1/search":
            body: dict[str, Any] = ({"results": [{"name": "杭州", "latitude": 30.29, "longitude": 120.16,
                                                  "timezone": "Asia/Shanghai"}]} if q["name"] == "杭州" else {})
        elif url.path == "/v1/forecast":
            start = date.fromisoformat(q["start_date"])
            days = [(start + timedelta(days=i)).isoformat() for i in range(4)]
            body = {"daily": {"time": days, "weather_code": [61, 0, 3, 95],
                              "temperature_2m_max": [14.2, 16.0, 12.0, 20.0],
                              "temperature_2m_min": [8.1, 9.0, 4.0, 15.0],
                              "precipitation_probability_max": [85, 5, 20, 90],
                              "precipitation_sum": [6.2, 0.0, 0.0, 12.0]}}
        else:
            self.send_response(404)
            self.end_headers()
            return
        payload = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def open_meteo() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _OpenMeteoFake)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_open_meteo_adapter_over_http(open_meteo: str) -> None:
    provider = OpenMeteoProvider(base_url=open_meteo, geocoding_url=open_meteo)
    forecast = provider.forecast("杭州", date(2026, 12, 2), 4)
    today = forecast.on(date(2026, 12, 2))
    assert today is not None and today.text == "小雨" and today.precip_probability == 85 and today.rainy
    with pytest.raises(CityNotFound):
        provider.forecast("不存在市", date(2026, 12, 2), 4)
    provider.close()


def test_open_meteo_unreachable_is_weather_unavailable() -> None:
    provider = OpenMeteoProvider(base_url="http://127.0.0.1:9", geocoding_url="http://127.0.0.1:9", timeout=0.5)
    with pytest.raises(WeatherUnavailable):
        provider.forecast("杭州", date(2026, 12, 2), 4)


def test_query_through_real_adapter_and_cache(open_meteo: str, services: Services, make_view: View) -> None:
    cache = fakeredis.FakeRedis()
    provider = OpenMeteoProvider(base_url=open_meteo, geocoding_url=open_meteo)
    svc = Services(db=services.db, weather=provider, cache=cache)
    _OpenMeteoFake.requests.clear()
    result = query(make_view(), {"city": "杭州", "day": "今天"}, svc)
    assert result.reply == "杭州今天（12月2日）：小雨，8~14℃，降水概率85%。记得带伞。"
    tomorrow = query(make_view(), {"city": "杭州", "day": "明天"}, svc)
    assert "晴" in tomorrow.reply and "12月3日" in tomorrow.reply
    assert _OpenMeteoFake.requests == ["/v1/search", "/v1/forecast"]  # second answer came from the cache
    assert cache.ttl("wx:weather:杭州:2026120218") > 0
    assert result.dto == {"city": "杭州", "day": "今天", "weather": "小雨", "temp_min": 8.1, "temp_max": 14.2,
                          "precip_probability": 85, "rain": True}


def test_unreachable_provider_gives_an_honest_reply(services: Services, make_view: View) -> None:
    svc = Services(db=services.db, weather=FakeWeatherProvider(unavailable=True))
    result = query(make_view(), {"city": "北京"}, svc)
    assert "暂时查不到" in result.reply and not result.ok
    none = query(make_view(), {"city": "北京"}, Services(db=services.db))
    assert "暂时查不到" in none.reply


def test_broken_cache_does_not_break_weather(services: Services, make_view: View) -> None:
    class Broken:
        def get(self, key: str) -> None:
            raise ConnectionError("redis down")

        def set(self, *args: Any, **kwargs: Any) -> None:
            raise ConnectionError("redis down")

    fake = FakeWeatherProvider()
    result = query(make_view(), {"city": "上海"}, Services(db=services.db, weather=fake, cache=Broken()))
    assert result.ok and result.reply.startswith("上海今天") and fake.calls == 1


def test_city_defaults_to_profile_and_is_asked_otherwise(services: Services, make_view: View) -> None:
    svc = Services(db=services.db, weather=FakeWeatherProvider())
    asked = query(make_view(), {"day": "明天"}, svc)
    assert not asked.ok and "哪个城市" in asked.reply
    profile.update(make_view(msg_id="c"), {"city": "广州"}, services)
    result = query(make_view(), {"day": "后天"}, svc)
    assert result.ok and result.reply.startswith("广州后天（12月4日）") and result.facts == {"city": "广州"}


def test_fake_is_deterministic_and_slots_extract() -> None:
    a = FakeWeatherProvider().forecast("杭州", date(2026, 12, 2), 3)
    assert a == FakeWeatherProvider().forecast("杭州", date(2026, 12, 2), 3)
    assert extract_day("杭州大后天下雨吗") == "大后天" and extract_day("明天天气") == "明天"
    city = SPEC.actions[0].slot("city")
    assert city is not None and city.extract is not None and city.extract("北京明天天气怎么样") == "北京"
    assert isinstance(provider_from_settings(fake=True), FakeWeatherProvider)
    unknown = FakeWeatherProvider(unknown=("火星",))
    with pytest.raises(CityNotFound):
        unknown.forecast("火星", date(2026, 12, 2), 1)
