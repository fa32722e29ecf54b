"""Transcript: record, read back typed, retention, the active-users index and stats counters."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from runtime import keys
from runtime.store import InMemoryContextStore, RedisContextStore
from runtime.transcript import (
    DeliveryEntry,
    StatsTally,
    TranscribedTurns,
    Transcript,
    TurnEntry,
    UnreadableEntry,
    percentile,
    to_fields,
)
from runtime.turn import Stage
from tests.bot.admin.conftest import make_turn


class Clock:
    def __init__(self, start: datetime) -> None:
        self.at = start

    def __call__(self) -> datetime:
        return self.at


def test_turn_and_delivery_round_trip(fake_redis) -> None:
    t = Transcript(fake_redis)
    inbound, result = make_turn()
    t.record_turn(inbound, result)
    t.record_delivery("u1", "现在是 20:00。", "passive", "sent", ref="m1")
    t.record_delivery("u1", "该倒垃圾了", "custom", "sent", ref="push-7", push=True)
    entries = t.read("u1")
    assert [type(e) for e in entries] == [TurnEntry, DeliveryEntry, DeliveryEntry]
    turn = entries[0]
    assert isinstance(turn, TurnEntry)
    assert turn.inbound == inbound and turn.replies == ["现在是 20:00。"]
    assert turn.trace.stage is Stage.RULES and turn.trace.intent == "datetime.query"
    assert turn.id and turn.id == fake_redis.xrange(keys.transcript("u1"))[0][0].decode()
    push = entries[2]
    assert isinstance(push, DeliveryEntry) and push.push and push.channel == "custom"
    # a poller passing the last id it saw gets only what came after it
    assert [e.id for e in t.read("u1", since=entries[0].id)] == [entries[1].id, entries[2].id]
    assert t.read("u1", since=entries[2].id) == []
    assert t.turns("u1") == [turn]


def test_read_limit_returns_the_latest_in_order(fake_redis) -> None:
    t = Transcript(fake_redis)
    for i in range(5):
        t.record_turn(*make_turn(text=f"消息{i}", msg_id=f"m{i}"))
    last = t.read("u1", limit=2)
    assert [e.inbound.text for e in last if isinstance(e, TurnEntry)] == ["消息3", "消息4"]


def test_broken_entry_is_unreadable_not_fatal(fake_redis) -> None:
    t = Transcript(fake_redis)
    fake_redis.xadd(keys.transcript("u1"), {"kind": "turn", "data": "{not json"})
    t.record_turn(*make_turn())
    first, second = t.read("u1")
    assert isinstance(first, UnreadableEntry) and first.raw["data"] == "{not json"
    assert isinstance(second, TurnEntry)


def test_active_users_most_recent_first_and_age_trimmed(fake_redis) -> None:
    clock = Clock(datetime(2026, 1, 1, tzinfo=UTC))
    t = Transcript(fake_redis, max_age_days=2, now=clock)
    t.record_turn(*make_turn(user="old"))
    clock.at += timedelta(days=1)
    t.record_turn(*make_turn(user="mid"))
    clock.at += timedelta(hours=1)
    t.record_delivery("new", "hi", "custom", "sent", push=True)
    assert [u.user for u in t.users()] == ["new", "mid", "old"]
    clock.at += timedelta(days=1, hours=1)
    t.record_turn(*make_turn(user="mid", msg_id="m2"))
    assert [u.user for u in t.users()] == ["mid", "new"]
    assert t.users()[0].last_active == clock.at


def _record_the_day(t: Transcript) -> None:
    t.record_turn(*make_turn(msg_id="a", latency_ms=10))
    t.record_turn(*make_turn(msg_id="b", stage=Stage.LLM_ROUTER, intent="dinner.plan", llm_calls=1, latency_ms=30))
    t.record_turn(*make_turn(msg_id="c", stage=Stage.FALLBACK, intent="unknown", llm_calls=2, latency_ms=20,
                             errors=["llm: timeout"]))
    t.record_delivery("u1", "x", "passive", "sent")
    t.record_delivery("u1", "y", "custom", "parked", push=True)


def test_stats_counters(fake_redis) -> None:
    t = Transcript(fake_redis)
    _record_the_day(t)
    _check_the_day(t)


def test_a_tally_gathers_the_global_stats_until_flushed_and_then_writes_the_same(fake_redis) -> None:
    tally = StatsTally()
    t = Transcript(fake_redis, tally=tally)
    _record_the_day(t)
    assert [e.kind for e in t.read("u1")] == ["turn", "turn", "turn", "delivery", "delivery"]  # streams: at once
    assert t.stats().turns == 0 and t.stats().deliveries == {} and t.users() == []  # the stats: not yet
    assert tally.pending
    tally.flush(fake_redis)
    assert not tally.pending
    _check_the_day(t)
    assert [u.user for u in t.users()] == ["u1"]
    commands = fake_redis.pipeline(transaction=False)
    assert not tally.queue(commands) and len(commands) == 0  # nothing gathered: nothing written


def _check_the_day(t: Transcript) -> None:
    s = t.stats()
    assert s.turns == 3 and s.zero_model == 1 and s.zero_model_share == pytest.approx(1 / 3)
    assert s.by_stage["rules"] == 1 and s.by_stage["llm_router"] == 1 and s.by_stage["event"] == 0
    assert s.by_intent == {"datetime.query": 1, "dinner.plan": 1, "unknown": 1}
    assert (s.llm_calls, s.prompt_tokens, s.completion_tokens) == (3, 300, 30)
    assert s.llm_calls_by_stage == {"fallback": 2, "llm_router": 1}
    assert s.turns_with_errors == 1
    assert (s.latency.samples, s.latency.p50, s.latency.max) == (3, 20.0, 30.0)
    assert s.deliveries == {"push:custom:parked": 1, "reply:passive:sent": 1}


def test_percentile_nearest_rank() -> None:
    assert percentile([], 50) == 0.0
    values = [float(v) for v in range(1, 101)]
    assert (percentile(values, 50), percentile(values, 90), percentile(values, 99)) == (50.0, 90.0, 99.0)
    assert percentile([7.0], 99) == 7.0


def test_transcribed_engine_records_and_survives_a_broken_transcript(fake_redis) -> None:
    inbound, result = make_turn()

    class Engine:
        store = InMemoryContextStore()

        def handle(self, _inbound):
            return result.model_copy(deep=True)

    wrapped = TranscribedTurns(Engine(), Transcript(fake_redis))
    assert wrapped.handle(inbound).replies == result.replies
    assert len(wrapped.transcript.turns("u1")) == 1
    assert wrapped.store is None  # an in-memory store's reads cannot ride on the worker's pipelines
    Engine.store = RedisContextStore(fake_redis)
    assert wrapped.store is Engine.store

    class Broken:
        def pipeline(self, **_kw):
            raise ConnectionError("redis down")

    degraded = TranscribedTurns(Engine(), Transcript(Broken())).handle(inbound)
    assert degraded.replies == result.replies and degraded.trace.errors == ["transcript: ConnectionError"]


@pytest.mark.redis
def test_retention_by_length_and_age_on_real_redis(real_redis) -> None:
    t = Transcript(real_redis, max_len=3, max_age_days=5, approximate=False)
    for i in range(5):
        t.record_turn(*make_turn(text=f"m{i}", msg_id=f"m{i}"))
    assert t.length("u1") == 3
    assert [e.inbound.text for e in t.turns("u1")] == ["m2", "m3", "m4"]
    assert 0 < real_redis.ttl(keys.transcript("u1")) <= 5 * 86400
    # entries written six and four days ago (stream ids are the server's append time)
    real_redis.delete(keys.transcript("u2"))
    for days, text in ((6, "old"), (4, "recent")):
        millis = int((datetime.now(UTC) - timedelta(days=days)).timestamp() * 1000)
        inbound, result = make_turn(user="u2", text=text)
        real_redis.xadd(keys.transcript("u2"), to_fields(TurnEntry(recorded_at=datetime.now(UTC), inbound=inbound,
                                                                    replies=[], trace=result.trace)),
                        id=f"{millis}-0")
    t.record_delivery("u2", "now", "custom", "sent", push=True)
    kept = t.read("u2")
    assert [e.inbound.text if isinstance(e, TurnEntry) else e.text for e in kept] == ["recent", "now"]


@pytest.mark.redis
def test_round_trip_and_stats_on_real_redis(real_redis) -> None:
    t = Transcript(real_redis)
    t.record_turn(*make_turn(user="r1"))
    t.record_delivery("r1", "ok", "passive", "sent", ref="m1")
    assert [e.kind for e in t.read("r1")] == ["turn", "delivery"]
    assert t.stats().turns == 1 and [u.user for u in t.users()] == ["r1"]
    t.delete("r1")
    assert t.read("r1") == [] and t.users() == []
