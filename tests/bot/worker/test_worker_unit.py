"""Drain jobs in-process on fakeredis: idempotent turns, degraded turns, lease and ordering."""

from __future__ import annotations

import json
import time

import pytest

from bot.delivery import DeliveryService
from bot.queue import Mailbox, make_queue
from bot.wechat.inbound import parse_message
from bot.wechat.testkit import FakeWeChatServer, MessageFactory
from bot.wechat.testkit.echo import EchoEngine
from bot.wechat.texts import TURN_FAILED
from bot.worker import UnrecordedTurns, WorkerDeps, drain_user, process_entry
from runtime import keys
from runtime.turn import Inbound, TurnResult
from tests.harness.edge import make_api, run_jobs_with

M = MessageFactory()


class CountingEngine(EchoEngine):
    def __init__(self, fail: bool = False) -> None:
        self.calls: list[str] = []
        self.fail = fail

    def handle(self, inbound: Inbound) -> TurnResult:
        self.calls.append(inbound.text)
        if self.fail:
            raise RuntimeError("boom")
        return super().handle(inbound)


def runtime(wx: FakeWeChatServer, conn, engine) -> WorkerDeps:
    rt = WorkerDeps(redis=conn, turns=UnrecordedTurns(engine), delivery=DeliveryService(conn, make_api(wx, conn)),
                     queue=make_queue(conn), lease_ttl_ms=2000, typing_after_s=0)
    run_jobs_with(rt)
    return rt


def accept(conn, xml: str) -> str:
    msg = parse_message(xml)
    Mailbox(conn).accept(msg.user, msg.message_key, msg.to_json(), deadline=time.time(), now=time.time(),
                         waits=False)
    return msg.to_json()


def test_a_re_run_reuses_the_stored_turn_and_sends_once(wx: FakeWeChatServer, fake_redis) -> None:
    engine = CountingEngine()
    rt = runtime(wx, fake_redis, engine)
    entry = accept(fake_redis, M.text("u1", "记一下"))
    assert process_entry(rt, entry) == ["echo:记一下"]
    assert process_entry(rt, entry) == ["echo:记一下"]  # e.g. the worker died before popping
    assert engine.calls == ["记一下"]
    assert [s.text for s in wx.state.sent] == ["echo:记一下"]


def test_an_engine_failure_degrades_to_a_fixed_reply(wx: FakeWeChatServer, fake_redis) -> None:
    engine = CountingEngine(fail=True)
    rt = runtime(wx, fake_redis, engine)
    xml = M.text("u1", "你好")
    entry = accept(fake_redis, xml)
    assert process_entry(rt, entry) == [TURN_FAILED]
    assert process_entry(rt, entry) == [TURN_FAILED]
    assert engine.calls == ["你好"]  # not retried forever
    stored = fake_redis.get(keys.turn_done("u1", parse_message(xml).message_key))
    assert json.loads(stored) == [TURN_FAILED]
    assert [s.text for s in wx.state.sent] == [TURN_FAILED]


def test_drain_keeps_order_and_respects_a_foreign_lease(wx: FakeWeChatServer, fake_redis) -> None:
    runtime(wx, fake_redis, CountingEngine())
    for i in range(5):
        accept(fake_redis, M.text("u1", str(i)))
    assert Mailbox(fake_redis).acquire("u1", "someone-else", 60_000)
    assert drain_user("u1") == 0  # another worker holds the user: never two at once
    Mailbox(fake_redis).release("u1", "someone-else")
    assert drain_user("u1") == 5
    assert [s.text for s in wx.state.sent] == [f"echo:{i}" for i in range(5)]
    assert fake_redis.llen(keys.mailbox("u1")) == 0


@pytest.mark.parametrize("event", ["subscribe", "unsubscribe"])
def test_subscription_flags(wx: FakeWeChatServer, fake_redis, event: str) -> None:
    rt = runtime(wx, fake_redis, CountingEngine())
    rt.delivery.store.set_flag("u9", "unsubscribed", event == "subscribe")
    process_entry(rt, accept(fake_redis, M.event("u9", event)))
    assert rt.delivery.store.flags("u9")["unsubscribed"] is (event == "unsubscribe")


def _ready(conn, *users: str) -> str:
    from bot.queue import DrainSchedule

    schedule = DrainSchedule(conn)
    token = schedule.push(users[0])
    for user in users[1:]:
        schedule.push(user)
    assert token is not None
    return token


def test_a_drainer_prepares_the_next_users_in_the_current_users_round_trips(wx: FakeWeChatServer, fake_redis,
                                                                            monkeypatch) -> None:
    from bot.worker import EntryRead, Queued, drain_ready

    runtime(wx, fake_redis, CountingEngine())
    for user, texts in (("a", ["a0"]), ("b", ["b0"]), ("c", ["c0", "c1"]), ("d", ["d0"]), ("e", ["e0"])):
        for t in texts:
            accept(fake_redis, M.text(user, t))
    assert Mailbox(fake_redis).acquire("b", "someone-else", 60_000)
    assert Mailbox(fake_redis).claim("nobody", "t", 1000) is None  # the server knows the script now
    alone: list[str] = []  # claims and first reads that cost a round trip of their own
    claim, run = Mailbox.claim, EntryRead.run
    monkeypatch.setattr(Mailbox, "claim", lambda self, user, *a: (
        None if isinstance(self.redis, Queued) else alone.append(f"claim {user}")) or claim(self, user, *a))
    monkeypatch.setattr(EntryRead, "run", lambda self: alone.append(f"read {self.msg.user}") or run(self))
    assert drain_ready(_ready(fake_redis, "a", "b", "c", "d", "e")) == 5
    assert alone == ["claim a", "read a", "read c"]  # the batch's first user, and c's second message
    assert [s.text for s in wx.state.sent] == ["echo:a0", "echo:c0", "echo:c1", "echo:d0", "echo:e0"]
    assert fake_redis.get(keys.lease("b")) == b"someone-else"  # never two at once
    assert not any(fake_redis.exists(keys.lease(u)) for u in "acde")
    assert fake_redis.llen(keys.mailbox("b")) == 1


def test_a_claim_taken_ahead_is_let_go_when_the_drainer_fails(wx: FakeWeChatServer, fake_redis,
                                                             monkeypatch) -> None:
    from redis.exceptions import ConnectionError as RedisConnectionError

    from bot.worker import drain_ready

    rt = runtime(wx, fake_redis, CountingEngine())
    accept(fake_redis, M.text("a", "a0"))
    accept(fake_redis, M.text("b", "b0"))
    pop_next = Mailbox.pop_next

    def flaky(self, user, *args):  # the pop ran (and the claim of b with it), then the link broke
        pop_next(self, user, *args)
        raise RedisConnectionError("link down")

    monkeypatch.setattr(Mailbox, "pop_next", flaky)
    with pytest.raises(RedisConnectionError):
        drain_ready(_ready(fake_redis, "a", "b"))
    assert not fake_redis.exists(keys.lease("b"))  # not held until it expires: the sweeper can re-drive b
    monkeypatch.setattr(Mailbox, "pop_next", pop_next)
    assert drain_user("b") == 1 and rt.mailbox.claim("b", "t", 1000) is None
