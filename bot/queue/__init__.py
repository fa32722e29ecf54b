"""The queue between the webhook and the workers: per-user mailboxes in Redis, the ready list the
drainer jobs serve, the RQ queue and its job names, the recovery sweeps and the queue depths."""

from bot.queue._drain import DrainSchedule
from bot.queue.depths import QueueDepth, QueueReport, queue_report
from bot.queue.mailbox import (
    DRAIN_JOB,
    DRAINER_JOB,
    PUSH_JOB,
    QUEUE_NAME,
    RELEASED_JOB,
    Admitted,
    Dispatcher,
    Mailbox,
    RQDispatcher,
    admit_call,
    admitted,
    enqueue_drainer,
    enqueue_released,
    make_queue,
)
from bot.queue.sweeper import SweeperThread, sweep_once

__all__ = [
    "DRAINER_JOB", "DRAIN_JOB", "PUSH_JOB", "QUEUE_NAME", "RELEASED_JOB", "Admitted", "Dispatcher",
    "DrainSchedule", "Mailbox", "QueueDepth", "QueueReport", "RQDispatcher", "SweeperThread", "admit_call",
    "admitted", "enqueue_drainer", "enqueue_released", "make_queue", "queue_report", "sweep_once",
]
