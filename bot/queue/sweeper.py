"""Recovery sweeps: release passive hand-offs past their deadline and re-drive stalled mailboxes.

Run by every webhook and worker process; a short Redis lock makes one pass at a time do the work.
"""

from __future__ import annotations

import logging
import threading
import time

from bot.delivery.handoff import Handoff
from bot.queue import Dispatcher, Mailbox
from bot.redis_client import RedisClient
from runtime import keys

log = logging.getLogger("bot._worker_sweeper")  # its name before the move: operators filter on it
SWEEP_LOCK = keys.sweep_lock()


def sweep_once(redis: RedisClient, dispatch: Dispatcher, *, now: float | None = None, idle_s: float = 1.0) -> int:
    """One pass; returns how many jobs it enqueued."""
    now = time.time() if now is None else now
    if not redis.set(SWEEP_LOCK, "1", nx=True, px=500):
        return 0
    handoff, mailbox = Handoff(redis), Mailbox(redis)
    enqueued = 0
    for user, message_key in handoff.due(now):
        state, reply = handoff.release_late(user, message_key, now)
        if state == "released_ready" and reply:
            dispatch.released(user, message_key, reply)
            enqueued += 1
    for i, user in enumerate(mailbox.stalled(now - idle_s)):
        dispatch.drain(user, force=i == 0)  # one extra drainer per pass, whatever the cap says
        redis.zadd(keys.active_mailboxes(), {user: now}, xx=True)
        enqueued += 1
    return enqueued


class SweeperThread(threading.Thread):
    """Call :func:`sweep_once` every ``interval_s`` until ``stop()``."""

    def __init__(self, redis: RedisClient, dispatch: Dispatcher, *, interval_s: float = 1.0, idle_s: float = 1.0):
        super().__init__(daemon=True, name="wxbot-sweeper")
        self._redis, self._dispatch = redis, dispatch
        self._interval, self._idle = interval_s, idle_s
        self._stop_event = threading.Event()

    def run(self) -> None:
        while not self._stop_event.wait(self._interval):
            try:
                sweep_once(self._redis, self._dispatch, idle_s=self._idle)
            except Exception:  # a Redis blip must not kill the sweeper
                log.exception("sweep failed")

    def stop(self) -> None:
        self._stop_event.set()
