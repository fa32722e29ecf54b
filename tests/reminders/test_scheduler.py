"""The scheduler process: leader lease on real Redis (DB 4), exactly-once pushes with two schedulers."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import redis as redis_lib
from sqlalchemy.engine import Engine

from bot.scheduler import CollectingSink, LeaderLease, Scheduler
from skills.reminders import store
from skills.reminders.schedule import DuePush, fire_due, stale_enqueued
from tests.harness.redis_server import private_url

pytestmark = pytest.mark.redis


@pytest.fixture
def redis() -> Iterator[Any]:
    client = redis_lib.Redis.from_url(private_url(4))
    client.ping()
    yield client
    client.close()


@pytest.fixture
def lease_key(redis: Any) -> Iterator[str]:
    key = f"wx:test:{uuid.uuid4().hex}:scheduler:leader"
    yield key
    redis.delete(key)


def _seed(engine: Engine, n: int, due: datetime, user: str = "u1") -> None:
    for i in range(n):
        store.create(engine, user=f"{user}-{i % 7}", content=f"事项{i}", at=due, rrule=None,
                     tz="Asia/Shanghai", msg_id=f"seed-{user}-{i}")


class FixedClock:
    def __init__(self, now: datetime) -> None:
        self.value = now

    def __call__(self) -> datetime:
        return self.value


def test_lease_is_exclusive_and_lapses(redis: Any, lease_key: str) -> None:
    a = LeaderLease(redis, "a", ttl_ms=300, key=lease_key)
    b = LeaderLease(redis, "b", ttl_ms=300, key=lease_key)
    assert a.hold() is True
    assert b.hold() is False
    assert a.hold() is True  # renewing
    assert a.holder() == "a"
    time.sleep(0.4)  # a died: no renewal
    assert b.hold() is True
    assert a.hold() is False
    b.release()
    assert a.hold() is True


def test_two_schedulers_push_each_occurrence_once(engine: Engine, redis: Any, lease_key: str) -> None:
    due = datetime(2026, 12, 2, 0, 0, tzinfo=UTC)
    _seed(engine, 300, due)
    sinks = [CollectingSink(), CollectingSink()]
    clock = FixedClock(due + timedelta(seconds=1))
    # Two leaders on purpose (separate lease keys): only the SQL claim stands between them.
    schedulers = [Scheduler(engine, LeaderLease(redis, f"s{i}", ttl_ms=5000, key=f"{lease_key}:{i}"), sinks[i],
                            clock, batch=50) for i in range(2)]
    barrier = threading.Barrier(2)

    def work(s: Scheduler) -> None:
        barrier.wait()
        for _ in range(5):
            s.tick()

    threads = [threading.Thread(target=work, args=(s,)) for s in schedulers]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    keys = [p.key for sink in sinks for p in sink.pushes]
    assert len(keys) == 300
    assert len(set(keys)) == 300
    for i in range(2):
        redis.delete(f"{lease_key}:{i}")


def test_standby_takes_over_when_the_leader_dies(engine: Engine, redis: Any, lease_key: str) -> None:
    start = datetime(2026, 12, 2, 0, 0, tzinfo=UTC)
    clock = FixedClock(start)
    leader_sink, standby_sink = CollectingSink(), CollectingSink()
    leader = Scheduler(engine, LeaderLease(redis, "leader", ttl_ms=600, key=lease_key), leader_sink, clock)
    standby = Scheduler(engine, LeaderLease(redis, "standby", ttl_ms=600, key=lease_key), standby_sink, clock)
    assert leader.tick().leader is True
    assert standby.tick().leader is False
    store.create(engine, user="u1", content="带伞", at=start + timedelta(seconds=1), rrule=None,
                 tz="Asia/Shanghai", msg_id="m1")
    clock.value = start + timedelta(seconds=1)
    # the leader dies here (no more ticks, no release); the standby keeps trying
    t0 = time.monotonic()
    while not standby.tick().leader:
        assert time.monotonic() - t0 < 5
        time.sleep(0.1)
    assert time.monotonic() - t0 < 2  # ttl 0.6 s (+ a tick); production ttl 10 s < 30 s
    assert [p.text for p in standby_sink.pushes] == ["⏰ 提醒：带伞"]
    assert leader_sink.pushes == []


def test_fires_within_seconds_on_the_real_clock(engine: Engine, redis: Any, lease_key: str) -> None:
    due = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=2)
    store.create(engine, user="u1", content="喝水", at=due, rrule=None, tz="Asia/Shanghai", msg_id="m1")
    fired_at: list[datetime] = []

    def sink(push: DuePush) -> str:
        fired_at.append(datetime.now(UTC))
        return "custom"

    scheduler = Scheduler(engine, LeaderLease(redis, "rt", ttl_ms=3000, key=lease_key), sink,
                          lambda: datetime.now(UTC), tick_seconds=0.2)
    stop = threading.Event()
    thread = threading.Thread(target=scheduler.run, args=(stop,))
    thread.start()
    try:
        deadline = time.monotonic() + 8
        while not fired_at and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        stop.set()
        thread.join(timeout=5)
    assert len(fired_at) == 1
    assert timedelta(0) <= fired_at[0] - due < timedelta(seconds=5)
    assert redis.get(lease_key) is None  # released on a clean stop


def test_failed_sink_releases_and_retries(engine: Engine, redis: Any, lease_key: str) -> None:
    due = datetime(2026, 12, 2, 0, 0, tzinfo=UTC)
    store.create(engine, user="u1", content="开会", at=due, rrule=None, tz="Asia/Shanghai", msg_id="m1")
    calls: list[str] = []

    def flaky(push: DuePush) -> str:
        calls.append(push.key)
        if len(calls) == 1:
            raise ConnectionError("queue down")
        return "custom"

    scheduler = Scheduler(engine, LeaderLease(redis, "f", ttl_ms=3000, key=lease_key), flaky, FixedClock(due))
    assert scheduler.tick().failed == 1
    assert scheduler.tick().pushed == 1
    assert scheduler.tick().pushed == 0
    assert calls == ["reminder:1", "reminder:1"]


def test_claimed_but_unrecorded_push_is_offered_again(engine: Engine) -> None:
    due = datetime(2026, 12, 2, 0, 0, tzinfo=UTC)
    store.create(engine, user="u1", content="开会", at=due, rrule=None, tz="Asia/Shanghai", msg_id="m1")
    fired = fire_due(engine, due)  # a scheduler claimed it, then died before the sink ran
    assert len(fired.pushes) == 1
    assert stale_enqueued(engine, due + timedelta(seconds=30), timedelta(minutes=2)) == []
    again = stale_enqueued(engine, due + timedelta(minutes=3), timedelta(minutes=2))
    assert [p.key for p in again] == [fired.pushes[0].key]
