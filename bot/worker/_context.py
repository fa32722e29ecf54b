"""What every part of the worker shares: the engine contract and the per-process runtime.

A leaf of the worker package (it imports none of the worker's other modules), so the drain loop,
the turn and the lookahead all import it and never each other in a circle.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from rq import Queue
from sqlalchemy.engine import Engine as SQLEngine

from bot.delivery import DeliveryService
from bot.queue import Mailbox
from bot.redis_client import RedisClient
from bot.worker._lease import LeaseKeeper
from runtime.transcript import TurnHandler
from runtime.turn import Inbound, TurnResult

__all__ = ["EdgeRuntime", "PipelinedStore", "Recorder", "TurnEngine", "UnrecordedEngine",
           "current", "install"]

Recorder = Callable[[Any], None]  # queues a turn's transcript record on a pipeline


class PipelinedStore(Protocol):
    """A context store whose read can ride on someone else's pipeline."""

    def queue_load(self, pipe: Any, user: str) -> None:
        """Queue the read of ``user``'s context on ``pipe``."""

    def loaded(self, user: str, reply: Any) -> Any:
        """The context from the reply of that read."""


class TurnEngine(Protocol):
    """The worker's contract with the engine (:class:`runtime.transcript.TranscribedEngine` keeps it).

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


class UnrecordedEngine:
    """A :class:`TurnEngine` for an engine whose turns are not recorded (tests, benchmarks): it reads
    its own context."""

    store: PipelinedStore | None = None

    def __init__(self, engine: TurnHandler) -> None:
        self.engine = engine

    def handle_deferred(self, inbound: Inbound, *, loaded: Any = None) -> tuple[TurnResult, Recorder | None]:
        return self.engine.handle(inbound), None

    def show(self, user: str, intent: str, result: Any, *, at: Any) -> None:
        self.engine.show(user, intent, result, at=at)


@dataclass
class EdgeRuntime:
    """Everything a drain job needs, built once per worker process."""

    redis: RedisClient
    engine: TurnEngine
    delivery: DeliveryService
    queue: Queue
    lease_ttl_ms: int = 3_000  # renewed every third of it while the user is drained (a dead worker's
    # users are picked up within seconds)
    typing_after_s: float = 3.0  # show "typing…" when a user's turn runs longer than this (0: never)
    drainer_budget_s: float = 10.0  # a drainer job hands over after this long (other jobs get a turn)
    drainer_idle_s: float = 0.5  # a drainer waits this long for more users before it retires
    lanes: int = 1  # users of one batch drained side by side on this many threads
    database_url: str = ""  # the business tables: a reminder push records its outcome there
    sql: SQLEngine | None = None  # built from ``database_url`` on first use unless given
    mailbox: Mailbox = field(init=False)
    leases: LeaseKeeper = field(init=False)
    _lane_pool: ThreadPoolExecutor | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.mailbox = Mailbox(self.redis)
        self.leases = LeaseKeeper(self.redis, self.lease_ttl_ms)

    def lane_pool(self) -> ThreadPoolExecutor:
        if self._lane_pool is None:
            self._lane_pool = ThreadPoolExecutor(max_workers=self.lanes, thread_name_prefix="wxbot-lane")
        return self._lane_pool

    def sql_engine(self) -> SQLEngine:
        """The business tables' engine (reminder outcomes are recorded there)."""
        if self.sql is None:
            from skills.db import make_engine

            self.sql = make_engine(self.database_url)
        return self.sql


class _Installed:
    """The runtime the RQ jobs of this process use: RQ calls a job by its import path, with the
    job's arguments only, so a worker process installs its runtime once, at start-up."""

    runtime: EdgeRuntime | None = None


def install(runtime: EdgeRuntime) -> None:
    """Make ``runtime`` the one the jobs of this process use (called at worker start-up)."""
    _Installed.runtime = runtime


def current() -> EdgeRuntime:
    """The runtime :func:`install` made current."""
    if _Installed.runtime is None:
        raise RuntimeError("no EdgeRuntime installed in this worker process")
    return _Installed.runtime
