"""The job paths RQ stores in Redis keep resolving: jobs queued by an older release still run."""

from __future__ import annotations

import pytest
from rq.utils import import_attribute

from bot import queue, worker

STORED_PATHS = {
    "bot.worker.drain_ready": worker.drain_ready,
    "bot.worker.drain_user": worker.drain_user,
    "bot.worker.deliver_released": worker.deliver_released,
    "bot.worker.deliver_push": worker.deliver_push,
    "bot._scheduler_sinks.deliver_push": worker.deliver_push,  # reminder pushes queued before bot/worker/
}


@pytest.mark.parametrize("path", sorted(STORED_PATHS))
def test_a_stored_job_path_resolves_to_its_job(path: str) -> None:
    assert import_attribute(path) is STORED_PATHS[path]


def test_the_queue_names_jobs_by_their_stored_paths() -> None:
    assert {queue.DRAINER_JOB, queue.DRAIN_JOB, queue.RELEASED_JOB, queue.PUSH_JOB} <= set(STORED_PATHS)
