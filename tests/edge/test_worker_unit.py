"""Drain jobs in-process on fakeredis: idempotent turns, degraded turns, lease and ordering."""

from __future__ import annotations

import json
import time

import pytest

from bot import _webhook_keys as keys
from bot._worker_texts import TURN_FAILED
from bot.delivery import DeliveryService
from bot.queue import Mailbox, make_queue
from bot.wechat.inbound import parse_message
from bot.wechat.testkit import FakeWeChatServer, MessageFactory
from bot.wechat.testkit.echo import EchoEngine
from bot.worker import EdgeRuntime, drain_user, install, process_entry
from runtime.turn import Inbound, TurnResult
from tests.edge.conftest import make_api

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


def runtime(wx: FakeWeChatServer, conn, engine) -> EdgeRuntime:
    rt = EdgeRuntime(redis=conn, engine=engine, delivery=DeliveryService(conn, make_api(wx, conn)),
                     queue=make_queue(conn), lease_ttl_ms=2000, typing_after_s=0)
    install(rt)
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
