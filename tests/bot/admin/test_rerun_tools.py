"""`wxbot replay USER --rerun` answers each turn's weather from what the turn recorded (the forecast,
from the service or the hourly cache, or the error), so only a code change shows as a change."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from bot.admin.rerun import rerun
from bot.cli import main
from bot.compose import core, rerun_sandbox, transcript
from bot.recording import WEATHER, ReplayWeather
from bot.settings import Settings
from runtime.transcript import TranscribedTurns, Transcript, TurnEntry
from runtime.turn import Inbound
from skills.weather import CityForecast, DayForecast, WeatherUnavailable
from tests.bot.admin.conftest import REAL_REDIS_URL

pytestmark = pytest.mark.redis
AT = datetime(2026, 12, 1, 2, 0, tzinfo=UTC)  # 10:00 in Shanghai


class Storm:
    """A provider unlike the offline fake: thunderstorms at 30–35 °C every day."""

    def __init__(self, *, down: bool = False) -> None:
        self.down = down
        self.calls = 0

    def forecast(self, city: str, start: date, days: int) -> CityForecast:
        self.calls += 1
        if self.down:
            raise WeatherUnavailable("connect timeout")
        return CityForecast(city, tuple(DayForecast((start + timedelta(days=i)).isoformat(), 95, 30.0, 35.0, 90, 12.5)
                                        for i in range(days)))


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings.from_env({"REDIS_URL": REAL_REDIS_URL, "DATA_DIR": str(tmp_path)})


def _talk(settings: Settings, redis, user: str, texts: list[str], provider: object) -> list[TurnEntry]:
    built = core(settings, redis=redis, weather=provider)
    engine = TranscribedTurns(built.engine, transcript(settings, redis))
    for i, text in enumerate(texts):
        engine.handle(Inbound(user=user, text=text, msg_id=f"{user}-{i}", at=AT + timedelta(minutes=i)))
    built.services.db.dispose()
    return Transcript(redis).turns(user)


def test_the_turn_records_the_forecast_it_used_fetched_or_cached(settings, real_redis) -> None:
    provider = Storm()
    turns = _talk(settings, real_redis, "w1", ["北京明天天气怎么样", "北京明天天气怎么样"], provider)
    assert provider.calls == 1  # the second answer came from the hourly cache
    assert "雷阵雨" in turns[0].replies[0] and turns[1].replies == turns[0].replies
    first, second = turns[0].tools, turns[1].tools
    assert [(c.tool, c.args["city"], c.cached) for c in first] == [(WEATHER, "北京", False)]
    assert [(c.tool, c.args["city"], c.cached) for c in second] == [(WEATHER, "北京", True)]
    assert first[0].result == second[0].result and first[0].result["days"][0]["code"] == 95


def test_rerun_replays_the_recorded_weather_so_nothing_changes(settings, real_redis, capsys) -> None:
    _talk(settings, real_redis, "w2", ["北京明天天气怎么样", "那广州呢", "现在几点"], Storm())
    assert main(["replay", "w2", "--rerun", "--redis-url", REAL_REDIS_URL]) == 0
    out = capsys.readouterr().out
    assert "0 of 3 turns changed" in out, out
    # the control case: the same turns without their record are answered by the offline fake
    bare = [t.model_copy(update={"tools": []}) for t in Transcript(real_redis).turns("w2")]
    report = rerun("w2", bare, rerun_sandbox(settings))
    assert [d.changed for d in report.turns][:2] == [["reply"], ["reply"]], report.turns


def test_a_recorded_weather_outage_is_replayed_as_an_outage(settings, real_redis) -> None:
    turns = _talk(settings, real_redis, "w3", ["上海今天天气"], Storm(down=True))
    assert "暂时查不到" in turns[0].replies[0]
    assert turns[0].tools[0].error == {"type": "WeatherUnavailable", "detail": "connect timeout"}
    assert rerun("w3", turns, rerun_sandbox(settings)).changed == 0


def test_replay_weather_falls_back_to_the_fake_for_what_was_not_recorded() -> None:
    weather = ReplayWeather()
    weather.load([])
    found = weather.forecast("杭州", date(2026, 12, 1), 7)
    assert found.city == "杭州" and weather.missed == 1 and weather.replayed == 0


def test_old_transcript_entries_without_tools_still_read(settings, real_redis) -> None:
    turns = _talk(settings, real_redis, "w4", ["现在几点"], Storm())
    raw = json.loads(turns[0].model_dump_json())
    raw.pop("tools")
    assert TurnEntry.model_validate(raw).tools == []
