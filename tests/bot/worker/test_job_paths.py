"""The job paths RQ stores in Redis keep resolving: jobs queued by an older release still run."""

from __future__ import annotations

import fakeredis
import pytest
from rq import Queue

from bot import queue, worker
from bot.upgrade import JOB_PATHS, StoredJob

STORED_PATHS = {
    "bot.worker.drain_ready": worker.drain_ready,
    "bot.worker.drain_user": worker.drain_user,
    "bot.worker.deliver_released": worker.deliver_released,
    "bot.worker.deliver_push": worker.deliver_push,
    "bot._scheduler_sinks.deliver_push": worker.deliver_push,  # reminder pushes queued before bot/worker/
}


@pytest.mark.parametrize("path", sorted(STORED_PATHS))
def test_a_stored_job_path_resolves_to_its_job(path: str) -> None:
    conn = fakeredis.FakeRedis()
    stored = Queue("old-release", connection=conn).enqueue(path, "u1")  # as an older release queued it
    assert StoredJob.fetch(stored.id, connection=conn).func is STORED_PATHS[path]


def test_every_old_name_is_listed_and_the_queue_names_jobs_by_their_current_paths() -> None:
    assert set(JOB_PATHS) <= set(STORED_PATHS)
    assert {queue.DRAINER_JOB, queue.DRAIN_JOB, queue.RELEASED_JOB, queue.PUSH_JOB} <= set(STORED_PATHS) - set(JOB_PATHS)


def test_the_worker_reads_jobs_with_the_old_names_mapped(fake_redis) -> None:
    deps = worker.WorkerDeps(redis=fake_redis, turns=None, delivery=None, queue=None)  # type: ignore[arg-type]
    assert worker.EdgeWorker([Queue("q", connection=fake_redis)], connection=fake_redis, deps=deps).job_class is StoredJob
