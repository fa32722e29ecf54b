"""A minimal RESP client on asyncio streams for the webhook's hot path (``hiredis`` packs and parses).

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

    async def open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """A connection that is logged in and on the right DB."""
        try:
            if self.unix_path:
                opened = asyncio.open_unix_connection(self.unix_path)
            else:
                opened = asyncio.open_connection(self.host, self.port)
            reader, writer = await asyncio.wait_for(opened, self.timeout_s)
        except (OSError, TimeoutError) as exc:
            raise RedisConnectionError(f"cannot connect to Redis: {exc!r}") from exc
        hello: list[tuple[Any, ...]] = []
        if self.password is not None:
            hello.append(("AUTH", self.username, self.password) if self.username else ("AUTH", self.password))
        if self.db:
            hello.append(("SELECT", self.db))
        if hello:
            writer.write(b"".join(hiredis.pack_command(c) for c in hello))
            try:
                parser = hiredis.Reader(protocolError=RedisConnectionError)
                replies = await asyncio.wait_for(read_replies(reader, parser, len(hello)), self.timeout_s)
            except (OSError, TimeoutError, RedisError) as exc:
                writer.close()
                raise RedisConnectionError(f"Redis connection set-up failed: {exc!r}") from exc
            refused = [r for r in replies if isinstance(r, Exception)]
            if refused:
                writer.close()
                raise RedisConnectionError(f"Redis refused the connection set-up: {refused[0]}")
        return reader, writer


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


class PipelinedConnection:
    """One RESP connection: writes are coalesced per loop tick, replies resolve futures in order."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, stall_s: float) -> None:
        self.reader, self.writer = reader, writer
        self.parser = hiredis.Reader(protocolError=RedisConnectionError, replyError=ResponseError)
        self.waiting: deque[asyncio.Future[Any]] = deque()
        self.buffer: list[bytes] = []
        self.broken: BaseException | None = None
        self.progress = 0.0  # loop time of the last reply, or of a send to an idle connection
        self.task = asyncio.get_running_loop().create_task(self._read())
        self._stall_s = stall_s
        asyncio.get_running_loop().call_later(stall_s / 2, self._watch)

    def _watch(self) -> None:
        """A server that stops answering (not closing) fails the calls waiting on it."""
        if self.broken is not None:
            return
        loop = asyncio.get_running_loop()
        if self.waiting and loop.time() - self.progress >= self._stall_s:
            self.fail(TimeoutError(f"no reply from Redis for {self._stall_s} s"))
            return
        loop.call_later(self._stall_s / 2, self._watch)

    def send(self, command: tuple[Any, ...]) -> asyncio.Future[Any]:
        if self.broken is not None:
            raise RedisConnectionError(f"connection lost: {self.broken!r}")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        if not self.waiting:
            self.progress = loop.time()
        if not self.buffer:
            loop.call_soon(self._flush)
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
                self.progress = asyncio.get_running_loop().time()
                reply = self.parser.gets()
                while reply is not False:
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
