"""RQ jobs that drain per-user mailboxes through the engine, and the worker class that runs them.

``drain_ready(token)`` is a drainer: it serves many users from the ready list (see
:mod:`bot.queue._drain`), so RQ's per-job cost is paid per batch, not per message.
``drain_user(user)`` takes the user's lease, handles the mailbox head first, pops it only when its
replies are delivered, renews the lease per message and releases it in the same script that finds
the mailbox empty (so a message appended while the lease was held is never stranded). A drainer
prepares its next users (claim, then first reads) in the round trips of the current one
(:mod:`bot.worker._ahead`). A turn's replies are
stored by message key before delivery (:mod:`bot.worker._turn`), so a job re-run after a crash
reuses them instead of running the engine again, and delivery marks each piece as sent: replies are
exactly-once.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from datetime import UTC, datetime
from typing import Any, TypeVar

from redis.exceptions import RedisError

from bot.delivery import LeaseLost
from bot.queue import DrainSchedule, Mailbox, enqueue_drainer
from bot.worker._ahead import Lookahead, lease_token
from bot.worker._context import WorkerDeps, current, serving
from bot.worker._piggyback import Piggyback
from bot.worker._turn import EntryRead, process_entry
from runtime import keys

log = logging.getLogger("bot.worker")  # the name it had as bot/worker.py
T = TypeVar("T")


def drain_user(user: str) -> int:
    """Handle every message in ``user``'s mailbox, in order, under the user's lease (none if another
    drainer holds it: never two at once; a stopping worker hands the rest back after the turn in
    flight). Returns how many were handled."""
    deps = current()
    handled = _drain_user(deps, user)
    if deps.stopping.is_set() and deps.redis.llen(keys.mailbox(user)):
        DrainSchedule(deps.redis).give_back([user])
    return handled


def _drain_user(deps: WorkerDeps, user: str, ahead: Lookahead | None = None) -> int:
    """:func:`drain_user`; with ``ahead`` (the rest of a drainer's batch) the user may come claimed
    and read already, and the next users' steps ride on this user's round trips."""
    handled = 0
    up = ahead.take(user) if ahead is not None else None
    while True:
        read = None
        if up is not None and up.claimed:
            token, head, read = up.token, up.head, up.read
        else:
            token = lease_token()
            pipe = deps.redis.pipeline(transaction=False)
            steps = ahead.board(pipe) if ahead is not None else []
            carrier: Any = Piggyback(deps.redis, pipe, own=len(pipe))
            since = time.monotonic()
            head = _carried(ahead, steps, carrier, Mailbox(carrier).claim, user, token, deps.lease_ttl_ms)
            if head is not None:
                deps.leases.hold(user, token, since)
        up = None
        if head is None:
            return handled
        try:
            count, finished = _drain_claimed(deps, user, token, head, read, ahead)
        except BaseException:
            with contextlib.suppress(Exception):
                deps.mailbox.release(user, token)
            raise
        finally:
            deps.leases.drop(user, token)
        handled += count
        if finished or deps.stopping.is_set():  # stopping: the caller hands the user back
            return handled


def _carried(ahead: Lookahead | None, steps: list[Any], carrier: Any, call: Callable[..., T], *args: Any) -> T:
    """Run ``call(*args)``, whose round trip also carries the lookahead's ``steps``: land their replies,
    or abandon them when the round trip fails (its claims may or may not have run)."""
    if ahead is None:
        return call(*args)
    since = time.monotonic()
    try:
        out = call(*args)
    except BaseException:
        ahead.abandon(steps)
        raise
    ahead.land(steps, carrier.replies, since)
    return out


def _drain_claimed(deps: WorkerDeps, user: str, token: str, entry: str, read: EntryRead | None,
                   ahead: Lookahead | None) -> tuple[int, bool]:
    """Drain from ``entry`` (the head, lease held; ``read``: its first reads, if done ahead);
    ``(handled, finished)`` — finished: lease released."""
    handled = 0
    fence = deps.leases.fence(user, token)
    while True:
        records = deps.redis.pipeline(transaction=False)  # the turn's delivery records ride on the pop
        steps = ahead.board(records) if ahead is not None else []  # first, so their replies come first
        own = len(records)
        try:
            process_entry(deps, entry, record_on=records, read=read, fence=fence)
        except RedisError:
            raise  # Redis is away: the message stays at the head; the sweeper re-drives the user
        except LeaseLost:  # another drainer has the user now and re-runs this message
            log.warning("lease for %s lost mid-turn; stopping", user)
            if ahead is not None:
                ahead.abandon(steps)
            return handled, False
        except Exception:  # a poison message must not block the user's mailbox forever
            log.exception("message of %s could not be handled; removed from the mailbox", user)
            deps.delivery.store.record(user, "poison", "drop", "failed")
        read = None
        carrier: Any = Piggyback(deps.redis, records, own=own)
        since = time.monotonic()
        status, nxt = _carried(ahead, steps, carrier, Mailbox(carrier).pop_next, user, entry, token,
                               deps.lease_ttl_ms)
        if status < 0:
            log.warning("lease for %s lost; stopping", user)
            return handled, False
        if status == 0:
            log.warning("mailbox head of %s changed under us; stopping", user)
            deps.mailbox.release(user, token)
            return handled, False
        handled += 1
        if nxt is None:
            return handled, True
        if deps.stopping.is_set():  # the turn in flight is done: hand the user back, lease released
            deps.mailbox.release(user, token)
            return handled, False
        deps.leases.hold(user, token, since)  # renewed by the pop
        entry = nxt


def _serve(deps: WorkerDeps, users: list[str]) -> int:
    """Drain ``users`` one after another (their next steps prepared ahead); a failure lets go of
    the claims taken ahead."""
    ahead = Lookahead(deps, users)
    handled = 0
    try:
        for i, user in enumerate(users):
            handled += _drain_user(deps, user, ahead)
            if deps.stopping.is_set():  # the worker stops: this user (if mail is left) and the ones not
                ahead.let_go()          # reached go back to the ready list, in order
                left = [user] if deps.redis.llen(keys.mailbox(user)) else []
                DrainSchedule(deps.redis).give_back(left + users[i + 1:])
                break
    except BaseException:
        ahead.let_go()
        raise
    return handled


def _serve_batch(deps: WorkerDeps, users: list[str]) -> int:
    """One batch from the ready list, split into ``deps.lanes`` lanes drained side by side: a turn
    spends most of its wall time waiting for Redis, so another user's turn runs meanwhile. Users are
    distinct and each is drained under its own lease, so per-user order is what it was."""
    lanes = [users[i::deps.lanes] for i in range(min(deps.lanes, len(users)))]
    if len(lanes) <= 1:
        return _serve(deps, users)
    pool = deps.lane_pool()
    futures = [pool.submit(_serve, deps, lane) for lane in lanes]
    wait(futures)  # every lane settles before the batch counts as served, failed or not
    return sum(f.result() for f in futures)  # re-raises the first lane's failure


def drain_ready(token: str) -> int:
    """RQ job: a drainer. Serve users from the ready list until it stayed empty for
    ``drainer_idle_s`` (then retire, atomically with a last emptiness check), the time budget is
    spent or the worker stops (then hand over to a fresh job: a stopping worker finishes the turns
    in flight and gives the rest of its batch back to the ready list first). Returns how many
    messages it handled."""
    deps = current()
    schedule = DrainSchedule(deps.redis)
    started = time.monotonic()
    handled = 0
    live: str | None = token
    try:
        while live is not None:
            if deps.stopping.is_set():  # the worker stops: a successor takes what is left
                break
            users = schedule.pop(live, retire=False)
            if not users:
                user = schedule.wait(deps.drainer_idle_s) if deps.drainer_idle_s > 0 else None
                users = [user] if user is not None else schedule.pop(live)
            if not users:
                live = None  # retired by the same script that found the list empty
                break
            handled += _serve_batch(deps, users)
            deps.flush_stats()  # the batch's counters: one write for all its records
            if time.monotonic() - started >= deps.drainer_budget_s:
                break
        if live is not None:  # the budget is spent, or the worker stops: hand over to a fresh job
            successor = schedule.handover(live)
            live = None
            if successor is not None:
                enqueue_drainer(deps.queue, successor)
    finally:
        if live is not None:  # failed midway: free the slot (the sweeper re-drives what was left)
            with contextlib.suppress(Exception):
                schedule.retire(live)
    return handled


def deliver_released(user: str, message_key: str, reply: str) -> None:
    """RQ job: a passive reply nobody took before the deadline goes out through the API (outside the
    user's lease, so it carries no parked text). Handed out again by the sweeper until it settles,
    so a job lost with a killed worker loses nothing; a re-run is deduped by the delivery's key."""
    current().delivery.deliver_late(user, message_key, reply)  # settled: the sweeper stops handing it out


def deliver_push(user: str, text: str, key: str, content: str = "", due: str = "") -> str:
    """RQ job (queued by the scheduler): deliver a reminder push through the delivery policy, record
    the outcome, and make the reminder the focus of what the user says next ("过十分钟再叫我").
    ``content`` and ``due`` are absent from jobs queued before they were added: no focus then."""
    from skills.reminders.schedule import DuePush, record_outcome

    deps = current()
    outcomes = deps.delivery.deliver(user, key, [text], passive=False, carry_parked=False)
    channel = str(outcomes[-1].channel) if outcomes else "drop"
    if deps.sql_engine is None:
        raise RuntimeError("a reminder push needs the business tables: WorkerDeps.sql_engine is unset")
    record_outcome(deps.sql_engine, key, channel)
    if content and channel != "drop":
        deps.turns.show(user, *DuePush(user, text, key, content, due).shown(), at=datetime.now(UTC))
    return channel


class InlineDispatcher:
    """Embedded mode: drain jobs run on a small thread pool inside the webhook process, each inside
    :func:`bot.worker.serving` with ``deps``."""

    def __init__(self, deps: WorkerDeps, *, threads: int = 4) -> None:
        self.deps = deps
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="wxbot-drain")

    def drain(self, user: str, *, force: bool = False) -> None:
        self.submit(drain_user, user)

    def released(self, user: str, message_key: str, reply: str) -> None:
        self.submit(deliver_released, user, message_key, reply)

    def submit(self, job: Callable[..., Any], *args: Any) -> Future[None]:
        """Run ``job(*args)`` on the pool, inside :func:`serving` with this dispatcher's deps (a
        failure is logged, as RQ records a failed job)."""
        return self._pool.submit(self._run, job, *args)

    def shutdown(self) -> None:
        """Wait for every job submitted."""
        self._pool.shutdown(wait=True)

    def stop(self) -> None:
        """The process stops: the turns in flight finish, jobs not started are dropped (embedded mode
        keeps its mailboxes in memory: nothing would run them after the process)."""
        self.deps.stopping.set()
        self._pool.shutdown(wait=True, cancel_futures=True)

    def _run(self, job: Callable[..., Any], *args: Any) -> None:
        try:
            with serving(self.deps):
                job(*args)
        except Exception:
            log.exception("embedded job %s failed", job.__name__)
