"""A ready passive reply nobody took goes out through the API, and is never lost with a killed
worker: the sweeper hands it out again until its delivery settles (real Redis)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import redis

from bot.delivery import DeliveryService
from bot.delivery.handoff import LATE_RETRY_S, Attempt, Handoff
from bot.queue import make_queue, sweep_once
from bot.wechat.testkit import FakeWeChatServer
from bot.wechat.testkit.echo import EchoEngine
from bot.worker import UnrecordedTurns, WorkerDeps, deliver_released
from runtime import keys
from tests.harness.edge import make_api, run_jobs_with
from tests.harness.redis_server import flushed_db, private_url

pytestmark = pytest.mark.redis


class LosingDispatcher:
    """Hands released replies to nobody: as if each job were lost with the worker that took it."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, str]] = []

    def drain(self, user: str, *, force: bool = False) -> None:
        pass

    def released(self, user: str, message_key: str, reply: str) -> None:
        self.calls.append((user, message_key, reply))


@pytest.fixture
def conn() -> Iterator[redis.Redis]:
    yield from flushed_db(private_url(12))


def ready_unclaimed(conn: redis.Redis, user: str, key: str, text: str, deadline: float) -> Handoff:
    handoff = Handoff(conn)
    handoff.open(user, key, deadline)
    assert handoff.offer(user, key, text)  # the worker put the reply there; the webhook went away
    return handoff


def sweep(conn: redis.Redis, dispatch: LosingDispatcher, now: float) -> None:
    conn.delete(keys.sweep_lock())  # one pass after another, as if time had passed
    sweep_once(conn, dispatch, now=now)


def test_a_late_reply_whose_job_was_lost_is_handed_out_again_and_sent_once(wx: FakeWeChatServer,
                                                                           conn: redis.Redis) -> None:
    api = make_api(wx, conn)
    delivery = DeliveryService(conn, api)
    delivery.store.on_user_message("u1", time.time())
    run_jobs_with(WorkerDeps(redis=conn, turns=UnrecordedTurns(EchoEngine()), delivery=delivery,
                        queue=make_queue(conn, "wxbot-test-late"), typing_after_s=0))
    t0 = time.time()
    handoff = ready_unclaimed(conn, "u1", "m1", "晚到的回复", deadline=t0 - 1)
    dispatch = LosingDispatcher()
    calls = dispatch.calls

    sweep(conn, dispatch, t0)
    assert calls == [("u1", "m1", "晚到的回复")]  # handed to a job that never runs (worker killed)
    sweep(conn, dispatch, t0 + 1)
    assert len(calls) == 1  # not again at once: a live job may still be on its way
    assert handoff.state("u1", "m1") == "released_ready"

    sweep(conn, dispatch, t0 + LATE_RETRY_S + 1)
    assert len(calls) == 2  # due again: handed out once more
    deliver_released(*calls[-1])
    assert [s.text for s in wx.state.sent_to("u1", "custom")] == ["晚到的回复"]
    assert handoff.state("u1", "m1") == "sent_late"

    deliver_released(*calls[0])  # the first job turns up after all: deduped by the delivery's key
    sweep(conn, dispatch, t0 + 10 * LATE_RETRY_S)
    assert len(calls) == 2  # settled: never handed out again
    assert [s.text for s in wx.state.sent_to("u1", "custom")] == ["晚到的回复"]


def test_a_webhook_that_answers_at_its_deadline_keeps_the_reply_off_the_api(conn: redis.Redis) -> None:
    handoff = ready_unclaimed(conn, "u2", "m1", "回复", deadline=time.time() + 60)
    attempt = Attempt.of(time.time(), wait_s=4.5, answer_s=5.0)
    assert handoff.release("u2", "m1", attempt) == ("taken", "回复")  # its last look: answered passively
    assert handoff.confirm("u2", "m1", attempt, in_time=True) == "sent"
    dispatch = LosingDispatcher()
    calls = dispatch.calls
    sweep(conn, dispatch, time.time() + 120)
    assert calls == [] and conn.zcard(keys.handoff_deadlines()) == 0
