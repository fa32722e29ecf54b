"""Queue depths read from Redis: RQ queues and registries, and the per-user mailboxes."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from runtime import keys as edge_keys

MAILBOX_SCAN_LIMIT = 1000


class QueueDepth(BaseModel):
    """One RQ queue: waiting jobs and the jobs in its registries."""

    model_config = ConfigDict(frozen=True)

    name: str
    queued: int
    started: int
    failed: int
    scheduled: int = 0


class QueueReport(BaseModel):
    """Every RQ queue that exists, plus how many mailboxes hold messages and how many messages."""

    model_config = ConfigDict(frozen=True)

    queues: list[QueueDepth] = Field(default_factory=list)
    mailboxes: int = 0
    mailbox_messages: int = 0


def queue_report(redis: Any) -> QueueReport:
    """Read the depths (a handful of commands; mailboxes are sampled up to ``MAILBOX_SCAN_LIMIT``)."""
    from rq import Queue

    depths = [
        QueueDepth(name=q.name, queued=q.count, started=q.started_job_registry.count,
                   failed=q.failed_job_registry.count, scheduled=q.scheduled_job_registry.count)
        for q in sorted(Queue.all(connection=redis), key=lambda q: q.name)
    ]
    users = redis.zrange(edge_keys.active_mailboxes(), 0, MAILBOX_SCAN_LIMIT - 1)
    pipe = redis.pipeline(transaction=False)
    for user in users:
        pipe.llen(edge_keys.mailbox(user.decode() if isinstance(user, bytes) else str(user)))
    lengths = [int(n) for n in pipe.execute()] if users else []
    return QueueReport(queues=depths, mailboxes=sum(1 for n in lengths if n), mailbox_messages=sum(lengths))
