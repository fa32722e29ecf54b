"""Jobs and helpers for the pipeline benchmark's baseline (RQ's forking worker on empty jobs)."""

from __future__ import annotations

import time
from typing import Any

__all__ = ["forking_baseline"]

# the empty job, in a module whose import costs nothing (each forked child imports it again)
NOOP_JOB = "bot._baseline_job.noop"


def forking_baseline(redis_url: str, *, jobs: int, workers: int) -> dict[str, Any]:
    """``jobs`` empty jobs through ``workers`` ``rq worker`` processes (RQ's default forking Worker)."""
    import redis
    from rq import Queue, Worker

    from bot.bench._procs import spawn, stop

    conn: Any = redis.Redis.from_url(redis_url)
    queue = Queue("bench-baseline", connection=conn)
    procs = [spawn(["-m", "rq.cli", "worker", "--url", redis_url, "--quiet",
                    "--worker-class", "rq.worker.Worker", "bench-baseline"]) for _ in range(workers)]
    deadline = time.perf_counter() + 30
    while len(Worker.all(queue=queue)) < workers and time.perf_counter() < deadline:
        time.sleep(0.1)
    started = time.perf_counter()
    pipe = conn.pipeline()
    for _ in range(jobs):
        queue.enqueue(NOOP_JOB, result_ttl=0, pipeline=pipe)
    pipe.execute()
    while (queue.count or queue.started_job_registry.count) and time.perf_counter() - started < 600:
        time.sleep(0.005)
    seconds = time.perf_counter() - started
    left = queue.count
    stop(procs)
    done = jobs - left
    return {"worker_class": "rq.worker.Worker (forks per job)", "workers": workers, "jobs": done,
            "seconds": round(seconds, 3), "jobs_per_s": round(done / seconds, 1) if seconds else 0.0}
