"""Redis SIGKILLed and restarted with passive replies on: every accepted message answered, in order,
and the records say what the users got.

Real processes on loopback: ``wxbot serve`` (a request waits up to 4.5 s for its reply, WeChat's own
timing), two ``wxbot worker`` (the echo engine; a third of the turns take 0.2–1.5 s, so requests are
waiting when Redis dies), a private ``redis-server`` with the deploy persistence (AOF, ``appendfsync
everysec``). WeChat's side is :class:`tests.harness.passive.Conversation`: each user's messages one
after another, 5 s per attempt, a refused attempt (503 while Redis is down) retried. A request whose
wait meets the outage keeps waiting for its reply until its own time is up; a reply nobody can
answer with any more goes through the API before the user's next one.

Every run: a request whose wait meets a restart; ``WXBOT_LONG=1`` (CI): one loaded run of 8 × 15 and ten
of 10 × 30 (the Guarantees figure)::

    WXBOT_LONG=1 .venv/bin/pytest -q -s -p no:cacheprovider tests/faults/test_redis_restart_passive.py
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
import redis

from bot.bench import PrivateRedis
from bot.delivery import DeliveryStore, Handoff
from bot.wechat.testkit import FakeWeChatServer, MessageFactory, WebhookDriver
from runtime import keys
from tests.harness.edge import TOKEN as EDGE_TOKEN
from tests.harness.edge import start_webhook, wait_until
from tests.harness.failover import TOKEN, Processes
from tests.harness.faults import LONG, Every
from tests.harness.passive import Conversation, Report, check

pytestmark = pytest.mark.redis
M = MessageFactory()


def _contents(rng: random.Random, user: str, n: int) -> list[str]:
    return [f"sleep:{rng.uniform(0.2, 1.5):.2f} {user}-{i}" if rng.random() < 1 / 3 else f"{user}-{i}"
            for i in range(n)]


def _waiting(conn: redis.Redis) -> int:
    """Hand-offs a webhook request waits on."""
    return sum(conn.hget(k, "state") == b"waiting" for k in conn.keys("wx:*:handoff:*"))


def _run(wx: FakeWeChatServer, tmp_path: Path, *, users: int, per_user: int, seed: int) -> Report:
    server = PrivateRedis(aof=True, die_with_parent=True).start()
    conn = redis.Redis(port=server.port, socket_timeout=2, socket_connect_timeout=1)
    procs = Processes({"REDIS_URL": server.url}, wx, tmp_path)
    keeper = Every(0.5, procs.respawn_dead)  # systemd's Restart=always
    rng = random.Random(seed)
    try:
        url = procs.webhook(reply_wait=4.5)
        for name in ("worker-1", "worker-2"):
            procs.worker(name)
        keeper.start()
        with WebhookDriver(url, TOKEN, attempts=1) as d:  # both workers answer before the load starts
            assert wait_until(lambda: len(conn.keys("rq:worker:*")) >= 2
                              and d.deliver(M.text("warm", "hi")).reply == "echo:hi", 30, 0.2)
        convs = [Conversation(url, TOKEN, f"r{seed}u{i}", _contents(rng, f"r{seed}u{i}", per_user))
                 for i in range(users)]
        for c in convs:
            c.start()
        time.sleep(rng.uniform(1.0, 3.0))
        wait_until(lambda: _waiting(conn) >= 2, 5, 0.01)  # kill while requests wait for slow turns
        waiting = _waiting(conn)
        server.kill()
        time.sleep(1.5)
        server.start()
        for c in convs:
            c.join()
        store = DeliveryStore(conn)
        wait_until(lambda: not check(convs, wx, store).lost, 60, 0.5)
        time.sleep(1.0)  # anything doubled or late shows now
        report = check(convs, wx, store)
    finally:
        keeper.stop()
        procs.stop()
        server.stop()
    print(f"seed={seed} {report.line()} waiting_at_kill={waiting} respawned={procs.respawned}")
    return report


def _assert_sound(report: Report) -> None:
    assert not report.lost, report.lost
    assert not report.out_of_order, report.out_of_order
    assert not report.unrecorded_doubles, report.unrecorded_doubles
    assert not report.disagreements, report.disagreements


def test_a_request_whose_wait_meets_a_redis_restart_still_answers_with_its_reply(wx: FakeWeChatServer) -> None:
    """Redis dies while a request waits and is back a second later; the reply is ready after that: the
    request answers with it (it used to answer ``success`` at the first error, and the reply went to a
    hand-off nobody waited on)."""
    server = PrivateRedis(aof=True, die_with_parent=True).start()
    conn = redis.Redis(port=server.port, socket_timeout=2, socket_connect_timeout=1)
    hook = start_webhook(conn, wx, embedded=False, reply_wait_s=4.5, hold_s=5.5, attempt_period_s=5.0,
                         max_attempts=1)
    conv = Conversation(hook.url, EDGE_TOKEN, "outage", ["等一等"], attempts=1)
    key = conv.messages[0].key
    try:
        conv.start()
        assert wait_until(lambda: conn.hget(keys.handoff("outage", key), "state") == b"waiting", 10, 0.005)
        server.kill()
        time.sleep(1.0)
        server.start()
        assert Handoff(conn).offer("outage", key, "echo:等一等")  # the worker, once Redis is back
        conv.join()
    finally:
        hook.stop()
        server.stop()
    assert [text for _, text in conv.messages[0].passive] == ["echo:等一等"]


@pytest.mark.skipif(not LONG, reason="long fault run: set WXBOT_LONG=1")
def test_redis_restarted_with_passive_replies_on_keeps_every_reply_in_order(wx: FakeWeChatServer,
                                                                          tmp_path: Path) -> None:
    _assert_sound(_run(wx, tmp_path, users=8, per_user=15, seed=0))


@pytest.mark.slow
@pytest.mark.skipif(not LONG, reason="long fault run: set WXBOT_LONG=1")
@pytest.mark.parametrize("seed", range(1, 11))
def test_redis_restarts_with_passive_replies_ten_runs(wx: FakeWeChatServer, tmp_path: Path, seed: int) -> None:
    _assert_sound(_run(wx, tmp_path, users=10, per_user=30, seed=seed))
