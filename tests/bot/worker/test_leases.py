"""Per-user leases while a turn runs: kept alive however long the turn, and fencing what it sends."""

from __future__ import annotations

import threading
import time

import pytest

from bot.delivery import DeliveryService, LeaseLost
from bot.queue import Mailbox, make_queue
from bot.wechat.inbound import parse_message
from bot.wechat.testkit import FakeWeChatServer, MessageFactory
from bot.wechat.testkit.echo import EchoEngine
from bot.worker import LeaseKeeper, UnrecordedTurns, WorkerDeps, drain_user
from runtime import keys
from runtime.turn import Inbound, TurnResult
from tests.harness.edge import make_api, run_jobs_with

M = MessageFactory()


def runtime(wx: FakeWeChatServer, conn, engine, ttl_ms: int) -> WorkerDeps:
    rt = WorkerDeps(redis=conn, turns=UnrecordedTurns(engine), delivery=DeliveryService(conn, make_api(wx, conn)),
                     queue=make_queue(conn), lease_ttl_ms=ttl_ms, typing_after_s=0)
    run_jobs_with(rt)
    return rt


def accept(conn, xml: str) -> None:
    msg = parse_message(xml)
    Mailbox(conn).accept(msg.user, msg.message_key, msg.to_json(), deadline=time.time(), now=time.time(),
                         waits=False)


class Thief(EchoEngine):
    """Another drainer takes the user's lease while the turn runs (as when the lease lapsed)."""

    def __init__(self, conn) -> None:
        self.conn = conn

    def handle(self, inbound: Inbound) -> TurnResult:
        self.conn.set(keys.lease(inbound.user), "another-drainer")
        return super().handle(inbound)


def test_a_turn_much_longer_than_the_lease_keeps_it(wx: FakeWeChatServer, fake_redis) -> None:
    runtime(wx, fake_redis, EchoEngine(), ttl_ms=300)
    accept(fake_redis, M.text("u1", "sleep:1.2 慢慢来"))
    taken: list[str | None] = []

    def rival() -> None:
        for _ in range(10):
            time.sleep(0.1)
            taken.append(Mailbox(fake_redis).claim("u1", "rival", 300))

    thread = threading.Thread(target=rival)
    thread.start()
    assert drain_user("u1") == 1
    thread.join()
    assert taken == [None] * 10  # four lease lengths: never free meanwhile
    assert [s.text for s in wx.state.sent] == ["echo:慢慢来"]
    assert not fake_redis.exists(keys.lease("u1"))


def test_a_turn_that_lost_its_lease_sends_nothing_and_the_holder_sends_once(wx: FakeWeChatServer,
                                                                          fake_redis) -> None:
    runtime(wx, fake_redis, Thief(fake_redis), ttl_ms=3000)
    accept(fake_redis, M.text("u1", "你好"))
    assert drain_user("u1") == 0
    assert wx.state.sent == []
    assert fake_redis.llen(keys.mailbox("u1")) == 1  # still at the head, for the holder
    Mailbox(fake_redis).release("u1", "another-drainer")
    runtime(wx, fake_redis, EchoEngine(), ttl_ms=3000)
    assert drain_user("u1") == 1  # the re-run reuses the stored turn
    assert [s.text for s in wx.state.sent] == ["echo:你好"]


def test_a_lease_found_taken_at_renewal_is_lost(fake_redis) -> None:
    keeper = LeaseKeeper(fake_redis, 150)
    assert Mailbox(fake_redis).acquire("u1", "mine", 150)
    keeper.hold("u1", "mine", time.monotonic())
    keeper.ensure("u1", "mine")
    time.sleep(0.3)  # renewed meanwhile
    assert fake_redis.get(keys.lease("u1")) == b"mine"
    fake_redis.set(keys.lease("u1"), "theirs")
    time.sleep(0.2)
    with pytest.raises(LeaseLost):
        keeper.ensure("u1", "mine")
    keeper.drop("u1", "mine")
    with pytest.raises(LeaseLost):
        keeper.ensure("u1", "mine")  # not held at all
