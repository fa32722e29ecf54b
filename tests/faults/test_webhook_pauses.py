"""The webhook process frozen (SIGSTOP/SIGCONT) under load: no reply lost to a request WeChat already
gave up on, and the records say what the users got.

Real processes on loopback: ``wxbot serve`` (passive replies on: a request waits up to 4.5 s), two
``wxbot worker`` (the echo engine; half the turns take 3–4.4 s), a private ``redis-server`` (AOF);
WeChat's side is :class:`tests.harness.passive.Conversation` (5 s per attempt, 3 attempts) and the
fake WeChat API. The webhook is paused for 0.3–1.5 s every 2–4 s: a request can be read after WeChat
gave up on it, or be frozen between taking a reply and answering.

Two short runs freeze it at a chosen moment (read late; frozen while waiting). The long run
(``WXBOT_LONG=1``): 6 users × 60 messages a run, three runs. The figure in docs/guarantees.md::

    WXBOT_LONG=1 .venv/bin/pytest -q -s -p no:cacheprovider tests/faults/test_webhook_pauses.py
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from bot.bench import PrivateRedis
from bot.delivery import DeliveryStore
from bot.wechat.testkit import FakeWeChatServer, MessageFactory, WebhookDriver
from runtime import keys
from tests.harness.edge import wait_until
from tests.harness.failover import TOKEN, Processes
from tests.harness.faults import LONG
from tests.harness.passive import Conversation, Pauser, Report, check

pytestmark = pytest.mark.redis
M = MessageFactory()


@pytest.fixture
def edge(wx: FakeWeChatServer, tmp_path: Path) -> Iterator[tuple[str, Processes, redis.Redis]]:
    """``wxbot serve`` (passive replies on) and one worker on a private Redis, warmed up."""
    server = PrivateRedis(aof=False, die_with_parent=True).start()
    procs = Processes({"REDIS_URL": server.url}, wx, tmp_path)
    try:
        url = procs.webhook(reply_wait=4.5)
        procs.worker("worker-1")
        with WebhookDriver(url, TOKEN, attempts=1) as d:  # the worker is up once a reply comes back
            assert wait_until(lambda: d.deliver(M.text("warm", "hi")).reply == "echo:hi", 30, 0.2)
        yield url, procs, redis.Redis(port=server.port)
    finally:
        procs.stop()
        server.stop()


def _frozen(pid: int, seconds: float) -> threading.Timer:
    """SIGSTOP ``pid`` now, SIGCONT it ``seconds`` later."""
    os.kill(pid, signal.SIGSTOP)
    timer = threading.Timer(seconds, os.kill, (pid, signal.SIGCONT))
    timer.start()
    return timer


def test_a_request_read_after_wechat_gave_up_leaves_the_reply_to_the_api(
        edge: tuple[str, Processes, redis.Redis], wx: FakeWeChatServer) -> None:
    """The webhook frozen when the request arrives: it is read 1.5 s late and its reply is ready 5.3 s
    after WeChat sent it. WeChat (one attempt here) gave up at 5 s: the reply goes through the API,
    and nothing says it was answered passively."""
    url, procs, conn = edge
    conv = Conversation(url, TOKEN, "late-read", ["sleep:3.8 迟到"], attempts=1)
    thaw = _frozen(procs.pid("webhook"), 1.5)
    conv.start()
    conv.join()
    thaw.join()
    assert wait_until(lambda: [s.text for s in wx.state.sent_to("late-read", "custom")] == ["echo:迟到"], 20)
    report = check([conv], wx, DeliveryStore(conn))
    assert (report.passive, report.via_api, report.lost, report.disagreements) == (0, 1, [], [])


def test_a_request_frozen_past_its_time_leaves_the_reply_to_wechats_next_attempt(
        edge: tuple[str, Processes, redis.Redis], wx: FakeWeChatServer) -> None:
    """The webhook frozen while its request waits; the reply becomes ready meanwhile. On waking, that
    request may no longer take it: WeChat's next attempt answers with it."""
    url, procs, conn = edge
    conv = Conversation(url, TOKEN, "frozen", ["sleep:1.2 冻住了"])
    conv.start()
    assert wait_until(lambda: conn.exists(keys.handoff("frozen", conv.messages[0].key)) == 1, 10, 0.005)
    thaw = _frozen(procs.pid("webhook"), 5.2)  # the reply is ready meanwhile; WeChat tries again at 5 s
    conv.join()
    thaw.join()
    msg = conv.messages[0]
    assert [text for _, text in msg.passive] == ["echo:冻住了"] and msg.attempts == 2
    report = check([conv], wx, DeliveryStore(conn))
    assert (report.passive, report.via_api, report.lost, report.disagreements) == (1, 0, [], [])


def _contents(rng: random.Random, user: str, n: int) -> list[str]:
    """Half the turns take 3–4.4 s (``sleep:`` of the echo engine), the others answer at once."""
    return [f"sleep:{rng.uniform(3.0, 4.4):.2f} {user}-{i}" if rng.random() < 0.5 else f"{user}-{i}"
            for i in range(n)]


def _run(wx: FakeWeChatServer, tmp_path: Path, *, users: int, per_user: int, seed: int) -> Report:
    server = PrivateRedis(aof=True, die_with_parent=True).start()
    conn = redis.Redis(port=server.port)
    procs = Processes({"REDIS_URL": server.url}, wx, tmp_path)
    rng = random.Random(seed)
    try:
        url = procs.webhook(reply_wait=4.5)
        for name in ("worker-1", "worker-2"):
            procs.worker(name)
        names = [f"s{seed}u{i}" for i in range(users)]
        convs = [Conversation(url, TOKEN, u, _contents(rng, u, per_user)) for u in names]
        pauser = Pauser(procs.pid("webhook"), seed=seed)
        started = time.monotonic()
        for c in convs:
            c.start()
        pauser.start()
        for c in convs:
            c.join()
        pauser.stop()
        store = DeliveryStore(conn)
        wait_until(lambda: not check(convs, wx, store).lost, 60, 0.5)  # the API path and the sweeper finish
        time.sleep(1.0)  # anything doubled shows now
        report = check(convs, wx, store)
    finally:
        procs.stop()
        server.stop()
    print(f"seed={seed} {report.line()} pauses={len(pauser.pauses)} paused_s={sum(pauser.pauses):.1f} "
          f"run_s={time.monotonic() - started:.0f} statuses={dict(sum((c.statuses for c in convs), start=type(convs[0].statuses)()))}")
    return report


def _assert_sound(report: Report) -> None:
    assert not report.lost, report.lost
    assert not report.unrecorded_doubles, report.unrecorded_doubles
    assert not report.disagreements, report.disagreements


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.skipif(not LONG, reason="long fault run: set WXBOT_LONG=1")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_webhook_paused_under_load_loses_no_reply(wx: FakeWeChatServer, tmp_path: Path, seed: int) -> None:
    report = _run(wx, tmp_path, users=6, per_user=60, seed=seed)
    assert report.accepted >= 300
    _assert_sound(report)
