"""Replies through the customer-service API while WeChat misbehaves and workers die.

* Workers SIGKILLed every 2 s (every second in the short run) while WeChat answers 500 or 503 and sends time out or are reset
  after delivery: no reply lost, every doubled message recorded (a re-sent message may carry a
  parked reply packed with its own: one message, one record).
* 3 % of sends are delivered and then time out: no reply lost, none out of order, and no more
  doubles than recorded uncertain outcomes.
* A worker killed in the middle of a user's turn: the user is answered again within 5 s.

Replies left parked (a send that certainly failed waits for the user's next message) are carried
by one last message per user, sent once the faults stop. Every run: the 3 % run with 100 messages and
the killed worker's user; ``WXBOT_LONG=1`` (CI): 1,000 messages each, and the kills among the faults.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator

import pytest
import redis

from bot.bench import PrivateRedis
from bot.delivery import SEPARATOR, DeliveryStore
from bot.wechat.testkit import FakeWeChatServer, Fault, MessageFactory, WebhookDriver
from runtime import keys
from tests.harness.edge import start_webhook, wait_until
from tests.harness.faults import LONG, TOKEN, Every, WorkerPool

pytestmark = pytest.mark.redis
M = MessageFactory()
LAST = "last"


@pytest.fixture
def private() -> Iterator[tuple[PrivateRedis, redis.Redis]]:
    server = PrivateRedis(aof=False).start()
    conn = redis.Redis(port=server.port)
    yield server, conn
    conn.close()
    server.stop()


def _pieces(wx: FakeWeChatServer, user: str) -> list[str]:
    return [p for s in wx.state.sent_to(user, "custom") for p in s.text.split(SEPARATOR)]


def _doubled_messages(wx: FakeWeChatServer, user: str) -> int:
    """Messages the user got that repeat a reply they had already got. A re-sent message may carry
    several replies packed together (a parked one and the next): it is one double, recorded once."""
    seen: set[str] = set()
    doubled = 0
    for sent in wx.state.sent_to(user, "custom"):
        replies = sent.text.split(SEPARATOR)
        doubled += any(r in seen for r in replies)
        seen.update(replies)
    return doubled


def _run(server: PrivateRedis, conn: redis.Redis, wx: FakeWeChatServer, *, users: int, per_user: int,
         faults: tuple[Fault, ...], rate: float, kill_every: float | None) -> dict[str, int]:
    hook = start_webhook(conn, wx, embedded=False, reply_wait_s=0.0, max_attempts=1, rate_limit_per_minute=100_000)
    pool = WorkerPool(server.url, wx, 2, env={"WECHAT_API_TIMEOUT": "0.5"})
    rng = random.Random(21)
    killer = Every(kill_every, lambda: pool.kill_one(rng)) if kill_every else None
    names = [f"f{i:03d}" for i in range(users)]
    expected = [f"echo:{i}" for i in range(per_user)] + [f"echo:{LAST}"]
    wx.state.latency["custom"] = 0.01  # a real API call takes a while: kills land inside some of them

    def send(chunk: list[str], texts: list[str]) -> None:
        with WebhookDriver(hook.url, TOKEN, attempts=1, attempt_timeout_s=10) as d:
            for text in texts:
                for name in chunk:
                    assert d.post_once(M.text(name, text)).status_code == 200

    def send_all(texts: list[str]) -> None:
        senders = [threading.Thread(target=send, args=(names[j::8], texts)) for j in range(8)]
        for t in senders:
            t.start()
        for t in senders:
            t.join()

    try:
        wx.state.random_faults.clear()
        wx.fail_randomly("custom", rate, seed=5, mix=faults)
        if killer is not None:
            killer.start()
        send_all([str(i) for i in range(per_user)])
        # every message handled while the faults (and kills) go on: a reply is then sent or parked
        assert wait_until(lambda: not any(conn.llen(keys.mailbox(n)) for n in names), 300, 0.25)
        if killer is not None:
            killer.stop()
        wx.fail_randomly("custom", 0.0)
        time.sleep(1.0)  # the last hanging calls end
        send_all([LAST])  # the next touch carries whatever is parked
        done = wait_until(lambda: all(set(expected) <= set(_pieces(wx, n)) for n in names), 90, 0.25)
        threading.Event().wait(1.5)  # anything doubled would show up now
    finally:
        if killer is not None and killer.is_alive():
            killer.stop()
        crashes = pool.stop()
        hook.stop()
    store = DeliveryStore(conn)
    figures = {"messages": users * (per_user + 1), "kills": pool.killed, "lost": 0, "out_of_order": 0,
               "doubled": 0, "doubled_replies": 0, "uncertain": 0, "resent_uncertain": 0}
    for name in names:
        got = _pieces(wx, name)
        statuses = [o["status"] for o in store.outcomes(name)]
        figures["lost"] += len(set(expected) - set(got))
        first = [t for i, t in enumerate(got) if t not in got[:i]]
        # every copy of a reply comes before the first copy of any later one
        # order by message: a message sent again right after itself (a resend) is not disorder
        texts = [s.text for s in wx.state.sent_to(name, "custom")]
        kept = [p for i, t in enumerate(texts) if i == 0 or t != texts[i - 1] for p in t.split(SEPARATOR)]
        disorder = sum(1 for i, t in enumerate(kept) if t in kept[:i] and kept[i - 1] != t
                       and first.index(t) < first.index(kept[i - 1]))
        disorder += first != [t for t in expected if t in first]
        if disorder:
            print("out of order:", name, [s.text for s in wx.state.sent_to(name, "custom")], statuses)
        figures["out_of_order"] += disorder
        doubled = _doubled_messages(wx, name)
        recorded = statuses.count("uncertain") + statuses.count("resent_uncertain")
        # every doubled message is recorded
        assert doubled <= recorded, (name, [s.text for s in wx.state.sent_to(name, "custom")], statuses)
        figures["doubled"] += doubled
        figures["doubled_replies"] += len(got) - len(first)
        figures["uncertain"] += statuses.count("uncertain")
        figures["resent_uncertain"] += statuses.count("resent_uncertain")
    figures["api_faults"] = sum(1 for n in names for o in store.outcomes(n) if o["status"] in ("failed", "uncertain"))
    print(figures)
    assert done and figures["lost"] == 0, figures
    assert not [c for c in crashes if "Traceback" in c and "SIGKILL" not in c], crashes
    return figures


SIZE = (50, 19) if LONG else (10, 9)  # users × messages, plus one last message each: 1,000 or 100
KILL_SIZE = SIZE if LONG else (10, 9)  # 1,000 or 100


@pytest.mark.skipif(not LONG, reason="long fault run: set WXBOT_LONG=1 (every run kills a worker mid-turn below)")
def test_worker_kills_with_500s_and_timeouts_lose_nothing_and_record_every_double(private, wx) -> None:
    server, conn = private
    faults = (Fault(status=500), Fault(status=503), Fault(after="timeout", hang_s=2.0), Fault(after="reset"))
    figures = _run(server, conn, wx, users=KILL_SIZE[0], per_user=KILL_SIZE[1], faults=faults, rate=0.05,
                   kill_every=2.0 if LONG else 1.0)
    assert figures["kills"] >= (3 if LONG else 1)  # a fast machine finishes the short run within a few kills
    # order is printed, not asserted: a worker starved past its lease (not killed) may still land a
    # send it had started after the new holder's later ones; that copy is a recorded double


def test_three_percent_delivered_then_timed_out_no_loss_no_disorder_doubles_recorded(private, wx) -> None:
    server, conn = private
    figures = _run(server, conn, wx, users=SIZE[0], per_user=SIZE[1],
                   faults=(Fault(after="timeout", hang_s=2.0),), rate=0.03, kill_every=None)
    assert figures["out_of_order"] == 0, figures
    assert figures["doubled"] <= figures["uncertain"]


def test_a_killed_workers_user_is_answered_again_within_five_seconds(private, wx) -> None:
    server, conn = private
    hook = start_webhook(conn, wx, embedded=False, reply_wait_s=0.0, max_attempts=1)
    pool = WorkerPool(server.url, wx, 2, lease_ttl=3.0)  # the default lease
    try:
        with WebhookDriver(hook.url, TOKEN, attempts=1, attempt_timeout_s=10) as d:
            for i in range(4):
                d.post_once(M.text(f"warm{i}", "hi"))
            assert wait_until(lambda: all(wx.state.sent_to(f"warm{i}", "custom") for i in range(4)), 30, 0.05)
            d.post_once(M.text("k1", "sleep:0.5 慢"))
            d.post_once(M.text("k1", "快"))
            assert wait_until(lambda: bool(conn.keys("wx:*k1*:lease")), 10, 0.005)
            holder = (conn.get(conn.keys("wx:*k1*:lease")[0]) or b"").decode().split(":")[0]
            victim = next(p for p in pool.procs if str(p.pid) == holder)
            pool.kill(victim)  # in the middle of k1's slow turn
            killed_at = time.monotonic()
            assert wait_until(lambda: len(wx.state.sent_to("k1", "custom")) >= 1, 15, 0.01)
            answered = time.monotonic() - killed_at
            assert wait_until(lambda: len(wx.state.sent_to("k1", "custom")) >= 2, 10, 0.01)
    finally:
        pool.stop()
        hook.stop()
    print(f"answered again {answered:.2f} s after the kill")
    assert [s.text for s in wx.state.sent_to("k1", "custom")] == ["echo:慢", "echo:快"]
    assert answered <= 5.0
