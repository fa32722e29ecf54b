"""Wake webhook requests waiting for a passive reply as soon as a worker publishes that it is ready.

The hand-off state stays in Redis (the only source of truth); the notification only says "look now".
A request registers before its first look, so a notification can never fall between the look and
the wait; a lost notification (a dropped subscription) costs at most one ``fallback_s`` of delay.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Any

from bot import _webhook_keys as keys
from bot._webhook_redis import RedisClient, text

log = logging.getLogger(__name__)


class ReplyNotifier:
    """One subscription per webhook process; waiters are keyed ``user|message_key``."""

    def __init__(self, redis: RedisClient) -> None:
        self._redis = redis
        self._waiters: dict[str, set[asyncio.Event]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: Any = None
        self._pubsub: Any = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, loop: asyncio.AbstractEventLoop) -> bool:
        """Subscribe (from the event loop's thread); False when pub/sub is unavailable (then poll)."""
        self._loop = loop
        try:
            self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            self._pubsub.subscribe(**{keys.replies_channel(): self._on_message})
            self._thread = self._pubsub.run_in_thread(sleep_time=1.0, daemon=True,
                                                      exception_handler=self._on_error)
        except Exception as exc:  # Redis away at start-up: requests poll until the next start
            log.warning("reply notifications unavailable: %s", type(exc).__name__)
            self._thread = None
            return False
        return True

    def stop(self) -> None:
        if self._thread is not None:
            self._thread.stop()
            self._thread = None
        if self._pubsub is not None:
            try:
                self._pubsub.close()
            except Exception:
                log.debug("pubsub close failed", exc_info=True)

    def register(self, member: str) -> asyncio.Event:
        event = asyncio.Event()
        self._waiters.setdefault(member, set()).add(event)
        return event

    def unregister(self, member: str, event: asyncio.Event) -> None:
        waiters = self._waiters.get(member)
        if waiters is not None:
            waiters.discard(event)
            if not waiters:
                del self._waiters[member]

    def _on_message(self, message: dict[str, Any]) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake, text(message.get("data")))

    def _wake(self, member: str) -> None:
        for event in self._waiters.get(member, ()):
            event.set()

    def _on_error(self, exc: BaseException, pubsub: Any, thread: threading.Thread) -> None:
        log.warning("reply notifications interrupted: %s", type(exc).__name__)
        time.sleep(0.5)  # the thread goes on; redis-py re-subscribes when it reconnects
