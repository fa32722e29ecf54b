"""The worker process: RQ jobs that drain per-user mailboxes through the engine and deliver the
replies, and the worker that runs them.

The job paths RQ stores in Redis name this package: ``bot.worker.drain_ready``,
``bot.worker.drain_user``, ``bot.worker.deliver_released``, ``bot.worker.deliver_push``.
"""

from bot.worker._context import (
    EdgeRuntime,
    PipelinedStore,
    Recorder,
    TurnEngine,
    UnrecordedEngine,
    current,
    install,
)
from bot.worker._turn import process_entry
from bot.worker.jobs import (
    EdgeWorker,
    InlineDispatcher,
    deliver_push,
    deliver_released,
    drain_ready,
    drain_user,
)

__all__ = [
    "EdgeRuntime", "EdgeWorker", "InlineDispatcher", "PipelinedStore", "Recorder", "TurnEngine",
    "UnrecordedEngine", "current", "deliver_push", "deliver_released", "drain_ready", "drain_user", "install",
    "process_entry",
]
