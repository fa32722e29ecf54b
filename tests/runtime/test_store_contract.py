"""One contract for every ContextStore: in-memory, Redis on fakeredis, Redis on the real server (DB 1)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from runtime import keys
from runtime.context import SCHEMA_VERSION, ConversationRuntimeContext
from runtime.store import ContextConflict, ContextStore, InMemoryContextStore, RedisContextStore
from tests.runtime.contexts import rich_context

IDLE_TTL = 3600
QUARANTINE_TTL = 7200


@dataclass
class Backend:
    name: str
    store: Any  # a ContextStore that also has put_raw (tests only)
    redis: Any = None
    # a second, independent store over the same data (another worker), for the race tests
    twin: Callable[[], Any] | None = None


def _redis_backend(name: str, client: Any) -> Backend:
    def make() -> RedisContextStore:
        return RedisContextStore(client, idle_ttl=IDLE_TTL, quarantine_ttl=QUARANTINE_TTL)

    return Backend(name, make(), client, make)


@pytest.fixture(params=["memory", "fakeredis", pytest.param("redis", marks=pytest.mark.redis)])
def backend(request: pytest.FixtureRequest) -> Backend:
    if request.param == "memory":
        store = InMemoryContextStore()
        return Backend("memory", store, None, lambda: store)
    fixture = "fakeredis_client" if request.param == "fakeredis" else "real_redis_client"
    return _redis_backend(request.param, request.getfixturevalue(fixture))


@pytest.fixture(params=["fakeredis", pytest.param("redis", marks=pytest.mark.redis)])
def redis_backend(request: pytest.FixtureRequest) -> Backend:
    fixture = "fakeredis_client" if request.param == "fakeredis" else "real_redis_client"
    return _redis_backend(request.param, request.getfixturevalue(fixture))


def _comparable(ctx: ConversationRuntimeContext) -> dict[str, Any]:
    return ctx.model_dump(mode="json", exclude={"version"})


def test_every_backend_satisfies_the_protocol(backend: Backend) -> None:
    store: ContextStore = backend.store
    assert callable(store.load) and callable(store.save) and callable(store.quarantined)


def test_fresh_load_is_an_empty_context(backend: Backend) -> None:
    ctx = backend.store.load("nobody")
    assert ctx == ConversationRuntimeContext.empty("nobody")
    assert ctx.version == 0 and ctx.schema_version == SCHEMA_VERSION
    assert backend.store.raw("nobody") is None
    assert backend.store.quarantined("nobody") is None


def test_save_load_round_trip_keeps_every_part(backend: Backend) -> None:
    ctx = rich_context("u-round")
    saved = backend.store.save(ctx)
    loaded = backend.store.load("u-round")
    assert _comparable(loaded) == _comparable(ctx)
    assert loaded.version == saved.version == 1
    assert loaded.active is not None and loaded.active.expected_input is not None
    assert loaded.active.expected_input.asked_at == ctx.active.expected_input.asked_at  # type: ignore[union-attr]
    assert json.loads(backend.store.raw("u-round") or "")["summary"]["goal"] == "减脂"


def test_version_increments_on_every_save(backend: Backend) -> None:
    ctx = backend.store.load("u-ver")
    for expected in range(1, 6):
        ctx.topic_version = expected
        saved = backend.store.save(ctx)
        assert saved.version == expected
        ctx = backend.store.load("u-ver")
        assert ctx.version == expected and ctx.topic_version == expected


def test_save_does_not_mutate_the_callers_context(backend: Backend) -> None:
    ctx = backend.store.load("u-pure")
    backend.store.save(ctx)
    assert ctx.version == 0


def test_stale_save_raises_conflict_with_expected_and_actual(backend: Backend) -> None:
    first = backend.store.load("u-stale")
    second = backend.store.load("u-stale")
    backend.store.save(first)
    backend.store.save(backend.store.load("u-stale"))
    second.topic_version = 99
    with pytest.raises(ContextConflict) as info:
        backend.store.save(second)
    assert (info.value.user, info.value.expected, info.value.actual) == ("u-stale", 0, 2)
    assert backend.store.load("u-stale").topic_version != 99  # the loser wrote nothing


def test_concurrent_cas_exactly_one_winner_per_version(backend: Backend) -> None:
    assert backend.twin is not None
    stores = [backend.twin(), backend.twin()]
    for round_no in range(15):
        start = [s.load("u-race") for s in stores]
        assert {c.version for c in start} == {round_no}
        barrier = threading.Barrier(2)
        outcome: list[str] = ["", ""]

        def attempt(i: int, start: list[ConversationRuntimeContext] = start,
                    barrier: threading.Barrier = barrier, outcome: list[str] = outcome) -> None:
            start[i].summary.goal = f"w{i}"
            barrier.wait()
            try:
                stores[i].save(start[i])
                outcome[i] = "won"
            except ContextConflict as exc:
                outcome[i] = f"lost {exc.expected}->{exc.actual}"

        threads = [threading.Thread(target=attempt, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(5)
        assert sorted(outcome) == [f"lost {round_no}->{round_no + 1}", "won"], outcome
        winner = outcome.index("won")
        assert backend.store.load("u-race").summary.goal == f"w{winner}"


def test_delete_forgets_the_context(backend: Backend) -> None:
    backend.store.save(rich_context("u-del"))
    backend.store.delete("u-del")
    assert backend.store.raw("u-del") is None
    fresh = backend.store.load("u-del")
    assert fresh.active is None and fresh.version == 0
    backend.store.save(fresh)  # a fresh start saves without conflict
    backend.store.delete("never-there")  # deleting nothing is fine


@pytest.mark.parametrize("blob", ["{not json", "[1, 2]", '"text"', '{"active": 5}', "", "\x00\xff"])
def test_corrupt_blob_gives_fresh_context_and_is_kept_aside(backend: Backend, blob: str) -> None:
    backend.store.put_raw("u-bad", blob, 7)
    ctx = backend.store.load("u-bad")
    assert ctx.active is None and ctx.paused == [] and ctx.user == "u-bad"
    assert ctx.version == 7  # compare-and-set still works over the replaced blob
    assert backend.store.quarantined("u-bad") == blob
    saved = backend.store.save(ctx)  # no crash loop: the next save replaces the bad blob
    assert saved.version == 8
    assert backend.store.load("u-bad").version == 8
    assert backend.store.quarantined("u-bad") == blob  # still there for the admin


def test_v1_blob_is_migrated(backend: Backend) -> None:
    v1 = {"user": "someone-else", "schema_version": 1, "topic_version": 2, "updated_at": "2026-11-30T10:00:00+08:00",
          "paused": [{"skill": "dinner", "action": "plan", "intent": "dinner.plan", "params": {"people": 2}}],
          "summary": "不吃辣"}
    backend.store.put_raw("u-old", json.dumps(v1, ensure_ascii=False), 3)
    ctx = backend.store.load("u-old")
    assert backend.store.quarantined("u-old") is None
    assert ctx.user == "u-old" and ctx.version == 3 and ctx.schema_version == SCHEMA_VERSION
    assert ctx.topic_version == 2
    assert ctx.paused[0].session.params == {"people": 2} and ctx.paused[0].resume_question
    assert ctx.summary.open_items == ["不吃辣"]
    assert backend.store.save(ctx).version == 4


def test_blob_without_schema_version_is_read_as_v1(backend: Backend) -> None:
    backend.store.put_raw("u-v0", json.dumps({"user": "u-v0", "summary": None}), 1)
    ctx = backend.store.load("u-v0")
    assert backend.store.quarantined("u-v0") is None
    assert ctx.summary.open_items == [] and ctx.schema_version == SCHEMA_VERSION


def test_future_schema_is_treated_as_corrupt(backend: Backend) -> None:
    blob = json.dumps({"user": "u-new", "schema_version": SCHEMA_VERSION + 1, "hover": True})
    backend.store.put_raw("u-new", blob, 5)
    ctx = backend.store.load("u-new")
    assert ctx == ConversationRuntimeContext.empty("u-new", version=5)
    assert backend.store.quarantined("u-new") == blob


# -- Redis only ---------------------------------------------------------------------------------------

def test_idle_ttl_is_set_and_refreshed_on_save(redis_backend: Backend) -> None:
    conn, key = redis_backend.redis, keys.context("u-ttl")
    redis_backend.store.save(redis_backend.store.load("u-ttl"))
    assert IDLE_TTL - 5 <= conn.ttl(key) <= IDLE_TTL
    conn.expire(key, 10)
    redis_backend.store.save(redis_backend.store.load("u-ttl"))
    assert IDLE_TTL - 5 <= conn.ttl(key) <= IDLE_TTL


def test_context_key_is_the_per_user_hash_tagged_key(redis_backend: Backend) -> None:
    redis_backend.store.save(rich_context("u-key"))
    assert redis_backend.redis.keys("*") == [b"wx:{u-key}:ctx"]
    assert redis_backend.redis.hget("wx:{u-key}:ctx", "v") == b"1"


def test_quarantined_blob_has_its_own_key_and_ttl(redis_backend: Backend) -> None:
    redis_backend.store.put_raw("u-q", "garbage", 2)
    redis_backend.store.load("u-q")
    bad = keys.context_quarantine("u-q")
    assert redis_backend.redis.get(bad) == b"garbage"
    assert 0 < redis_backend.redis.ttl(bad) <= QUARANTINE_TTL


def test_hash_without_blob_is_corrupt_not_a_crash(redis_backend: Backend) -> None:
    redis_backend.redis.hset(keys.context("u-half"), "v", 4)
    ctx = redis_backend.store.load("u-half")
    assert ctx.version == 4 and ctx.active is None
    assert redis_backend.store.save(ctx).version == 5
