"""Where the scheduler hands a due push: an injectable sink.

A sink receives each claimed :class:`DuePush` once (and again only if the scheduler died before
the delivery receipt, which is why every sink must be idempotent on ``push.key``). It returns the
channel when it delivered synchronously, or None when it queued the push for someone else.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from sqlalchemy.engine import Engine as SQLEngine

from bot.queue import PUSH_JOB
from skills.reminders.schedule import DuePush, record_outcome

__all__ = ["BatchPushSink", "CollectingSink", "DeliverySink", "PushSink", "RQPushSink"]

log = logging.getLogger("bot._scheduler_sinks")  # the name operators know


class PushSink(Protocol):
    """Takes one due push; returns the channel if delivered now, None if queued."""

    def __call__(self, push: DuePush) -> str | None: ...


@runtime_checkable
class BatchPushSink(PushSink, Protocol):
    """A sink that also takes a batch in one round trip (the scheduler prefers it for a backlog)."""

    def many(self, pushes: list[DuePush]) -> None: ...


class CollectingSink:
    """Keeps pushes in memory (tests, script mode); thread-safe; dedupes by key like delivery does."""

    def __init__(self) -> None:
        self.pushes: list[DuePush] = []
        self._seen: set[str] = set()
        self._lock = threading.Lock()

    def __call__(self, push: DuePush) -> str | None:
        with self._lock:
            if push.key not in self._seen:
                self._seen.add(push.key)
                self.pushes.append(push)
        return "collected"


class DeliverySink:
    """Delivers in the scheduler process through :class:`bot.delivery.DeliveryService` and records it."""

    def __init__(self, delivery: Any, sql: SQLEngine, shown: Callable[[DuePush], None] | None = None) -> None:
        self._delivery = delivery
        self._sql = sql
        self._shown = shown  # makes a delivered push the focus of the user's next message

    def __call__(self, push: DuePush) -> str | None:
        outcomes = self._delivery.deliver(push.user, push.key, [push.text], passive=False, carry_parked=False)
        channel = str(outcomes[-1].channel) if outcomes else "drop"
        record_outcome(self._sql, push.key, channel)
        if self._shown is not None and channel != "drop":
            self._shown(push)
        return channel


class RQPushSink:
    """Queues an RQ job per push (:data:`bot.queue.PUSH_JOB`) on the workers' queue; the job id is the push key."""

    def __init__(self, queue: Any) -> None:
        self._queue = queue

    def __call__(self, push: DuePush) -> str | None:
        job_id = push.key.replace(":", "-")
        self._queue.enqueue(PUSH_JOB, push.user, push.text, push.key, push.content, push.due, job_id=job_id,
                            result_ttl=3600, failure_ttl=86_400)
        return None

    def many(self, pushes: list[DuePush], chunk: int = 1000) -> None:
        """Enqueue a batch in pipelined chunks (one round trip per chunk instead of per push)."""
        for start in range(0, len(pushes), chunk):
            datas = [self._queue.prepare_data(PUSH_JOB, (p.user, p.text, p.key, p.content, p.due),
                                              job_id=p.key.replace(":", "-"), result_ttl=3600,
                                              failure_ttl=86_400)
                     for p in pushes[start:start + chunk]]
            with self._queue.connection.pipeline() as pipe:
                self._queue.enqueue_many(datas, pipeline=pipe)
                pipe.execute()
