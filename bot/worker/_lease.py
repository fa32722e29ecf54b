"""The per-user leases a worker process holds, kept alive while their turns run.

A lease is taken with a short expiry (a few seconds) so that a dead worker's users are picked up
again within seconds. While the process lives, one thread renews every lease it holds each third of
that expiry (one round trip for all of them). A lease that was found taken, or that could not be
renewed in time (Redis away, the process starved), is lost: the turn under it sends nothing more
(:class:`bot.delivery.LeaseLost`) and the new holder re-runs the message.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.delivery import LeaseLost
from bot.queue import Mailbox
from bot.redis_client import RedisClient
from runtime import keys

log = logging.getLogger("bot._worker_lease")  # its name before the move: operators filter on it


@dataclass
class _Held:
    token: str
    valid_until: float  # monotonic: when the lease lapses at the latest, as far as we know
    lost: bool = False


@dataclass(frozen=True)
class UserFence:
    """The :class:`bot.delivery.Fence` of one user's lease held by a :class:`LeaseKeeper`."""

    keeper: LeaseKeeper
    user: str
    token: str

    @property
    def key(self) -> str:
        return keys.lease(self.user)

    def ensure(self) -> None:
        self.keeper.ensure(self.user, self.token)


class LeaseKeeper:
    """Renews the leases of this process every ``ttl_ms / 3`` on one daemon thread.

    ``since`` arguments are the monotonic time just before the command that took or renewed the
    lease was sent: the lease cannot lapse before ``since + ttl``.
    """

    def __init__(self, redis: RedisClient, ttl_ms: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._mailbox = Mailbox(redis)
        self.ttl_s = ttl_ms / 1000
        self._clock = clock
        self._held: dict[str, _Held] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None  # runs while leases are held

    def hold(self, user: str, token: str, since: float) -> None:
        """``token`` took ``user``'s lease (or renewed it) at ``since``."""
        with self._lock:
            self._held[user] = _Held(token, since + self.ttl_s)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="wxbot-leases", daemon=True)
                self._thread.start()

    def drop(self, user: str, token: str) -> None:
        """The lease was released (or lost): stop renewing it."""
        with self._lock:
            held = self._held.get(user)
            if held is not None and held.token == token:
                del self._held[user]

    def fence(self, user: str, token: str) -> UserFence:
        return UserFence(self, user, token)

    def ensure(self, user: str, token: str) -> None:
        """Raise :class:`LeaseLost` unless the lease is ours for at least a third of its expiry
        more; an old renewal is renewed at once first."""
        now = self._clock()
        with self._lock:
            held = self._held.get(user)
            if held is None or held.token != token or held.lost:
                raise LeaseLost(user)
            if now + self.ttl_s / 3 < held.valid_until:
                return
        try:
            ok = self._mailbox.renew([(user, token)], int(self.ttl_s * 1000))[0]
        except Exception as exc:  # Redis away: we cannot know, so we do not send
            raise LeaseLost(user) from exc
        self._settle([(user, token)], [ok], now)
        if not ok:
            raise LeaseLost(user)

    def _settle(self, leases: list[tuple[str, str]], results: list[bool], since: float) -> None:
        with self._lock:
            for (user, token), ok in zip(leases, results, strict=True):
                held = self._held.get(user)
                if held is None or held.token != token:
                    continue  # released (or taken again) meanwhile
                if ok:
                    held.valid_until = max(held.valid_until, since + self.ttl_s)
                else:
                    held.lost = True
                    log.warning("lease of %s lost", user)

    def _run(self) -> None:
        while True:
            time.sleep(self.ttl_s / 3)
            with self._lock:
                if not self._held:
                    self._thread = None  # the next hold starts a new one
                    return
                leases = [(u, h.token) for u, h in self._held.items() if not h.lost]
            if not leases:
                continue
            since = self._clock()
            try:
                results = self._mailbox.renew(leases, int(self.ttl_s * 1000))
            except Exception as exc:  # Redis away: the leases lapse on their own if it stays away
                log.warning("lease renewal failed: %s", type(exc).__name__)
                continue
            self._settle(leases, results, since)
