"""A job finds its dependencies in the worker running it, never in a process-wide global."""

from __future__ import annotations

import pytest
from rq import Queue

from bot.delivery import DeliveryService
from bot.wechat.testkit import FakeWeChatServer
from bot.wechat.testkit.echo import EchoEngine
from bot.worker import EdgeWorker, InlineDispatcher, UnrecordedTurns, WorkerDeps, current, serving
from tests.harness.edge import make_api

SEEN: dict[str, int] = {}


def record_lanes(tag: str) -> int:
    """A job: which deps it ran with (told apart by their lanes)."""
    SEEN[tag] = current().lanes
    return SEEN[tag]


def _deps(wx: FakeWeChatServer, conn, lanes: int) -> WorkerDeps:
    return WorkerDeps(redis=conn, turns=UnrecordedTurns(EchoEngine()), delivery=DeliveryService(conn, make_api(wx, conn)),
                      queue=Queue("q", connection=conn), lanes=lanes)


def test_outside_a_worker_a_job_has_no_deps() -> None:
    with pytest.raises(RuntimeError, match="serving"):
        current()


def test_serving_blocks_nest_and_end(wx: FakeWeChatServer, fake_redis) -> None:
    outer, inner = _deps(wx, fake_redis, 1), _deps(wx, fake_redis, 2)
    with serving(outer):
        with serving(inner):
            assert current() is inner
        assert current() is outer
    with pytest.raises(RuntimeError):
        current()


def test_an_rq_job_runs_with_the_deps_of_the_worker_that_took_it(wx: FakeWeChatServer, fake_redis) -> None:
    queue = Queue("serving-test", connection=fake_redis)
    job = queue.enqueue(record_lanes, "rq")
    worker = EdgeWorker([queue], connection=fake_redis, deps=_deps(wx, fake_redis, 5))
    worker.work(burst=True, logging_level="WARNING")
    assert job.refresh() is None and job.return_value() == 5
    with pytest.raises(RuntimeError):
        current()  # the worker's deps were the job's only, not the process's


def test_two_embedded_dispatchers_in_one_process_keep_their_own_deps(wx: FakeWeChatServer, fake_redis) -> None:
    first, second = InlineDispatcher(_deps(wx, fake_redis, 3)), InlineDispatcher(_deps(wx, fake_redis, 4))
    try:
        for tag, dispatcher in (("first", first), ("second", second)):
            dispatcher.submit(record_lanes, tag).result(timeout=5)
    finally:
        first.shutdown()
        second.shutdown()
    assert (SEEN["first"], SEEN["second"]) == (3, 4)
