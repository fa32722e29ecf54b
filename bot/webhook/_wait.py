"""Wake webhook requests waiting for a passive reply as soon as a worker publishes that it is ready.

The hand-off state stays in Redis (the only source of truth); the notification only says "look now".
A request registers before its first look, so a notification can never fall between the look and
the wait. Notifications are lost only with the subscription: :class:`SubscribedNotifier` counts its
subscriptions (``generation``) and wakes every waiting request when one drops and when the next one
is up, so a request that looked while the same subscription held re-checks only every 2 s (for a
notification lost without the connection noticing, e.g. a partition) — one more script call per
0.5 s of wait before, so a webhook's Redis calls per turn grew with how long its requests waited.
:class:`ThreadedNotifier` cannot tell when redis-py re-subscribes: its waiters re-check periodically.
Two transports: :class:`SubscribedNotifier` reads the subscription on the event loop itself (a
``redis://`` server); :class:`ThreadedNotifier` uses redis-py's pub/sub thread (any client).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Any

import hiredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

from bot.redis_client import RedisClient, text
from bot.webhook._resp import RedisAddress, read_replies
from runtime import keys

log = logging.getLogger("bot._webhook_wait")  # its name before the move: operators filter on it


class ReplyNotifier:
    """One subscription per webhook process; waiters are keyed ``user|message_key``."""

    def __init__(self) -> None:
        self._waiters: dict[str, set[asyncio.Event]] = {}

    @property
    def running(self) -> bool:
        """True while notifications arrive (otherwise waiting requests poll)."""
        return False

    @property
    def generation(self) -> int | None:
        """Which subscription is up (it changes whenever one drops or a new one starts); None when
        this notifier cannot tell (a waiting request then re-checks periodically)."""
        return None

    def start(self, loop: asyncio.AbstractEventLoop) -> bool:
        return False

    def stop(self) -> None:
        return None

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

    def _wake(self, member: str) -> None:
        for event in self._waiters.get(member, ()):
            event.set()

    def _wake_all(self) -> None:
        for waiters in self._waiters.values():
            for event in waiters:
                event.set()


class SubscribedNotifier(ReplyNotifier):
    """The subscription read by a task on the event loop; reconnects after a pause when it drops."""

    def __init__(self, address: RedisAddress, retry_s: float = 0.5) -> None:
        super().__init__()
        self._address, self._retry_s = address, retry_s
        self._task: asyncio.Task[None] | None = None
        self._subscribed = False
        self._generation = 0

    @property
    def running(self) -> bool:
        return self._subscribed

    @property
    def generation(self) -> int | None:
        return self._generation

    def _changed(self, subscribed: bool) -> None:
        """A subscription started or dropped: every waiting request looks again (a notification
        published in between reached nobody)."""
        self._subscribed = subscribed
        self._generation += 1
        self._wake_all()

    def start(self, loop: asyncio.AbstractEventLoop) -> bool:
        self._task = loop.create_task(self._listen())
        return True

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
        if self._subscribed:
            self._changed(False)

    async def _listen(self) -> None:
        channel = keys.replies_channel().encode()
        while True:
            writer = None
            try:
                reader, writer = await self._address.open()
                parser = hiredis.Reader(protocolError=RedisConnectionError)
                subscribe: tuple[Any, ...] = ("SUBSCRIBE", channel)
                writer.write(hiredis.pack_command(subscribe))
                await read_replies(reader, parser, 1)
                self._changed(True)
                while True:
                    for message in await read_replies(reader, parser, 1):
                        if isinstance(message, list) and len(message) == 3 and message[0] == b"message":
                            self._wake(text(message[2]))
            except (OSError, RedisError) as exc:
                if self._subscribed:
                    log.warning("reply notifications interrupted: %s", type(exc).__name__)
            finally:
                if self._subscribed:
                    self._changed(False)
                if writer is not None:
                    writer.close()
            await asyncio.sleep(self._retry_s)


class ThreadedNotifier(ReplyNotifier):
    """redis-py's pub/sub thread hands each notification to the event loop."""

    POLL_S = 0.2  # a stop waits this long at most (it was a second: every webhook stop paid it)

    def __init__(self, redis: RedisClient) -> None:
        super().__init__()
        self._redis = redis
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
            # each read waits at most POLL_S: stopping joins the thread, which ends after its read
            self._thread = self._pubsub.run_in_thread(sleep_time=self.POLL_S, daemon=True,
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

    def _on_message(self, message: dict[str, Any]) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake, text(message.get("data")))

    def _on_error(self, exc: BaseException, pubsub: Any, thread: threading.Thread) -> None:
        log.warning("reply notifications interrupted: %s", type(exc).__name__)
        time.sleep(0.5)  # the thread goes on; redis-py re-subscribes when it reconnects
