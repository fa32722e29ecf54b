"""End to end: webhook over real HTTP, real Redis (DB 2), separate `wxbot worker` processes."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import redis

from bot.delivery import DeliveryStore
from bot.wechat.testkit import FakeWeChatServer, MessageFactory, WebhookDriver
from runtime import keys
from runtime.transcript import Transcript
from tests.harness.edge import TOKEN, Webhook, start_webhook, start_workers, stop_workers, wait_until
from tests.harness.tiers import LONG

pytestmark = pytest.mark.redis
M = MessageFactory()


@pytest.fixture
def hook(real_redis: redis.Redis, wx: FakeWeChatServer) -> Iterator[Webhook]:
    h = start_webhook(real_redis, wx, embedded=False)
    yield h
    h.stop()


@pytest.fixture
def workers(wx: FakeWeChatServer, hook: Webhook) -> Iterator[list[Any]]:
    procs = start_workers(wx, 1)
    yield procs
    stop_workers(procs)


@pytest.fixture
def d(hook: Webhook) -> Iterator[WebhookDriver]:
    with WebhookDriver(hook.url, TOKEN, attempt_timeout_s=1.0) as driver:
        yield driver


def test_text_reply_slow_retry_and_slower_api(d: WebhookDriver, workers, wx: FakeWeChatServer) -> None:
    # the first call also waits for the worker process to start
    assert wait_until(lambda: d.deliver(M.text("warm", "hi")).reply == "echo:hi", 20, interval=0.5)
    first = d.deliver(M.text("u1", "你好"))
    assert (first.attempts, first.reply) == (1, "echo:你好")
    slow = d.deliver(M.text("u2", "sleep:1.3 慢一点"))
    assert (slow.attempts, slow.reply) == (2, "echo:慢一点")
    slower = d.deliver(M.text("u3", "sleep:3.4 更慢"))
    assert (slower.attempts, slower.reply, slower.body) == (3, None, "success")
    assert wait_until(lambda: len(wx.state.sent_to("u3", "custom")) == 1, 5)
    threading.Event().wait(1.0)
    assert [s.text for s in wx.state.sent_to("u3", "custom")] == ["echo:更慢"]
    assert len(wx.state.sent_to("u3", "typing")) == 1  # "typing…" while the slow turn ran
    assert wx.state.sent_to("u1") == [] and wx.state.sent_to("u2", "custom") == []


def _load(hook: Webhook, wx: FakeWeChatServer, conn: redis.Redis, *, users: int, per_user: int,
          kill: bool) -> None:
    names = [f"load{i:02d}" for i in range(users)]
    passive: dict[str, list[str]] = {name: [] for name in names}

    def text(n: int, i: int) -> str:
        return f"sleep:2 {i}" if kill and n == 0 and i == 5 else str(i)

    def send(n: int) -> None:  # a client per sender, as WeChat's servers: one httpx client shared by
        # 50 threads once failed a read with EBADF (a socket closed under a reading thread)
        with WebhookDriver(hook.url, TOKEN, attempts=1, attempt_timeout_s=10) as d:
            for i in range(per_user):
                xml = M.text(names[n], text(n, i))
                for _ in range(3):  # as WeChat does: a 503 (Redis too slow to accept it) is sent again, same id
                    res = d.post_once(xml)
                    if res.status_code != 503:
                        break
                assert res.status_code == 200
                reply = d.reply_text(res.text)
                if reply is not None:  # the worker was faster than the webhook's release: passive
                    passive[names[n]].append(reply)

    threads = [threading.Thread(target=send, args=(n,)) for n in range(users)]
    for t in threads:
        t.start()
    if kill:
        # SIGKILL the worker while it is inside the slow turn of load00 (found through its lease)
        assert wait_until(lambda: conn.get(keys.lease(names[0])) is not None
                          and b"sleep:2" in (conn.lindex(keys.mailbox(names[0]), 0) or b""), 30)
        pid = int(conn.get(keys.lease(names[0])).split(b":")[0])  # type: ignore[union-attr]
        os.kill(pid, signal.SIGKILL)
    for t in threads:
        t.join()
    total = users * per_user - sum(map(len, passive.values()))
    def custom() -> list[Any]:
        return [s for s in wx.state.sent if s.kind == "custom"]

    expected = [f"echo:{i}" for i in range(per_user)]

    def all_answered() -> bool:  # by content, not by count: a recorded double must not hide a loss
        return all(set(expected) <= {s.text for s in wx.state.sent_to(n, "custom")} | set(passive[n]) for n in names)

    assert wait_until(all_answered, 90, interval=0.25), len(custom())
    threading.Event().wait(1.0)
    doubled = 0
    for name in names:
        got = [s.text for s in wx.state.sent_to(name, "custom")]
        pushed = [t for i, t in enumerate(got) if i == 0 or got[i - 1] != t]
        assert pushed == [t for t in expected if t in pushed], name  # API replies in order
        assert sorted(pushed + passive[name], key=expected.index) == expected, name  # none lost
        outcomes = DeliveryStore(conn).outcomes(name)
        # the kill may also catch the worker's other lane inside a WeChat call: a piece is sent twice
        # only then, and it is recorded
        assert len(got) - len(pushed) <= sum(o["status"] == "resent_uncertain" for o in outcomes), (name, got)
        doubled += len(got) - len(pushed)
        processed = [o["msg"] for o in outcomes if o["status"] == "sent"]
        assert processed == sorted(processed, key=lambda k: int(k[1:])), name  # handled in arrival order
    assert len(custom()) == total + doubled
    assert kill or doubled == 0  # without a kill, nothing is ever sent twice
    if not kill:  # each worker writes its turns' counters after each batch: all of them are counted
        stats = Transcript(conn).stats()
        assert stats.turns == users * per_user, stats
        assert sum(stats.deliveries.values()) == users * per_user, stats.deliveries


@pytest.mark.slow
@pytest.mark.parametrize("kill", [False, True])
def test_three_workers_many_users_in_order(real_redis: redis.Redis, wx: FakeWeChatServer, kill: bool) -> None:
    """20 users × 10 messages in every run, 50 × 20 with ``WXBOT_LONG=1``."""
    hook = start_webhook(real_redis, wx, embedded=False, reply_wait_s=0.0, max_attempts=1)
    procs = start_workers(wx, 3)
    users, per_user = (50, 20) if LONG else (20, 10)
    try:
        _load(hook, wx, real_redis, users=users, per_user=per_user, kill=kill)
        if kill:
            assert sum(p.poll() == -signal.SIGKILL for p in procs) == 1
    finally:
        stop_workers(procs)
        hook.stop()


def test_a_retry_to_another_replica_waits_for_the_same_reply(
    real_redis: redis.Redis, wx: FakeWeChatServer, hook: Webhook, workers, d: WebhookDriver
) -> None:
    other = start_webhook(real_redis, wx, embedded=False)
    try:
        assert wait_until(lambda: d.deliver(M.text("warm", "hi")).reply == "echo:hi", 20, interval=0.5)
        xml = M.text("u5", "sleep:1.2 换一台")
        with pytest.raises(httpx.TimeoutException):
            d.post_once(xml)  # replica A: the turn is slower than WeChat's patience
        with WebhookDriver(other.url, TOKEN, attempt_timeout_s=1.0) as d2:
            res = d2.post_once(xml)  # WeChat's retry lands on replica B
            assert d2.reply_text(res.text) == "echo:换一台"
        threading.Event().wait(0.5)
        assert wx.state.sent_to("u5", "custom") == []
        assert real_redis.llen(keys.mailbox("u5")) == 0
        outcomes = DeliveryStore(real_redis).outcomes("u5")
        assert [(o["channel"], o["status"]) for o in outcomes] == [("passive", "sent")]
    finally:
        other.stop()
