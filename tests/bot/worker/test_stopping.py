"""A stopping worker: the drainer finishes the turn in flight and hands the rest back; the RQ command
listener ends within a second even when its subscription is already gone (rq issue #1613); the stop
request's rules (once, hooks, during the start)."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator

import pytest
import redis
from rq import Queue

from bot.delivery import DeliveryService
from bot.queue import DrainSchedule, Mailbox, make_queue
from bot.stopping import StopRequest
from bot.wechat.inbound import parse_message
from bot.wechat.testkit import FakeWeChatServer, MessageFactory
from bot.wechat.testkit.echo import EchoEngine
from bot.worker import EdgeWorker, UnrecordedTurns, WorkerDeps, drain_ready
from runtime import keys
from runtime.turn import Inbound, TurnResult
from tests.harness.edge import make_api, run_jobs_with

M = MessageFactory()
LISTEN_POLL_S = 1.0  # the command listener's longest read (bot/worker/_rq_worker.py)


class StopsDuringTurn(EchoEngine):
    """Echoes; sets ``stopping`` while it handles the message ``at`` (a SIGTERM arriving mid-turn)."""

    def __init__(self, stopping: threading.Event, at: str) -> None:
        self.stopping, self.at = stopping, at
        self.calls: list[str] = []

    def handle(self, inbound: Inbound, *, loaded: object = None) -> TurnResult:
        self.calls.append(inbound.text)
        if inbound.text == self.at:
            self.stopping.set()
        return super().handle(inbound)


def _accept(conn: redis.Redis, user: str, text: str) -> None:
    msg = parse_message(M.text(user, text))
    Mailbox(conn).accept(msg.user, msg.message_key, msg.to_json(), deadline=time.time(), now=time.time(), waits=False)


def test_a_stopping_drainer_finishes_the_turn_in_flight_and_hands_the_rest_back(
        wx: FakeWeChatServer, fake_redis: redis.Redis) -> None:
    deps = WorkerDeps(redis=fake_redis, turns=UnrecordedTurns(EchoEngine()), queue=make_queue(fake_redis),
                      delivery=DeliveryService(fake_redis, make_api(wx, fake_redis)), lease_ttl_ms=60_000,
                      typing_after_s=0)
    engine = StopsDuringTurn(deps.stopping, "a1")
    deps.turns = UnrecordedTurns(engine)
    run_jobs_with(deps)
    users = ["a", "b", "c"]
    for user in users:
        for i in range(3):
            _accept(fake_redis, user, f"{user}{i}")
    schedule = DrainSchedule(fake_redis)
    for user in users:
        schedule.push(user)
    token = schedule.push(None)
    assert token is not None
    handled = drain_ready(token)
    assert engine.calls == ["a0", "a1"] and handled == 2  # the turn in flight finished, no other began
    assert [s.text for s in wx.state.sent] == ["echo:a0", "echo:a1"]
    # the rest is handed back: mailboxes intact, no lease left to expire, the users ready in their
    # order, and a fresh drainer job queued for another worker
    assert [fake_redis.llen(keys.mailbox(u)) for u in users] == [1, 3, 3]
    assert not any(fake_redis.exists(keys.lease(u)) for u in users)
    assert [u.decode() for u in fake_redis.lrange(keys.ready_users(), 0, -1)] == users
    assert Queue(deps.queue.name, connection=fake_redis).count == 1


def test_without_a_stop_the_same_drain_serves_everyone(wx: FakeWeChatServer, fake_redis: redis.Redis) -> None:
    engine = StopsDuringTurn(threading.Event(), "a1")  # an event nobody looks at
    deps = WorkerDeps(redis=fake_redis, turns=UnrecordedTurns(engine), queue=make_queue(fake_redis),
                      delivery=DeliveryService(fake_redis, make_api(wx, fake_redis)), typing_after_s=0)
    run_jobs_with(deps)
    for user in ("a", "b"):
        for i in range(2):
            _accept(fake_redis, user, f"{user}{i}")
        DrainSchedule(fake_redis).push(user)
    token = DrainSchedule(fake_redis).push(None)
    assert token is not None and drain_ready(token) == 4


@pytest.fixture
def worker(real_redis: redis.Redis, wx: FakeWeChatServer) -> Iterator[EdgeWorker]:
    deps = WorkerDeps(redis=real_redis, turns=UnrecordedTurns(EchoEngine()), queue=make_queue(real_redis),
                      delivery=DeliveryService(real_redis, make_api(wx, real_redis)))
    yield EdgeWorker([make_queue(real_redis)], connection=real_redis, deps=deps, name=f"stop-{time.monotonic_ns()}")


@pytest.mark.redis
def test_the_command_listener_stops_at_once_even_after_its_subscription_went(worker: EdgeWorker) -> None:
    """RQ's own unsubscribe joins a pub/sub thread that, once the unsubscribe reply is read before the
    thread's flag is cleared, waits 60 s for a subscription that will not come back."""
    for _ in range(3):  # RQ's own hangs on the first
        worker.subscribe()
        assert worker.pubsub is not None
        worker.pubsub.unsubscribe()  # the reply reaches the listener first: the race's unlucky order
        deadline = time.monotonic() + 5
        while worker.pubsub.subscribed and time.monotonic() < deadline:
            time.sleep(0.005)
        stopping = threading.Thread(target=worker.unsubscribe, daemon=True)  # RQ's own hangs here
        stopping.start()
        stopping.join(LISTEN_POLL_S + 1.0)
        assert not stopping.is_alive(), "the worker's unsubscribe is stuck joining its pub/sub thread"


@pytest.mark.redis
def test_the_command_listener_still_hears_rq_commands(worker: EdgeWorker, real_redis: redis.Redis) -> None:
    heard: list[object] = []
    worker.handle_payload = heard.append  # type: ignore[method-assign]  # what RQ would act on
    worker.subscribe()
    try:
        real_redis.publish(worker.pubsub_channel_name, '{"command": "shutdown"}')
        deadline = time.monotonic() + 5
        while not heard and time.monotonic() < deadline:
            time.sleep(0.01)
        assert heard and '"shutdown"' in str(heard[0])
    finally:
        worker.unsubscribe()


def test_a_stop_request_runs_its_hooks_once_and_ends_a_start_at_once() -> None:
    stop = StopRequest()
    with pytest.raises(SystemExit) as ended:
        stop.request("SIGTERM")  # still starting: the start ends where it is
    assert ended.value.code == 0 and stop.requested
    running = StopRequest()
    running.started()
    calls: list[str] = []
    running.on_stop(lambda: calls.append("hook"))
    running.request("SIGTERM")
    running.request("SIGTERM")  # a second signal changes nothing
    assert calls == ["hook"]
    running.on_stop(lambda: calls.append("late"))  # registered after the stop: runs at once
    assert calls == ["hook", "late"]


def test_a_finished_command_ignores_stop_signals_while_the_process_exits() -> None:
    before = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        StopRequest().install()
        assert signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL
        StopRequest.finish()
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_IGN and signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)
