"""One mailbox entry through the engine: triage, the turn, its commit and its delivery (idempotent by
message key: a re-run after a crash reuses the stored replies and never sends a piece twice)."""

from __future__ import annotations

import json
import logging
import threading
import time
from typing import Any

from bot.delivery import Fence, TurnDelivery
from bot.redis_client import text
from bot.wechat.errors import WeChatAPIError
from bot.wechat.inbound import Kind, Triage, WeChatMessage, triage
from bot.wechat.texts import TURN_FAILED
from bot.worker._context import Recorder, WorkerDeps
from runtime import keys
from runtime.store import ContextConflict, PendingSave, RedisContextStore

log = logging.getLogger("bot.worker")  # the worker's records, as operators know them
DONE_TTL_S = 86400


class EntryRead:
    """The first round trip of an entry: its stored outcome, the windows the user's message opens
    (harmless to repeat on a re-run: it is what a crash between the two used to do anyway) and the
    turn's context read (the lease keeps it current). It can ride in an earlier round trip of the
    drainer's (:meth:`queue`, then :meth:`take`), or run on its own (:meth:`run`). ``delivery``: the
    delivery of the entry's replies, the turn's one handle on delivery."""

    def __init__(self, rt: WorkerDeps, entry: str) -> None:
        self.entry = entry
        self.msg = WeChatMessage.from_json(entry)
        self.decision = triage(self.msg)
        self.store = rt.turns.store if self.decision.inbound is not None else None
        self.delivery = rt.delivery.for_turn(self.msg.user, self.msg.message_key)
        self._rt = rt
        self.replies: list[Any] | None = None  # the queued commands' replies, once they ran

    def queue(self, pipe: Any) -> int:
        """Queue the reads (and window writes) on ``pipe``; returns how many commands."""
        msg, before = self.msg, len(pipe)
        pipe.get(keys.turn_done(msg.user, msg.message_key))
        self.delivery.queue_opened(pipe, float(msg.create_time or time.time()), wrote=self.decision.user_message,
                                   interacted=self.decision.interaction)
        if self.store is not None:
            self.store.queue_load(pipe, msg.user)
        return len(pipe) - before

    def take(self, replies: list[Any]) -> bool:
        """Keep the replies of the queued commands; False (nothing kept) if one is an error."""
        if any(isinstance(r, Exception) for r in replies):
            return False
        self.replies = replies
        return True

    def run(self) -> None:
        pipe = self._rt.redis.pipeline(transaction=False)
        self.queue(pipe)
        self.replies = pipe.execute()


def process_entry(rt: WorkerDeps, entry: str, *, record_on: Any = None, read: EntryRead | None = None,
                  fence: Fence | None = None) -> list[str]:
    """Handle one mailbox entry (idempotent by message key) and deliver its replies.

    ``fence``: the user's lease the entry is handled under (nothing is sent once it is lost).

    ``record_on``: a pipeline the caller executes next; the delivery's transcript records are queued
    on it (when the delivery service keeps a transcript) instead of costing a round trip here.
    ``read``: the entry's first round trip, done earlier (riding on one of the caller's).
    """
    if read is None or read.entry != entry or read.replies is None:
        read = EntryRead(rt, entry)
        read.run()
    assert read.replies is not None
    msg, decision, store, results, delivery = read.msg, read.decision, read.store, read.replies, read.delivery
    key = msg.message_key
    done_key = keys.turn_done(msg.user, key)
    done = results[0]
    committed = None  # the commit's replies (the delivery's start rode on it)
    if done is not None:
        replies: list[str] = json.loads(text(done))
    else:
        loaded = store.loaded(msg.user, results[-1]) if store is not None else None
        held = None
        if record_on is not None and isinstance(store, RedisContextStore):
            with store.deferring() as deferral:  # the turn's save rides on the commit's round trip
                replies, record = _turn(rt, delivery, msg, decision, loaded)
            held = deferral.pending
        else:
            replies, record = _turn(rt, delivery, msg, decision, loaded)
        if held is not None and isinstance(store, RedisContextStore):
            try:
                committed = _commit_saving(rt, delivery, done_key, replies, record, store, held, record_on)
            except ContextConflict as exc:  # another writer (a push's focus) got there first: run it again
                log.info("turn of %s met a newer context (%s); running it again", key, exc)
                replies, record = _turn(rt, delivery, msg, decision)
                committed = _commit(rt, delivery, done_key, replies, record)
        else:
            committed = _commit(rt, delivery, done_key, replies, record)
    delivery.complete(replies, committed, fence=fence, record_on=record_on)  # none: a waiting webhook answers now
    return replies


def _commit(rt: WorkerDeps, delivery: TurnDelivery, done_key: str, replies: list[str],
            record: Recorder | None) -> list[Any]:
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
    delivery.queue_start(pipe, replies)
    results = pipe.execute(raise_on_error=False)
    if isinstance(results[0], Exception):
        raise results[0]
    if any(isinstance(r, Exception) for r in results[1:recorded]):
        log.warning("transcript turn record failed for %s", delivery.message_key)
    return results


def _commit_saving(rt: WorkerDeps, delivery: TurnDelivery, done_key: str, replies: list[str],
                   record: Recorder | None, store: RedisContextStore, held: PendingSave, record_on: Any) -> list[Any]:
    """:func:`_commit` with the turn's context save in the same round trip: the save (compare-and-set)
    and the done marker are one step, and the start of the delivery happens only if the marker is
    there. On a lost compare-and-set nothing of the turn is written (:class:`ContextConflict`). The
    turn's transcript record goes on ``record_on``, the caller's next round trip (only a stored turn
    is recorded)."""
    pipe = rt.redis.pipeline(transaction=False)
    store.queue_save(pipe, held, then_set=(done_key, json.dumps(replies, ensure_ascii=False), DONE_TTL_S))
    delivery.queue_start(pipe, replies, saved_by=done_key)
    results = pipe.execute(raise_on_error=False)
    store.saved(held, results[0])
    if record is not None:
        try:
            record(record_on)
        except Exception as exc:  # observability must not break the conversation
            log.warning("transcript turn record failed: %s", type(exc).__name__)
    return results


def _turn(rt: WorkerDeps, delivery: TurnDelivery, msg: WeChatMessage, decision: Triage,
          loaded: Any = None) -> tuple[list[str], Recorder | None]:
    """The turn's replies, and (engines that defer their transcript record) what queues the record."""
    if msg.kind is Kind.EVENT:
        delivery.record_event((msg.event or "").lower(), msg.extra)
    if decision.reply is not None:
        return [decision.reply], None
    if decision.inbound is None:
        return [], None
    timer = _typing_timer(rt, delivery) if decision.user_message else None
    try:
        result, record = rt.turns.handle_deferred(decision.inbound, loaded=loaded)
        return [r for r in result.replies if r], record
    except Exception:  # the turn degrades to a fixed answer; the message is not retried forever
        log.exception("engine failed for %s", msg.message_key)
        return [TURN_FAILED], None
    finally:
        if timer is not None:
            timer.cancel()


def _typing_timer(rt: WorkerDeps, delivery: TurnDelivery) -> threading.Timer | None:
    """Send "typing…" once if the turn is slow (allowed: the user just wrote, the window is open)."""
    if rt.typing_after_s <= 0:
        return None

    def show() -> None:
        try:
            delivery.typing()
        except WeChatAPIError as exc:
            log.info("typing for %s refused: %s", delivery.user, exc.code)

    timer = threading.Timer(rt.typing_after_s, show)
    timer.daemon = True
    timer.start()
    return timer
