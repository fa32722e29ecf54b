"""The shared access_token: one token in Redis for every process, one refresher under a lock."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Protocol

from redis.exceptions import LockError

from bot import _webhook_keys as keys
from bot._webhook_redis import RedisClient, run_script
from bot.wechat.api import AccessToken
from bot.wechat.errors import WeChatUnavailable

EXPIRY_MARGIN_S = 300
MIN_TTL_S = 60

# Delete the token only if it is still the one WeChat rejected (another process may have refreshed).
_INVALIDATE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('SET', KEYS[2], ARGV[1], 'EX', 600)
return 1
"""


class TokenSource(Protocol):
    """Where API adapters get the access_token from."""

    def get(self) -> str:
        """Return a valid token, fetching one if needed."""

    def invalidate(self, stale: str) -> None:
        """Drop ``stale`` (WeChat rejected it) so that the next ``get`` refreshes."""


class AccessTokenService:
    """One access_token in Redis shared by all processes.

    ``get`` reads the cached token; on a miss exactly one process (holding a Redis lock) calls
    ``fetch``; the others wait on the lock and then read what it stored. The cached TTL is
    ``expires_in - 300`` s so the token is replaced before WeChat expires it.
    """

    def __init__(
        self,
        redis: RedisClient,
        fetch: Callable[[bool], AccessToken],
        *,
        app_id: str,
        lock_timeout_s: float = 15.0,
        wait_s: float = 15.0,
    ) -> None:
        self._redis = redis
        self._fetch = fetch
        self._key = keys.access_token(app_id)
        self._stale_key = keys.access_token_stale(app_id)
        self._lock_key = keys.access_token_lock(app_id)
        self._lock_timeout = lock_timeout_s
        self._wait = wait_s

    def get(self) -> str:
        cached = self._redis.get(self._key)
        if cached:
            return _text(cached)
        return self._refresh()

    def invalidate(self, stale: str) -> None:
        if stale:
            run_script(self._redis, _INVALIDATE, [self._key, self._stale_key], [stale])

    def _refresh(self) -> str:
        lock = self._redis.lock(self._lock_key, timeout=self._lock_timeout, blocking_timeout=self._wait)
        try:
            if not lock.acquire():
                raise WeChatUnavailable("access_token refresh lock not acquired")
        except LockError as exc:
            raise WeChatUnavailable("access_token refresh lock error") from exc
        try:
            cached = self._redis.get(self._key)
            if cached:
                return _text(cached)
            stale = self._redis.get(self._stale_key)
            token = self._fetch(bool(stale))
            ttl = max(MIN_TTL_S, token.expires_in - EXPIRY_MARGIN_S)
            pipe = self._redis.pipeline()
            pipe.set(self._key, token.token, ex=ttl)
            pipe.delete(self._stale_key)
            pipe.execute()
            return token.token
        finally:
            with contextlib.suppress(LockError):
                lock.release()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
