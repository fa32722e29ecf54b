"""``wxbot scheduler``: the leader-elected loop that fires due reminders and hands them to delivery.

Every tick (default 0.5 s) each scheduler process tries to hold the Redis leader lease; the one
that holds it claims due occurrences in SQL (a conditional update, so even two leaders during a
lease hand-over never push twice), hands each push to the injected sink, and re-offers pushes
claimed by a scheduler that died before delivery recorded them. Standbys just keep trying the
lease: when the leader dies its lease lapses after ``ttl`` and a standby takes over.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy.engine import Engine as SQLEngine

from bot.scheduler._lease import LeaderLease
from bot.scheduler.sinks import BatchPushSink, CollectingSink, DeliverySink, PushSink, RQPushSink
from skills.reminders.schedule import DuePush, fire_due, record_outcome, release, stale_enqueued

__all__ = ["CollectingSink", "DeliverySink", "LeaderLease", "PushSink", "RQPushSink", "Scheduler", "TickReport"]

log = logging.getLogger("bot.scheduler")  # the name it had as bot/scheduler.py


@dataclass(frozen=True)
class TickReport:
    """What one tick did."""

    leader: bool
    pushed: int = 0
    missed: int = 0
    skipped: int = 0
    redelivered: int = 0
    failed: int = 0


@dataclass
class Scheduler:
    """One scheduler process. ``clock`` returns an aware datetime; ``sink`` takes each push."""

    db: SQLEngine
    lease: LeaderLease
    sink: PushSink
    clock: Callable[[], datetime]
    tick_seconds: float = 0.5
    batch: int = 5000
    redeliver_after: timedelta = timedelta(minutes=2)
    name: str = field(default_factory=lambda: uuid.uuid4().hex[:8])
    _ticks: int = 0

    def tick(self) -> TickReport:
        """Hold or try the lease; as leader, fire everything due now. Never raises for a sink error."""
        if not self.lease.hold():
            return TickReport(leader=False)
        now = self.clock()
        pushed = failed = missed = skipped = 0
        while True:
            fired = fire_due(self.db, now, limit=self.batch)
            missed += fired.missed
            skipped += fired.skipped
            ok_count = self._hand_over_all(fired.pushes)
            pushed += ok_count
            failed += len(fired.pushes) - ok_count
            if len(fired.pushes) + fired.missed + fired.skipped < self.batch:
                break
            if not self.lease.hold():  # a long backlog: make sure we still lead before the next batch
                break
        redelivered = 0
        self._ticks += 1
        if self._ticks % 20 == 0:
            for push in stale_enqueued(self.db, now, self.redeliver_after):
                redelivered += self._hand_over(push)
        return TickReport(True, pushed, missed, skipped, redelivered, failed)

    def _hand_over_all(self, pushes: Sequence[DuePush]) -> int:
        """Hand a batch over: in one round trip when the sink can (a :class:`BatchPushSink`), else one by one."""
        if not isinstance(self.sink, BatchPushSink) or len(pushes) < 2:
            return sum(self._hand_over(p) for p in pushes)
        try:
            self.sink.many(list(pushes))
        except Exception:  # fall back to one by one: each push then succeeds or is released alone
            log.exception("scheduler %s: batch of %d failed; handing over one by one", self.name, len(pushes))
            return sum(self._hand_over(p) for p in pushes)
        return len(pushes)

    def _hand_over(self, push: DuePush) -> bool:
        try:
            channel = self.sink(push)
        except Exception:  # the sink is a port: any failure means "not handed over", retry next tick
            log.exception("scheduler %s: push %s failed; released for retry", self.name, push.key)
            release(self.db, push.key)
            return False
        if channel is not None:
            record_outcome(self.db, push.key, channel)
        return True

    def run(self, stop: threading.Event) -> None:
        """Tick until ``stop`` is set; then give the lease up so a standby takes over at once."""
        try:
            while not stop.is_set():
                try:
                    self.tick()
                except Exception:  # Redis or SQL blip: log, wait a tick, try again
                    log.exception("scheduler %s: tick failed", self.name)
                stop.wait(self.tick_seconds)
        finally:
            try:
                self.lease.release()
            except Exception:  # pragma: no cover - Redis gone at shutdown
                log.warning("scheduler %s: could not release the lease", self.name)
