"""A turn's commit: the context save, the done marker and the delivery's start in one round trip, and
a save that loses its compare-and-set writes nothing of the turn (which then runs again)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bot.delivery import DeliveryService
from bot.queue import Mailbox, make_queue
from bot.wechat.inbound import parse_message
from bot.wechat.testkit import FakeWeChatServer, MessageFactory
from bot.worker import WorkerDeps, process_entry
from runtime import keys
from runtime.context import ConversationRuntimeContext
from runtime.store import ContextConflict, RedisContextStore
from runtime.transcript import TranscribedTurns, Transcript, TurnEntry
from runtime.turn import Inbound, StateSnapshot, TurnResult, TurnTrace
from tests.harness.edge import make_api, run_jobs_with

M = MessageFactory()


class CountingEngine:
    """Counts its turns in the context (``summary.open_items``); ``meddle`` saves the user's context
    behind the turn's back once (as a push's focus does), so the turn's own save loses the race."""

    def __init__(self, store: RedisContextStore, meddle: bool = False) -> None:
        self.store = store
        self.meddle = meddle
        self.calls = 0

    def handle(self, inbound: Inbound, *, loaded: Any = None) -> TurnResult:
        self.calls += 1
        ctx = loaded if loaded is not None else self.store.load(inbound.user)
        if self.meddle:
            self.meddle = False
            with_focus = self.store.load(inbound.user)
            with_focus.summary.open_items = ["pushed"]
            with _Through(self.store):
                self.store.save(with_focus)
        ctx.summary.open_items = [*ctx.summary.open_items, inbound.text]
        self.store.save(ctx)
        trace = TurnTrace(user=inbound.user, msg_id=inbound.msg_id)
        return TurnResult(replies=[f"echo:{inbound.text}"], trace=trace, state=StateSnapshot())

    def show(self, user: str, intent: str, result: Any, *, at: Any) -> None:
        raise AssertionError("not used")


class _Through:
    """Writes through while the turn's own save is held back (another writer, on another thread)."""

    def __init__(self, store: RedisContextStore) -> None:
        self.store = store

    def __enter__(self) -> None:
        self.held = getattr(self.store._local, "deferral", None)
        self.store._local.deferral = None

    def __exit__(self, *exc: object) -> None:
        self.store._local.deferral = self.held


def _runtime(wx: FakeWeChatServer, conn: Any, engine: CountingEngine) -> WorkerDeps:
    rt = WorkerDeps(redis=conn, turns=TranscribedTurns(engine, Transcript(conn)),
                     delivery=DeliveryService(conn, make_api(wx, conn)), queue=make_queue(conn),
                     lease_ttl_ms=2000, typing_after_s=0)
    run_jobs_with(rt)
    return rt


def _accept(conn: Any, xml: str) -> str:
    msg = parse_message(xml)
    Mailbox(conn).accept(msg.user, msg.message_key, msg.to_json(), deadline=time.time(), now=time.time(),
                         waits=False)
    return msg.to_json()


def _turn_with_records(rt: WorkerDeps, conn: Any, entry: str) -> list[str]:
    records = conn.pipeline(transaction=False)
    replies = process_entry(rt, entry, record_on=records)
    records.execute()
    return replies


def test_the_turn_is_saved_marked_and_recorded_once(wx: FakeWeChatServer, fake_redis: Any) -> None:
    store = RedisContextStore(fake_redis)
    engine = CountingEngine(store)
    rt = _runtime(wx, fake_redis, engine)
    entry_xml = M.text("u1", "记一下")
    entry = _accept(fake_redis, entry_xml)
    assert _turn_with_records(rt, fake_redis, entry) == ["echo:记一下"]
    assert store.load("u1").summary.open_items == ["记一下"] and store.load("u1").version == 1
    assert fake_redis.exists(keys.turn_done("u1", parse_message(entry_xml).message_key)) == 1
    assert _turn_with_records(rt, fake_redis, entry) == ["echo:记一下"]  # a re-run reuses the stored turn
    assert engine.calls == 1 and store.load("u1").version == 1
    assert [s.text for s in wx.state.sent] == ["echo:记一下"]
    assert [e.inbound.text for e in rt.turns.transcript.turns("u1")] == ["记一下"]  # type: ignore[attr-defined]


def test_a_turn_whose_save_loses_the_race_writes_nothing_and_runs_again(wx: FakeWeChatServer,
                                                                        fake_redis: Any) -> None:
    store = RedisContextStore(fake_redis)
    engine = CountingEngine(store, meddle=True)
    rt = _runtime(wx, fake_redis, engine)
    entry = _accept(fake_redis, M.text("u1", "记一下"))
    assert _turn_with_records(rt, fake_redis, entry) == ["echo:记一下"]
    assert engine.calls == 2  # the first attempt's save met the newer context
    ctx = store.load("u1")
    assert ctx.summary.open_items == ["pushed", "记一下"] and ctx.version == 2
    assert [s.text for s in wx.state.sent] == ["echo:记一下"]  # one reply, from the stored attempt
    turns = rt.turns.transcript.turns("u1")  # type: ignore[attr-defined]
    assert len(turns) == 1 and all(isinstance(t, TurnEntry) for t in turns)


def test_a_held_back_save_is_written_only_by_the_callers_pipeline(fake_redis: Any) -> None:
    store = RedisContextStore(fake_redis)
    ctx = ConversationRuntimeContext.empty("u1")
    with store.deferring() as deferral:
        saved = store.save(ctx)
    assert saved.version == 1 and deferral.pending is not None
    assert fake_redis.exists(keys.context("u1")) == 0  # nothing written yet
    pipe = fake_redis.pipeline(transaction=False)
    store.queue_save(pipe, deferral.pending, then_set=("marker", "done", 60))
    store.saved(deferral.pending, pipe.execute()[0])
    assert store.load("u1").version == 1 and fake_redis.get("marker") == b"done"
    pipe = fake_redis.pipeline(transaction=False)
    store.queue_save(pipe, deferral.pending, then_set=("marker2", "done", 60))  # the same save again: stale
    with pytest.raises(ContextConflict):
        store.saved(deferral.pending, pipe.execute()[0])
    assert fake_redis.exists("marker2") == 0  # the marker only with the save


def test_a_second_save_while_one_is_held_back_writes_the_first_through(fake_redis: Any) -> None:
    store = RedisContextStore(fake_redis)
    with store.deferring() as deferral:
        first = store.save(ConversationRuntimeContext.empty("u1"))
        store.save(first)
    assert store.load("u1").version == 1  # the first, written through
    assert deferral.pending is not None and deferral.pending.version == 2
    store.save(store.load("u1"))  # outside the block, saves write at once
    assert store.load("u1").version == 2


class NumberedEngine(CountingEngine):
    """Its reply says which attempt it came from."""

    def handle(self, inbound: Inbound, *, loaded: Any = None) -> TurnResult:
        result = super().handle(inbound, loaded=loaded)
        return result.model_copy(update={"replies": [f"{result.replies[0]}#{self.calls}"]})


def test_a_waiting_request_is_offered_only_the_reply_of_the_stored_attempt(wx: FakeWeChatServer,
                                                                           fake_redis: Any) -> None:
    store = RedisContextStore(fake_redis)
    rt = _runtime(wx, fake_redis, NumberedEngine(store))
    xml = M.text("u1", "记一下")
    msg = parse_message(xml)
    rt.delivery.handoff.open(msg.user, msg.message_key, deadline=time.time() + 15)  # a request waits for it
    _turn_with_records(rt, fake_redis, _accept(fake_redis, M.text("u0", "先来")))  # the worker's first turn
    rt.turns.engine.meddle = True  # type: ignore[attr-defined]
    assert _turn_with_records(rt, fake_redis, msg.to_json()) == ["echo:记一下#3"]
    handoff = {k.decode(): v.decode() for k, v in fake_redis.hgetall(keys.handoff("u1", msg.message_key)).items()}
    assert handoff["state"] == "ready" and "echo:记一下#3" in handoff.values()
    assert "echo:记一下#2" not in handoff.values()  # the attempt that lost the race offered nothing
    assert [s.user for s in wx.state.sent] == ["u0"]  # u1 answered passively, nothing through the API
