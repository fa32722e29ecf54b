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
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, TypeVar
from urllib.parse import unquote, urlparse

import hiredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError, ResponseError

from bot._webhook_redis import Call, RedisClient, run_script, script_sha

T = TypeVar("T")

__all__ = ["Call", "PipelinedScripts", "ScriptRunner", "ThreadedScripts", "script_runner"]


class ScriptRunner(Protocol):
    """Run :class:`Call` s from the event loop; raises :class:`redis.exceptions.RedisError`."""

    async def run(self, call: Call) -> Any: ...

    async def off_loop(self, fn: Callable[..., T], *args: Any) -> T: ...

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

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


class _Conn:
    """One RESP connection: writes are coalesced per loop tick, replies resolve futures in order."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, stall_s: float) -> None:
        self.reader, self.writer = reader, writer
        self.parser = hiredis.Reader(replyError=ResponseError)
        self.waiting: deque[asyncio.Future[Any]] = deque()
        self.buffer: list[bytes] = []
        self.broken: BaseException | None = None
        self.replies = 0
        self.task = asyncio.get_running_loop().create_task(self._read())
        self._stall_s = stall_s
        asyncio.get_running_loop().call_later(stall_s, self._watch, -1)

    def _watch(self, seen: int) -> None:
        """A server that stops answering (not closing) fails the calls waiting on it."""
        if self.broken is not None:
            return
        if self.waiting and self.replies == seen:
            self.fail(TimeoutError(f"no reply from Redis for {self._stall_s} s"))
            return
        asyncio.get_running_loop().call_later(self._stall_s, self._watch, self.replies)

    def send(self, command: tuple[Any, ...]) -> asyncio.Future[Any]:
        if self.broken is not None:
            raise RedisConnectionError(f"connection lost: {self.broken!r}")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        if not self.buffer:
            asyncio.get_running_loop().call_soon(self._flush)
        self.buffer.append(hiredis.pack_command(command))
        self.waiting.append(future)
        return future

    def _flush(self) -> None:
        if self.buffer and self.broken is None:
            self.writer.write(b"".join(self.buffer))
        self.buffer.clear()

    async def _read(self) -> None:
        try:
            while True:
                data = await self.reader.read(65536)
                if not data:
                    raise RedisConnectionError("connection closed by server")
                self.parser.feed(data)
                reply = self.parser.gets()
                while reply is not False:
                    self.replies += 1
                    future = self.waiting.popleft()
                    if not future.done():
                        future.set_result(reply)
                    reply = self.parser.gets()
        except (OSError, RedisError, IndexError, asyncio.CancelledError) as exc:
            self.fail(exc)

    def fail(self, exc: BaseException) -> None:
        if self.broken is None:
            self.broken = exc
        while self.waiting:
            future = self.waiting.popleft()
            if not future.done():
                future.set_exception(RedisConnectionError(f"connection lost: {exc!r}"))
        self.writer.close()


class PipelinedScripts:
    """Pipelined scripts over one connection to ``redis://`` / ``unix://`` ``url`` (no TLS)."""

    def __init__(self, url: str, *, connect_timeout_s: float = 2.0, stall_s: float = 3.0,
                 fallback: ThreadedScripts) -> None:
        parts = urlparse(url)
        self._unix = parts.path if parts.scheme == "unix" else ""
        self._host, self._port = parts.hostname or "127.0.0.1", parts.port or 6379
        self._password = unquote(parts.password) if parts.password else None
        self._username = unquote(parts.username) if parts.username else None
        path_db = parts.path.strip("/") if parts.scheme != "unix" else ""
        query_db = dict(p.split("=", 1) for p in parts.query.split("&") if "=" in p).get("db", "")
        self._db = int(path_db or query_db or 0)
        self._timeout, self._stall_s = connect_timeout_s, stall_s
        self._fallback = fallback
        self._conn: _Conn | None = None
        self._connecting: asyncio.Future[_Conn] | None = None

    async def _connection(self) -> _Conn:
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

    async def _connect(self) -> _Conn:
        try:
            if self._unix:
                opened = asyncio.open_unix_connection(self._unix)
            else:
                opened = asyncio.open_connection(self._host, self._port)
            reader, writer = await asyncio.wait_for(opened, self._timeout)
        except (OSError, TimeoutError) as exc:
            raise RedisConnectionError(f"cannot connect to Redis: {exc!r}") from exc
        conn = _Conn(reader, writer, self._stall_s)
        hello: list[tuple[Any, ...]] = []
        if self._password is not None:
            hello.append(("AUTH", self._username, self._password) if self._username else ("AUTH", self._password))
        if self._db:
            hello.append(("SELECT", self._db))
        for command in hello:
            reply = await asyncio.wait_for(conn.send(command), self._timeout)
            if isinstance(reply, ResponseError):
                conn.fail(reply)
                raise RedisConnectionError(f"Redis refused the connection set-up: {reply}")
        self._conn = conn
        return conn

    async def run(self, call: Call) -> Any:
        sha = script_sha(call.script)
        reply = await (await self._connection()).send(("EVALSHA", sha, len(call.keys), *call.keys, *call.args))
        if isinstance(reply, ResponseError) and str(reply).startswith("NOSCRIPT"):
            reply = await (await self._connection()).send(("EVAL", call.script, len(call.keys), *call.keys,
                                                           *call.args))
        if isinstance(reply, ResponseError):
            raise reply
        return reply

    async def off_loop(self, fn: Callable[..., T], *args: Any) -> T:
        return await self._fallback.off_loop(fn, *args)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.task.cancel()
            self._conn.fail(RedisConnectionError("closed"))
        self._fallback.close()


def script_runner(redis: RedisClient, url: str | None, threads: int = 32) -> ScriptRunner:
    """Pipelined on a plain ``redis://``/``unix://`` ``url``; threaded otherwise (no URL, TLS)."""
    threaded = ThreadedScripts(redis, threads)
    if url and urlparse(url).scheme in ("redis", "unix"):
        return PipelinedScripts(url, fallback=threaded)
    return threaded
