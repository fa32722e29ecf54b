"""RQ jobs that drain per-user mailboxes through the engine, and the worker class that runs them.

``drain_ready(token)`` is a drainer: it serves many users from the ready list (see
:mod:`bot._worker_drain`), so RQ's per-job cost is paid per batch, not per message.
``drain_user(user)`` takes the user's lease, handles the mailbox head first, pops it only when its
replies are delivered, renews the lease per message and releases it in the same script that finds
the mailbox empty (so a message appended while the lease was held is never stranded). A turn's replies are stored by
message key before delivery, so a job re-run after a crash reuses them instead of running the
engine again, and delivery marks each piece as sent: replies are exactly-once.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from redis.exceptions import RedisError
from rq import Queue, SimpleWorker

from bot import _webhook_keys as keys
from bot._delivery_transcript import TranscribedDelivery
from bot._webhook_redis import RedisClient, text
from bot._worker_drain import DrainSchedule
from bot._worker_inbound import Triage, triage
from bot._worker_piggyback import Piggyback
from bot._worker_texts import TURN_FAILED
from bot.delivery import DeliveryService
from bot.delivery.service import Started
from bot.queue import Mailbox, enqueue_drainer
from bot.wechat.errors import WeChatAPIError
from bot.wechat.inbound import Kind, WeChatMessage
from runtime.turn import Inbound, TurnResult

log = logging.getLogger(__name__)
DONE_TTL_S = 86400
Recorder = Callable[[Any], None]  # queues a turn's transcript record on a pipeline


class TurnEngine(Protocol):
    """What the worker needs from ``runtime.engine.Engine``."""

    def handle(self, inbound: Inbound) -> TurnResult:
        """Run one turn."""


@dataclass
class EdgeRuntime:
    """Everything a drain job needs, built once per worker process."""

    redis: RedisClient
    engine: TurnEngine
    delivery: DeliveryService
    queue: Queue
    lease_ttl_ms: int = 60_000
    typing_after_s: float = 3.0  # show "typing…" when a user's turn runs longer than this (0: never)
    drainer_budget_s: float = 10.0  # a drainer job hands over after this long (other jobs get a turn)
    drainer_idle_s: float = 0.5  # a drainer waits this long for more users before it retires
    mailbox: Mailbox = field(init=False)

    def __post_init__(self) -> None:
        self.mailbox = Mailbox(self.redis)


_runtime: EdgeRuntime | None = None


def install(runtime: EdgeRuntime) -> None:
    """Make ``runtime`` the one the jobs of this process use (called at worker start-up)."""
    global _runtime
    _runtime = runtime


def current() -> EdgeRuntime:
    if _runtime is None:
        raise RuntimeError("no EdgeRuntime installed in this worker process")
    return _runtime


def drain_user(user: str) -> int:
    """Handle every message in ``user``'s mailbox, in order, under the user's lease (none if another
    drainer holds it: never two at once). Returns how many were handled."""
    rt = current()
    handled = 0
    while True:
        token = f"{os.getpid()}:{uuid.uuid4().hex[:12]}"  # the pid helps operators (and tests) see who
        head = rt.mailbox.claim(user, token, rt.lease_ttl_ms)
        if head is None:
            return handled
        try:
            count, finished = _drain_claimed(rt, user, token, head)
        except BaseException:
            with contextlib.suppress(Exception):
                rt.mailbox.release(user, token)
            raise
        handled += count
        if finished:
            return handled


def _drain_claimed(rt: EdgeRuntime, user: str, token: str, entry: str) -> tuple[int, bool]:
    """Drain from ``entry`` (the head, lease held); ``(handled, finished)`` — finished: lease released."""
    handled = 0
    while True:
        records = rt.redis.pipeline(transaction=False)  # the turn's delivery records ride on the pop
        try:
            process_entry(rt, entry, record_on=records)
        except RedisError:
            raise  # Redis is away: the message stays at the head; the sweeper re-drives the user
        except Exception:  # a poison message must not block the user's mailbox forever
            log.exception("message of %s could not be handled; removed from the mailbox", user)
            rt.delivery.store.record(user, "poison", "drop", "failed")
        carrier: Any = Piggyback(rt.redis, records)
        status, nxt = Mailbox(carrier).pop_next(user, entry, token, rt.lease_ttl_ms)
        if status < 0:
            log.warning("lease for %s lost; stopping", user)
            return handled, False
        if status == 0:
            log.warning("mailbox head of %s changed under us; stopping", user)
            rt.mailbox.release(user, token)
            return handled, False
        handled += 1
        if nxt is None:
            return handled, True
        entry = nxt


def drain_ready(token: str) -> int:
    """RQ job: a drainer. Serve users from the ready list until it stayed empty for
    ``drainer_idle_s`` (then retire, atomically with a last emptiness check) or the time budget is
    spent (then hand over to a fresh job). Returns how many messages it handled."""
    rt = current()
    schedule = DrainSchedule(rt.redis)
    started = time.monotonic()
    handled = 0
    live: str | None = token
    try:
        while live is not None:
            users = schedule.pop(live, retire=False)
            if not users:
                user = schedule.wait(rt.drainer_idle_s) if rt.drainer_idle_s > 0 else None
                users = [user] if user is not None else schedule.pop(live)
            if not users:
                live = None  # retired by the same script that found the list empty
                break
            for user in users:
                handled += drain_user(user)
            if time.monotonic() - started >= rt.drainer_budget_s:
                successor = schedule.handover(live)
                live = None
                if successor is not None:
                    enqueue_drainer(rt.queue, successor)
    finally:
        if live is not None:  # failed midway: free the slot (the sweeper re-drives what was left)
            with contextlib.suppress(Exception):
                schedule.retire(live)
    return handled


def process_entry(rt: EdgeRuntime, entry: str, *, record_on: Any = None) -> list[str]:
    """Handle one mailbox entry (idempotent by message key) and deliver its replies.

    ``record_on``: a pipeline the caller executes next; the delivery's transcript records are queued
    on it (when the delivery service keeps a transcript) instead of costing a round trip here.
    """
    msg = WeChatMessage.from_json(entry)
    key = msg.message_key
    done_key = keys.turn_done(msg.user, key)
    decision = triage(msg)
    # One round trip: the stored outcome, and the window the user's message opens (harmless to
    # repeat on a re-run: it is what a crash between the two used to do anyway).
    pipe = rt.redis.pipeline(transaction=False)
    pipe.get(done_key)
    at = float(msg.create_time or time.time())
    if decision.user_message:
        rt.delivery.store.on_user_message(msg.user, at, pipeline=pipe)
    if decision.interaction:
        rt.delivery.store.on_interaction(msg.user, at, pipeline=pipe)
    store = _pipelined_store(rt) if decision.inbound is not None else None
    if store is not None:  # the turn's context read rides along (the lease keeps it current)
        store.queue_load(pipe, msg.user)
    results = pipe.execute()
    done = results[0]
    started: Started | None = None
    if done is not None:
        replies: list[str] = json.loads(text(done))
    else:
        loaded = store.loaded(msg.user, results[-1]) if store is not None else None
        replies, record = _turn(rt, msg, decision, loaded)
        started = _commit(rt, msg, done_key, replies, record)
    if replies:
        if record_on is not None and isinstance(rt.delivery, TranscribedDelivery):
            rt.delivery.deliver(msg.user, key, replies, started=started, record_on=record_on)
        else:
            rt.delivery.deliver(msg.user, key, replies, started=started)
    else:
        rt.delivery.handoff.release(msg.user, key)  # nothing to say: let a waiting webhook answer now
    return replies


def _commit(rt: EdgeRuntime, msg: WeChatMessage, done_key: str, replies: list[str],
            record: Recorder | None) -> Started | None:
    """One round trip after the turn committed: the done marker, the turn's transcript record and,
    when there are replies, the start of their delivery (after the marker is written): the passive
    piece handed to the waiting webhook, or the delivery's snapshot of the user."""
    pipe = rt.redis.pipeline(transaction=False)
    pipe.set(done_key, json.dumps(replies, ensure_ascii=False), ex=DONE_TTL_S)
    if record is not None:
        try:
            record(pipe)
        except Exception as exc:  # observability must not break the conversation
            log.warning("transcript turn record failed: %s", type(exc).__name__)
    recorded = len(pipe)
    start = rt.delivery.queue_start(pipe, msg.user, msg.message_key, replies) if replies else None
    results = pipe.execute(raise_on_error=False)
    if isinstance(results[0], Exception):
        raise results[0]
    if any(isinstance(r, Exception) for r in results[1:recorded]):
        log.warning("transcript turn record failed for %s", msg.message_key)
    return start.read(results[start.index:]) if start is not None else None


def _pipelined_store(rt: EdgeRuntime) -> Any:
    """The engine's context store when the engine takes a pre-read context and the store can queue
    its read on a pipeline; else None."""
    if getattr(rt.engine, "handle_deferred", None) is None:
        return None
    store = getattr(rt.engine, "store", None)
    return store if hasattr(store, "queue_load") and hasattr(store, "loaded") else None


def _turn(rt: EdgeRuntime, msg: WeChatMessage, decision: Triage,
          loaded: Any = None) -> tuple[list[str], Recorder | None]:
    """The turn's replies, and (engines that defer their transcript record) what queues the record."""
    if msg.kind is Kind.EVENT:
        _record_event(rt, msg)
    if decision.reply is not None:
        return [decision.reply], None
    if decision.inbound is None:
        return [], None
    timer = _typing_timer(rt, msg.user) if decision.user_message else None
    try:
        deferred = getattr(rt.engine, "handle_deferred", None)
        if deferred is not None:
            result, record = deferred(decision.inbound) if loaded is None else deferred(decision.inbound,
                                                                                        loaded=loaded)
        else:
            result, record = rt.engine.handle(decision.inbound), None
        return [r for r in result.replies if r], record
    except Exception:  # the turn degrades to a fixed answer; the message is not retried forever
        log.exception("engine failed for %s", msg.message_key)
        return [TURN_FAILED], None
    finally:
        if timer is not None:
            timer.cancel()


def _typing_timer(rt: EdgeRuntime, user: str) -> threading.Timer | None:
    """Send "typing…" once if the turn is slow (allowed: the user just wrote, the window is open)."""
    if rt.typing_after_s <= 0:
        return None

    def show() -> None:
        try:
            rt.delivery.api.typing(user)
        except WeChatAPIError as exc:
            log.info("typing for %s refused: %s", user, exc.code)

    timer = threading.Timer(rt.typing_after_s, show)
    timer.daemon = True
    timer.start()
    return timer


def _record_event(rt: EdgeRuntime, msg: WeChatMessage) -> None:
    store = rt.delivery.store
    event = (msg.event or "").lower()
    if event == "unsubscribe":
        store.set_flag(msg.user, "unsubscribed")
        store.record(msg.user, msg.message_key, "event", "unsubscribed")
    elif event == "subscribe":
        store.set_flag(msg.user, "unsubscribed", on=False)
        store.set_flag(msg.user, "refused", on=False)
    elif event == "templatesendjobfinish":
        msgid = msg.extra.get("MsgID", "")
        status = msg.extra.get("Status", "")
        store.record(msg.user, store.template_message_key(msg.user, msgid) or f"tmpl:{msgid}", "template",
                     "delivered" if status == "success" else f"undelivered:{status}")


def deliver_released(user: str, message_key: str, reply: str) -> None:
    """RQ job: a passive reply nobody took before the deadline goes out through the API."""
    current().delivery.deliver(user, f"{message_key}:late", [reply], passive=False)


class EdgeWorker(SimpleWorker):
    """A non-forking RQ worker: jobs run in the worker process (no ~10 ms fork per job), with the
    process's :class:`EdgeRuntime` installed. Per-user leases, not forking, keep users isolated."""

    def __init__(self, *args: Any, runtime: EdgeRuntime, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        install(runtime)


class InlineDispatcher:
    """Embedded mode: drain jobs run on a small thread pool inside the webhook process."""

    def __init__(self, runtime: EdgeRuntime, *, threads: int = 4) -> None:
        from concurrent.futures import ThreadPoolExecutor

        install(runtime)
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="wxbot-drain")

    def drain(self, user: str, *, force: bool = False) -> None:
        self._pool.submit(_logged, drain_user, user)

    def released(self, user: str, message_key: str, reply: str) -> None:
        self._pool.submit(_logged, deliver_released, user, message_key, reply)

    def shutdown(self) -> None:
        self._pool.shutdown(wait=True)


def _logged(fn: Any, *args: Any) -> None:
    try:
        fn(*args)
    except Exception:
        log.exception("embedded job %s failed", getattr(fn, "__name__", fn))
