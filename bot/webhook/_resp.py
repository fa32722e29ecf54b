"""A minimal RESP client on asyncio for the webhook's hot path (``hiredis`` packs and parses).

:class:`RedisAddress` is where and how to connect (``redis://`` or ``unix://`` URL: host, port,
user, password, DB) and performs the set-up (AUTH, SELECT); :class:`PipelinedConnection` pipelines
commands: every command sent in one event-loop tick goes out in one write, replies resolve their
futures in order. Failures are :class:`redis.exceptions.ConnectionError`, as with redis-py.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

import hiredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError, ResponseError

__all__ = ["PipelinedConnection", "RedisAddress", "read_replies"]


@dataclass(frozen=True)
class RedisAddress:
    """Where the server is and how to log in; ``timeout_s`` bounds connecting and the set-up."""

    host: str = "127.0.0.1"
    port: int = 6379
    unix_path: str = ""
    username: str | None = None
    password: str | None = None
    db: int = 0
    timeout_s: float = 2.0

    @classmethod
    def from_url(cls, url: str, timeout_s: float = 2.0) -> RedisAddress:
        parts = urlparse(url)
        unix = parts.scheme == "unix"
        db = (parse_qs(parts.query).get("db") or [""])[0] or ("" if unix else parts.path.strip("/"))
        return cls(host=parts.hostname or "127.0.0.1", port=parts.port or 6379,
                   unix_path=parts.path if unix else "",
                   username=unquote(parts.username) if parts.username else None,
                   password=unquote(parts.password) if parts.password else None,
                   db=int(db or 0), timeout_s=timeout_s)

    def _hello(self) -> list[tuple[Any, ...]]:
        hello: list[tuple[Any, ...]] = []
        if self.password is not None:
            hello.append(("AUTH", self.username, self.password) if self.username else ("AUTH", self.password))
        if self.db:
            hello.append(("SELECT", self.db))
        return hello

    async def open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """A stream connection that is logged in and on the right DB (the notifier's)."""
        try:
            if self.unix_path:
                opened = asyncio.open_unix_connection(self.unix_path)
            else:
                opened = asyncio.open_connection(self.host, self.port)
            reader, writer = await asyncio.wait_for(opened, self.timeout_s)
        except (OSError, TimeoutError) as exc:
            raise RedisConnectionError(f"cannot connect to Redis: {exc!r}") from exc
        hello = self._hello()
        if hello:
            writer.write(b"".join(hiredis.pack_command(c) for c in hello))
            try:
                parser = hiredis.Reader(protocolError=RedisConnectionError)
                replies = await asyncio.wait_for(read_replies(reader, parser, len(hello)), self.timeout_s)
            except (OSError, TimeoutError, RedisError) as exc:
                writer.close()
                raise RedisConnectionError(f"Redis connection set-up failed: {exc!r}") from exc
            _check_hello(replies, writer.close)
        return reader, writer

    async def connect(self, stall_s: float) -> PipelinedConnection:
        """A pipelined connection that is logged in and on the right DB (the scripts')."""
        loop = asyncio.get_running_loop()
        try:
            if self.unix_path:
                made = loop.create_unix_connection(lambda: PipelinedConnection(stall_s), self.unix_path)
            else:
                made = loop.create_connection(lambda: PipelinedConnection(stall_s), self.host, self.port)
            _, conn = await asyncio.wait_for(made, self.timeout_s)
        except (OSError, TimeoutError) as exc:
            raise RedisConnectionError(f"cannot connect to Redis: {exc!r}") from exc
        hello = self._hello()
        if hello:
            try:
                replies = await asyncio.wait_for(asyncio.gather(*(conn.send(c) for c in hello)), self.timeout_s)
            except (OSError, TimeoutError, RedisError) as exc:
                conn.fail(exc)
                raise RedisConnectionError(f"Redis connection set-up failed: {exc!r}") from exc
            _check_hello(replies, lambda: conn.fail(RedisConnectionError("set-up refused")))
        return conn


def _check_hello(replies: list[Any], close: Any) -> None:
    refused = [r for r in replies if isinstance(r, Exception)]
    if refused:
        close()
        raise RedisConnectionError(f"Redis refused the connection set-up: {refused[0]}")


async def read_replies(reader: asyncio.StreamReader, parser: Any, n: int) -> list[Any]:
    """Read exactly ``n`` replies (error replies are returned as values)."""
    out: list[Any] = []
    while len(out) < n:
        reply = parser.gets()
        if reply is not False:
            out.append(reply)
            continue
        data = await reader.read(65536)
        if not data:
            raise RedisConnectionError("connection closed by server")
        parser.feed(data)
    return out


class PipelinedConnection(asyncio.Protocol):
    """One RESP connection: writes are coalesced per loop tick, replies resolve futures in order.

    A protocol, not streams: replies are parsed in ``data_received`` as they arrive, without a
    reader task to wake and a stream buffer to copy through (both per batch of replies)."""

    def __init__(self, stall_s: float) -> None:
        self.parser = hiredis.Reader(protocolError=RedisConnectionError, replyError=ResponseError)
        self.waiting: deque[asyncio.Future[Any]] = deque()
        self.buffer: list[bytes] = []
        self.broken: BaseException | None = None
        self.transport: asyncio.Transport | None = None
        self._loop = asyncio.get_running_loop()
        self.progress = 0.0  # loop time of the last reply, or of a send to an idle connection
        self._stall_s = stall_s
        self._barrier: asyncio.Future[Any] | None = None
        self._barrier_command: tuple[Any, ...] = ()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self._loop.call_later(self._stall_s / 2, self._watch)

    def _watch(self) -> None:
        """A server that stops answering (not closing) fails the calls waiting on it."""
        if self.broken is not None:
            return
        if self.waiting and self._loop.time() - self.progress >= self._stall_s:
            self.fail(TimeoutError(f"no reply from Redis for {self._stall_s} s"))
            return
        self._loop.call_later(self._stall_s / 2, self._watch)

    def send(self, command: tuple[Any, ...]) -> asyncio.Future[Any]:
        if self.broken is not None:
            raise RedisConnectionError(f"connection lost: {self.broken!r}")
        future: asyncio.Future[Any] = self._loop.create_future()
        if not self.waiting:
            self.progress = self._loop.time()
        if not self.buffer:
            self._loop.call_soon(self._flush)
        self.buffer.append(hiredis.pack_command(command))
        self.waiting.append(future)
        return future

    def replicated(self, replicas: int, timeout_ms: int) -> asyncio.Future[Any]:
        """The number of replicas holding every write sent so far: one ``WAIT`` that follows all the
        commands of this loop tick (call it right after :meth:`send`, before awaiting)."""
        if self.broken is not None:
            raise RedisConnectionError(f"connection lost: {self.broken!r}")
        if self._barrier is None:
            self._barrier = self._loop.create_future()
            self._barrier.add_done_callback(_retrieved)
            self._barrier_command = ("WAIT", replicas, timeout_ms)
            if not self.buffer:
                self._loop.call_soon(self._flush)
        return self._barrier

    def _flush(self) -> None:
        if self._barrier is not None:
            self.buffer.append(hiredis.pack_command(self._barrier_command))
            self.waiting.append(self._barrier)
            self._barrier = None
        if self.buffer and self.broken is None and self.transport is not None:
            self.transport.write(b"".join(self.buffer))
        self.buffer.clear()

    def data_received(self, data: bytes) -> None:
        self.progress = self._loop.time()
        try:
            self.parser.feed(data)
            reply = self.parser.gets()
            while reply is not False:
                future = self.waiting.popleft()
                if not future.done():
                    future.set_result(reply)
                reply = self.parser.gets()
        except (RedisError, IndexError) as exc:  # garbage, or a reply nobody asked for
            self.fail(exc)

    def eof_received(self) -> bool:
        self.fail(RedisConnectionError("connection closed by server"))
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.fail(exc or RedisConnectionError("connection closed by server"))

    def fail(self, exc: BaseException) -> None:
        if self.broken is None:
            self.broken = exc
        if self._barrier is not None:
            self.waiting.append(self._barrier)
            self._barrier = None
        while self.waiting:
            future = self.waiting.popleft()
            if not future.done():
                future.set_exception(RedisConnectionError(f"connection lost: {exc!r}"))
        if self.transport is not None:
            self.transport.close()


def _retrieved(future: asyncio.Future[Any]) -> None:
    """A barrier nobody awaited (its call failed first) must not be logged as an unretrieved error."""
    if not future.cancelled():
        future.exception()
