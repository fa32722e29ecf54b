"""The shared access_token: one token in Redis for every process, one refresher under a fenced lock.

The refresh lock has a short expiry that its holder renews while it fetches: a holder that died, or
a lock left over in Redis's append-only file by a crash, stands in the way for a few seconds at
most. The holder stores the token only while the lock is still its own (a fenced write), and
everybody else waits a bounded time, reading the token as soon as it is there; past the bound the
call fails as :class:`~bot.wechat.errors.WeChatUnavailable` (nothing was sent: the turn degrades).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from typing import Protocol

from bot.redis_client import RedisClient, run_script
from bot.wechat.api import AccessToken
from bot.wechat.errors import WeChatUnavailable
from runtime import keys

EXPIRY_MARGIN_S = 300
MIN_TTL_S = 60

# Delete the token only if it is still the one WeChat rejected (another process may have refreshed).
_INVALIDATE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('SET', KEYS[2], ARGV[1], 'EX', 600)
return 1
"""
# KEYS: lock; ARGV: holder, ttl ms
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""
_UNLOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
# The fenced write: store the fetched token only while the lock is the writer's.
# KEYS: lock, token, stale; ARGV: holder, token, ttl s
_STORE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
redis.call('DEL', KEYS[3])
return 1
"""


class TokenUnavailable(WeChatUnavailable):
    """No access_token could be had (the lock waited on too long, the token endpoint failed): the call
    that needed it was never made."""


class TokenSource(Protocol):
    """Where API adapters get the access_token from."""

    def get(self) -> str:
        """Return a valid token, fetching one if needed."""

    def invalidate(self, stale: str) -> None:
        """Drop ``stale`` (WeChat rejected it) so that the next ``get`` refreshes."""


class AccessTokenService:
    """One access_token in Redis shared by all processes.

    ``get`` reads the cached token; on a miss exactly one process (holding the refresh lock) calls
    ``fetch``; the others poll for the token (or the lock) for at most ``wait_s``. The cached TTL is
    ``expires_in - 300`` s so the token is replaced before WeChat expires it.
    """

    def __init__(
        self,
        redis: RedisClient,
        fetch: Callable[[bool], AccessToken],
        *,
        app_id: str,
        lock_ttl_s: float = 3.0,
        wait_s: float = 8.0,
        poll_s: float = 0.05,
    ) -> None:
        self._redis = redis
        self._fetch = fetch
        self._key = keys.access_token(app_id)
        self._stale_key = keys.access_token_stale(app_id)
        self._lock_key = keys.access_token_lock(app_id)
        self._lock_ttl_ms = int(lock_ttl_s * 1000)
        self._wait = wait_s
        self._poll = poll_s

    def get(self) -> str:
        cached = self._redis.get(self._key)
        if cached:
            return _text(cached)
        return self._refresh()

    def invalidate(self, stale: str) -> None:
        if stale:
            run_script(self._redis, _INVALIDATE, [self._key, self._stale_key], [stale])

    def _refresh(self) -> str:
        holder = f"{os.getpid()}:{os.urandom(8).hex()}"
        deadline = time.monotonic() + self._wait
        while not self._redis.set(self._lock_key, holder, nx=True, px=self._lock_ttl_ms):
            if time.monotonic() >= deadline:
                raise TokenUnavailable("access_token refresh lock not acquired")
            time.sleep(self._poll)
            cached = self._redis.get(self._key)
            if cached:  # the holder stored it
                return _text(cached)
        keeper = _LockKeeper(self._redis, self._lock_key, holder, self._lock_ttl_ms)
        keeper.start()
        try:
            cached = self._redis.get(self._key)
            if cached:
                return _text(cached)
            stale = self._redis.get(self._stale_key)
            try:
                token = self._fetch(bool(stale))
            except WeChatUnavailable as exc:
                raise TokenUnavailable(f"access_token fetch failed: {exc.message}", status=exc.status) from exc
            ttl = max(MIN_TTL_S, token.expires_in - EXPIRY_MARGIN_S)
            # a holder that lost the lock (it lapsed while we were cut off) does not overwrite whatever
            # the next holder stored; the token it fetched is still good for its own call
            run_script(self._redis, _STORE, [self._lock_key, self._key, self._stale_key], [holder, token.token, ttl])
            return token.token
        finally:
            keeper.stop()
            with contextlib.suppress(Exception):
                run_script(self._redis, _UNLOCK, [self._lock_key], [holder])


class _LockKeeper(threading.Thread):
    """Renews the refresh lock every third of its expiry while its holder fetches."""

    def __init__(self, redis: RedisClient, key: str, holder: str, ttl_ms: int) -> None:
        super().__init__(daemon=True, name="wxbot-token-lock")
        self._redis, self._key, self._holder, self._ttl_ms = redis, key, holder, ttl_ms
        self._done = threading.Event()

    def run(self) -> None:
        while not self._done.wait(self._ttl_ms / 3000):
            try:
                if not int(run_script(self._redis, _RENEW, [self._key], [self._holder, self._ttl_ms])):
                    return  # lost: the fenced write will refuse
            except Exception:  # Redis away: the lock lapses on its own
                return

    def stop(self) -> None:
        self._done.set()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
