"""What every part of the worker shares: the turn contract and the worker-scoped dependencies.

A leaf of the worker package (it imports none of the worker's other modules), so the drain loop,
the turn and the lookahead all import it and never each other in a circle.

RQ calls a job by its import path with the job's arguments only, so a job finds its dependencies in
the :class:`WorkerDeps` of the worker running it: the worker entry point (:class:`bot.worker.EdgeWorker`,
or :class:`bot.worker.InlineDispatcher` in embedded mode, both built by :mod:`bot.compose`) runs each
job inside :func:`serving`, and the job reads them with :func:`current`. Nothing is installed
process-wide; outside a ``serving`` block :func:`current` raises.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Protocol

from rq import Queue
from sqlalchemy.engine import Engine as SQLEngine

from bot.delivery import DeliveryService
from bot.queue import Mailbox
from bot.redis_client import RedisClient
from bot.worker._lease import LeaseKeeper
from runtime.transcript import StatsTally, TurnHandler
from runtime.turn import Inbound, TurnResult

log = logging.getLogger(__name__)

__all__ = ["PipelinedStore", "Recorder", "TurnRunner", "UnrecordedTurns", "WorkerDeps", "current", "serving"]

Recorder = Callable[[Any], None]  # queues a turn's transcript record on a pipeline


class PipelinedStore(Protocol):
    """A context store whose read can ride on someone else's pipeline."""

    def queue_load(self, pipe: Any, user: str) -> None:
        """Queue the read of ``user``'s context on ``pipe``."""

    def loaded(self, user: str, reply: Any) -> Any:
        """The context from the reply of that read."""


class TurnRunner(Protocol):
    """The worker's contract with the engine (:class:`runtime.transcript.TranscribedTurns` keeps it).

    ``store``: the engine's context store when the worker may read the context ahead, on its own
    pipelines, and hand it over as ``loaded``; None when the engine reads for itself.
    """

    @property
    def store(self) -> PipelinedStore | None:
        """Where the worker reads contexts ahead, or None."""

    def handle_deferred(self, inbound: Inbound, *, loaded: Any = None) -> tuple[TurnResult, Recorder | None]:
        """Run one turn; the recorder (if any) queues its transcript record once the turn committed."""

    def show(self, user: str, intent: str, result: Any, *, at: Any) -> None:
        """Make a result shown outside a turn (a reminder that fired) the focus of the user's next message."""


class UnrecordedTurns:
    """A :class:`TurnRunner` for an engine whose turns are not recorded (tests, benchmarks): it reads
    its own context."""

    store: PipelinedStore | None = None

    def __init__(self, engine: TurnHandler) -> None:
        self.engine = engine

    def handle_deferred(self, inbound: Inbound, *, loaded: Any = None) -> tuple[TurnResult, Recorder | None]:
        return self.engine.handle(inbound), None

    def show(self, user: str, intent: str, result: Any, *, at: Any) -> None:
        self.engine.show(user, intent, result, at=at)


@dataclass
class WorkerDeps:
    """Everything a drain job needs, built once per worker process by :mod:`bot.compose`."""

    redis: RedisClient
    turns: TurnRunner
    delivery: DeliveryService
    queue: Queue
    sql_engine: SQLEngine | None = None  # the business tables: a reminder push records its outcome there
    lease_ttl_ms: int = 3_000  # renewed every third of it while the user is drained (a dead worker's
    # users are picked up within seconds)
    typing_after_s: float = 3.0  # show "typing…" when a user's turn runs longer than this (0: never)
    drainer_budget_s: float = 10.0  # a drainer job hands over after this long (other jobs get a turn)
    drainer_idle_s: float = 0.5  # a drainer waits this long for more users before it retires
    lanes: int = 1  # users of one batch drained side by side on this many threads
    stats: StatsTally | None = None  # where the transcript gathers its global stats (flushed by flush_stats)
    # set when the process stops: a drainer finishes the turn in flight and hands the rest back
    stopping: threading.Event = field(default_factory=threading.Event)
    mailbox: Mailbox = field(init=False)
    leases: LeaseKeeper = field(init=False)
    _lane_pool: ThreadPoolExecutor | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.mailbox = Mailbox(self.redis)
        self.leases = LeaseKeeper(self.redis, self.lease_ttl_ms)

    def flush_stats(self) -> None:
        """Write the global stats gathered since the last flush (after a batch, after a job); a
        failure is logged and drops them: stats never fail a job."""
        if self.stats is not None and self.stats.pending:
            try:
                self.stats.flush(self.redis)
            except Exception as exc:
                log.warning("stats not written: %s", exc)

    def lane_pool(self) -> ThreadPoolExecutor:
        if self._lane_pool is None:
            self._lane_pool = ThreadPoolExecutor(max_workers=self.lanes, thread_name_prefix="wxbot-lane")
        return self._lane_pool


_SERVING: ContextVar[WorkerDeps] = ContextVar("wxbot_worker_deps")


@contextmanager
def serving(deps: WorkerDeps) -> Iterator[WorkerDeps]:
    """Run the jobs called inside this block with ``deps`` (the worker entry point wraps each job in it)."""
    token = _SERVING.set(deps)
    try:
        yield deps
    finally:
        _SERVING.reset(token)
        deps.flush_stats()


def current() -> WorkerDeps:
    """The dependencies of the job being run (see :func:`serving`)."""
    deps = _SERVING.get(None)
    if deps is None:
        raise RuntimeError("no WorkerDeps: a job runs inside bot.worker.serving(deps), which the worker sets")
    return deps
