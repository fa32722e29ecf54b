"""The webhook's Redis calls from the event loop: one port, two adapters.

:class:`PipelinedScripts` keeps one connection to a Redis server and pipelines every call made in
the same event-loop tick into one write; replies come back in order and resolve their futures. It
costs no thread hop and, under load, one system call per batch instead of per request — the
webhook's ack path is CPU-bound on this Python loop, and a blocking client on a thread pool spent
~0.15 ms per call in thread hand-offs and GIL switches. redis-py's asyncio client takes a pooled
connection per command and does not pipeline across concurrent callers, so this small client
speaks RESP through ``hiredis`` (its C reader and command packer) directly.

:class:`ThreadedScripts` runs the same calls through a blocking client (the embedded in-process
Redis substitute, or TLS URLs) on a thread pool.

Errors: a lost connection fails every call in flight with :class:`redis.exceptions.ConnectionError`
(the caller answers 503 and WeChat retries; every script here is idempotent per message key);
the next call reconnects.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, TypeVar
from urllib.parse import urlparse

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError

from bot.redis_client import Call, RedisClient, RedisTarget, run_script, script_sha
from bot.webhook._resp import PipelinedConnection, RedisAddress
from bot.webhook._sentinel import SentinelAddress
from bot.webhook._wait import ReplyNotifier, SubscribedNotifier, ThreadedNotifier

T = TypeVar("T")

__all__ = ["Call", "PipelinedScripts", "ScriptRunner", "ThreadedScripts", "script_runner"]


class ScriptRunner(Protocol):
    """Run :class:`Call` s from the event loop; raises :class:`redis.exceptions.RedisError`."""

    async def run(self, call: Call) -> Any: ...

    async def off_loop(self, fn: Callable[..., T], *args: Any) -> T: ...

    def notifier(self) -> ReplyNotifier:
        """The reply notifier that fits this runner (pub/sub on the same server)."""
        ...

    def close(self) -> None: ...


class ThreadedScripts:
    """Blocking client on a thread pool (any redis-py compatible client, fakeredis included)."""

    def __init__(self, redis: RedisClient, threads: int = 32) -> None:
        self._redis = redis
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="wxbot-webhook")

    async def run(self, call: Call) -> Any:
        return await self.off_loop(run_script, self._redis, call.script, call.keys, call.args)

    async def off_loop(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    def notifier(self) -> ReplyNotifier:
        return ThreadedNotifier(self._redis)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


class PipelinedScripts:
    """Pipelined scripts over one connection to ``redis://`` / ``unix://`` ``url`` (no TLS), or to the
    master of a :class:`~bot.webhook._sentinel.SentinelAddress`.

    ``wait_replicas``: a call succeeds only once that many replicas hold its writes — at most as many
    as the master has attached (``ROLE``, read at most a second ago): right after a fail-over the
    promoted master is alone, and refusing every message until a replica is back would lose what
    WeChat gives up retrying. One ``WAIT`` per loop tick covers every call of the tick; fewer
    confirmations within ``wait_timeout_ms`` raise ``ConnectionError``, so the webhook answers 503
    and WeChat retries (every script is idempotent)."""

    def __init__(self, url: str | RedisAddress, *, connect_timeout_s: float = 2.0, stall_s: float = 3.0,
                 fallback: ThreadedScripts, wait_replicas: int = 0, wait_timeout_ms: int = 500) -> None:
        self.address = url if isinstance(url, RedisAddress) else RedisAddress.from_url(url, connect_timeout_s)
        self._stall_s = stall_s
        self._wait = (wait_replicas, wait_timeout_ms)
        self._attached = 0  # replicas of the master, from its last ROLE
        self._role_at = -1.0
        self._fallback = fallback
        self._conn: PipelinedConnection | None = None
        self._connecting: asyncio.Future[PipelinedConnection] | None = None

    async def _connection(self) -> PipelinedConnection:
        conn = self._conn
        if conn is not None and conn.broken is None:
            return conn
        if self._connecting is None:  # one connect for everybody waiting
            self._connecting = asyncio.ensure_future(self._connect())
        try:
            return await asyncio.shield(self._connecting)
        finally:
            if self._connecting is not None and self._connecting.done():
                self._connecting = None

    async def _connect(self) -> PipelinedConnection:
        conn = await self.address.connect(self._stall_s)
        if self._wait[0] > 0:
            self._on_role(await conn.send(("ROLE",)))
        self._conn = conn
        return conn

    def _on_role(self, role: Any) -> None:
        self._role_at = asyncio.get_running_loop().time()
        if isinstance(role, list) and len(role) == 3 and role[0] == b"master":
            self._attached = len(role[2])

    async def run(self, call: Call) -> Any:
        conn = self._conn
        if conn is None or conn.broken is not None:
            conn = await self._connection()
        reply, barrier = await self._send(conn, ("EVALSHA", script_sha(call.script), len(call.keys), *call.keys,
                                                 *call.args))
        if isinstance(reply, ResponseError) and str(reply).startswith("NOSCRIPT"):
            conn = await self._connection()
            reply, barrier = await self._send(conn, ("EVAL", call.script, len(call.keys), *call.keys, *call.args))
        if isinstance(reply, ResponseError):
            if str(reply).startswith("READONLY"):  # the master became a replica: find the new one
                conn.fail(RedisConnectionError("the server is a replica now"))
                raise RedisConnectionError(f"not the master any more: {reply}")
            raise reply
        if barrier is not None:
            wanted, confirmed = barrier
            if int(await confirmed) < wanted:
                raise RedisConnectionError(f"fewer than {wanted} replicas confirmed the write within "
                                           f"{self._wait[1]} ms")
        return reply

    async def _send(self, conn: PipelinedConnection, command: tuple[Any, ...]) -> tuple[Any, Any]:
        if self._wait[0] > 0 and asyncio.get_running_loop().time() - self._role_at >= 1.0:
            self._role_at = asyncio.get_running_loop().time()  # the master's replicas, once a second
            self._on_role(await conn.send(("ROLE",)))
        reply = conn.send(command)
        wanted = min(self._wait[0], self._attached)
        barrier = (wanted, conn.replicated(wanted, self._wait[1])) if wanted > 0 else None
        return await reply, barrier

    async def off_loop(self, fn: Callable[..., T], *args: Any) -> T:
        return await self._fallback.off_loop(fn, *args)

    def notifier(self) -> ReplyNotifier:
        return SubscribedNotifier(self.address)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.fail(RedisConnectionError("closed"))
        self._fallback.close()


def script_runner(redis: RedisClient, target: RedisTarget | str | None, threads: int = 32) -> ScriptRunner:
    """Pipelined on a plain ``redis://``/``unix://`` URL or through Sentinel; threaded otherwise (no
    server: the embedded substitute; TLS)."""
    threaded = ThreadedScripts(redis, threads)
    if isinstance(target, str) or target is None:
        target = RedisTarget(url=target or "")
    wait = {"wait_replicas": target.wait_replicas, "wait_timeout_ms": target.wait_timeout_ms}
    if target.uses_sentinel:
        return PipelinedScripts(SentinelAddress.of(target), fallback=threaded, **wait)
    if target.url and urlparse(target.url).scheme in ("redis", "unix"):
        return PipelinedScripts(target.url, fallback=threaded, **wait)
    return threaded
