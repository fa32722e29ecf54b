"""The worker process: RQ jobs that drain per-user mailboxes through the engine and deliver the
replies, and the worker that runs them.

A job finds its dependencies in the :class:`WorkerDeps` of the worker running it (:func:`serving`,
:func:`current`); :mod:`bot.compose` builds both. The job paths RQ stores in Redis name this package:
``bot.worker.drain_ready``, ``bot.worker.drain_user``, ``bot.worker.deliver_released``,
``bot.worker.deliver_push`` (older names: :mod:`bot.upgrade`).
"""

from bot.worker._context import (
    PipelinedStore,
    Recorder,
    TurnRunner,
    UnrecordedTurns,
    WorkerDeps,
    current,
    serving,
)
from bot.worker._lease import LeaseKeeper
from bot.worker._piggyback import Queued
from bot.worker._rq_worker import EdgeWorker
from bot.worker._turn import EntryRead, process_entry
from bot.worker.jobs import (
    InlineDispatcher,
    deliver_push,
    deliver_released,
    drain_ready,
    drain_user,
)

__all__ = [
    "EdgeWorker", "EntryRead", "InlineDispatcher", "LeaseKeeper", "Queued", "PipelinedStore", "Recorder", "TurnRunner", "UnrecordedTurns", "WorkerDeps",
    "current", "deliver_push", "deliver_released", "drain_ready", "drain_user", "process_entry", "serving",
]
