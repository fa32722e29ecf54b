"""The admin page speaks Chinese: outcomes named for people, local 24-hour times, states in words,
turns per hour by stage, the favicon, and the simulator's long poll (one request per wait, not per second)."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import httpx
import pytest

from bot.admin import counted_deliveries, delivery_label, entry_view, local_time, state_text
from bot.admin.overview import hourly_turns
from bot.cli import main
from runtime.transcript import Transcript
from runtime.turn import Stage, StateSnapshot
from tests.bot.admin.conftest import REAL_REDIS_URL, make_turn
from tests.bot.admin.test_web import BEARER, open_embedded, open_stack, secured, secured_stack, wx  # noqa: F401


@pytest.mark.parametrize(("channel", "outcome", "label"), [
    ("passive", "sent", "被动回复"), ("custom", "sent", "客服消息"), ("template", "sent", "模板消息"),
    ("park", "parked", "等下次互动"), ("custom", "parked", "等下次互动"), ("custom", "failed", "失败"),
    ("custom", "refused", "失败（用户拒收）"), ("drop", "dropped", "失败（已放弃）"),
    ("custom", "resent_uncertain", "不确定"), ("custom", "uncertain", "不确定"),
])
def test_delivery_outcomes_are_named_for_people(channel: str, outcome: str, label: str) -> None:
    assert delivery_label(channel, outcome) == label


def test_delivery_counters_are_summed_by_name() -> None:
    counted = counted_deliveries({"reply:passive:sent": 5, "push:custom:sent": 2, "reply:custom:sent": 1,
                                  "push:park:parked": 3})
    assert counted == {"被动回复": 5, "客服消息": 3, "等下次互动": 3}


def test_times_are_in_the_bot_zone_in_24_hours() -> None:
    moment = datetime(2026, 12, 1, 13, 5, 9, tzinfo=UTC)
    assert local_time(moment, "Asia/Shanghai") == "2026-12-01 21:05:09"
    assert local_time(moment, "Europe/London") == "2026-12-01 13:05:09"


def test_a_state_reads_as_words_never_as_a_dash() -> None:
    assert state_text({}) == "空闲（没有进行中的任务）"
    busy = StateSnapshot(active_skill="dinner", expected_field="people", paused=["reminders"],
                         pending_confirmation="exercise.log")
    assert state_text(busy.model_dump()) == "安排晚饭 · 等待：人数 · 待确认：记录运动 · 暂停：提醒"


def test_a_turn_entry_carries_its_local_time_stage_name_and_states() -> None:
    inbound, result = make_turn(at=datetime(2026, 12, 1, 12, tzinfo=UTC))
    result.trace.state_after = StateSnapshot(active_skill="reminders", expected_field="when")
    from runtime.transcript import TurnEntry

    entry = TurnEntry(id="1-0", recorded_at=inbound.at, inbound=inbound, replies=result.replies, trace=result.trace)
    view = entry_view(entry.model_dump(mode="json"), "Asia/Shanghai")
    assert view["time"] == "2026-12-01 20:00:00"
    assert view["trace"]["stage_name"] == "规则（rules）"
    assert view["trace"]["state_before_text"] == "空闲（没有进行中的任务）"
    assert view["trace"]["state_after_text"] == "提醒 · 等待：时间"


def test_turns_per_hour_by_stage(fake_redis) -> None:
    now = datetime.now(UTC)  # stream ids are the server's clock
    t = Transcript(fake_redis, now=lambda: now)
    for i, stage in enumerate([Stage.RULES, Stage.RULES, Stage.EVENT]):
        t.record_turn(*make_turn(user=f"u{i}", msg_id=f"m{i}", stage=stage))
    hours = hourly_turns(fake_redis, "Asia/Shanghai", now=now)
    assert len(hours) == 24 and hours[-1]["hour"] == local_time(now, "Asia/Shanghai")[5:13] + ":00"
    assert hours[-1]["stages"]["rules"] == 2 and hours[-1]["stages"]["event"] == 1
    assert sum(sum(h["stages"].values()) for h in hours[:-1]) == 0


def test_the_page_is_in_chinese_and_has_a_favicon(secured) -> None:  # noqa: F811
    page = httpx.get(secured.url + "/admin", headers=BEARER).text
    assert '<html lang="zh-CN">' in page and "会话" in page and "统计" in page and "Conversations" not in page
    login = httpx.get(secured.url + "/admin/login").text
    assert "管理令牌" in login and "登录" in login and "Log in" not in login
    icon = httpx.get(secured.url + "/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    script = httpx.get(secured.url + "/admin/static/admin.js", headers=BEARER).text
    assert "http" not in script.replace("http://www.w3.org/2000/svg", "")  # no CDN: the charts are drawn here


def test_stats_carry_what_the_charts_draw(secured) -> None:  # noqa: F811
    secured.transcript.record_delivery("wx-chart", "好的", "passive", "sent")
    secured.transcript.record_delivery("wx-chart", "提醒", "park", "parked", push=True)
    secured.transcript.record_turn(*make_turn(user="wx-chart", msg_id="chart-1"))
    stats = httpx.get(secured.url + "/admin/api/stats", headers=BEARER).json()
    assert stats["tz"] == "Asia/Shanghai" and stats["stage_names"]["rules"] == "规则"
    assert stats["deliveries_by_label"]["被动回复"] >= 1 and stats["deliveries_by_label"]["等下次互动"] >= 1
    assert len(stats["hourly"]) == 24 and sum(h["stages"]["rules"] for h in stats["hourly"]) >= 1
    entries = httpx.get(secured.url + "/admin/api/transcript", params={"user": "wx-chart"}, headers=BEARER).json()
    labels = [e["label"] for e in entries["entries"] if e["kind"] == "delivery"]
    assert labels == ["被动回复", "等下次互动"]
    users = httpx.get(secured.url + "/admin/api/users", headers=BEARER).json()["users"]
    assert all(len(u["last_active_text"]) == 19 for u in users)


def test_the_simulator_long_polls_instead_of_asking_every_second(open_embedded) -> None:  # noqa: F811
    url = open_embedded.url
    first = httpx.get(url + "/simulator/api/updates", params={"user": "sim-lp"}).json()
    assert first["entries"] == []
    started = time.monotonic()
    idle = httpx.get(url + "/simulator/api/updates", params={"user": "sim-lp", "wait": 1.5}, timeout=10).json()
    assert idle["entries"] == [] and 1.4 <= time.monotonic() - started < 5

    import threading

    threading.Timer(0.8, lambda: open_embedded.transcript.record_delivery(
        "sim-lp", "该喝水了", "custom", "sent", push=True)).start()
    started = time.monotonic()
    woke = httpx.get(url + "/simulator/api/updates", params={"user": "sim-lp", "wait": 20}, timeout=30).json()
    assert 0.7 <= time.monotonic() - started < 5  # answered when the push arrived, not at the end of the wait
    assert [(e["text"], e["label"]) for e in woke["entries"]] == [("该喝水了", "客服消息")]
    assert httpx.get(url + "/simulator/api/updates", params={"user": "sim-lp", "wait": "soon"}).status_code == 400


@pytest.mark.redis
def test_replay_rerun_prints_local_24_hour_times(real_redis, tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.setenv("WEATHER_FAKE", "true")
    inbound, result = make_turn(user="carol", text="今天几号", msg_id="c-1", at=datetime(2026, 12, 1, 13, 5, tzinfo=UTC))
    Transcript(real_redis).record_turn(inbound, result)
    assert main(["replay", "carol", "--rerun", "--redis-url", REAL_REDIS_URL]) == 0
    assert "#1 2026-12-01 21:05:00  今天几号" in capsys.readouterr().out
