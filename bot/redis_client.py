"""The bot's Redis: where it is (one server, or the master Sentinel names), the client its processes
use, and typed helpers for script calls.

With Sentinel, every client asks the sentinels for the current master whenever it (re)connects, so
after a fail-over the promoted replica is found without a restart. ``REDIS_URL`` then only gives the
user, password and DB number of the data servers; its host and port are not used.

The client is redis-py with pipelines that execute in less CPU. A worker's turn is three pipelined
round trips of about a dozen commands each. redis-py 8 spends ~5 µs of Python per command executing
a pipeline (packing each command alone, HIMPORT bookkeeping, observability hooks, one
``parse_response`` call chain per reply): measured, a ten-command pipeline took 120 µs of CPU with
:class:`LeanPipeline` against 170 µs. The commands are still built by redis-py's own methods, and
replies go through its response callbacks, so callers see no change.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias
from urllib.parse import unquote, urlparse

import hiredis
import redis
from redis._parsers.hiredis import NOT_ENOUGH_DATA, _HiredisParser
from redis.client import Pipeline
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

if TYPE_CHECKING:
    from redis import Redis

    RedisClient: TypeAlias = Redis[Any]
else:
    RedisClient: TypeAlias = Any

__all__ = ["Call", "LeanPipeline", "LeanRedis", "RedisClient", "RedisTarget", "connect", "parse_sentinels",
           "run_script", "script_sha", "text"]

def parse_sentinels(value: str) -> tuple[tuple[str, int], ...]:
    """``"10.0.0.1:26379,10.0.0.2:26379"`` → ``(("10.0.0.1", 26379), ("10.0.0.2", 26379))``;
    ``ValueError`` naming the bad entry otherwise (``[::1]:26379`` for IPv6)."""
    found: list[tuple[str, int]] = []
    for entry in (part.strip() for part in value.split(",")):
        if not entry:
            continue
        host, sep, port = entry.rpartition(":")
        host = host.strip("[]")
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"{entry!r} is not host:port")
        found.append((host, int(port)))
    return tuple(found)


@dataclass(frozen=True)
class RedisTarget:
    """The Redis a process connects to; ``sentinels`` empty means the server at ``url``."""

    url: str = ""
    sentinels: tuple[tuple[str, int], ...] = ()
    master: str = ""
    sentinel_password: str = ""
    wait_replicas: int = 0  # the webhook's accept waits until this many replicas hold the message
    wait_timeout_ms: int = 500

    @property
    def uses_sentinel(self) -> bool:
        return bool(self.sentinels)

    def credentials(self) -> tuple[str | None, str | None, int]:
        """User, password and DB number from ``url`` (Sentinel mode: all the URL is used for)."""
        if not self.url:
            return None, None, 0
        parts = urlparse(self.url)
        path = parts.path.strip("/")
        return (unquote(parts.username) if parts.username else None,
                unquote(parts.password) if parts.password else None, int(path) if path.isdigit() else 0)

    def describe(self) -> str:
        """For messages and logs: never a password."""
        if self.uses_sentinel:
            where = ",".join(f"{h}:{p}" for h, p in self.sentinels)
            return f"master {self.master!r} of sentinels {where}"
        parts = urlparse(self.url)
        netloc = parts.netloc.rpartition("@")[2]
        return parts._replace(netloc=netloc).geturl()


class Call(NamedTuple):
    """One Lua script call: the script text, its keys and its arguments (``run_script(r, *call)``)."""

    script: str
    keys: list[str]
    args: list[Any]


@functools.cache
def script_sha(script: str) -> str:
    """The SHA1 ``EVALSHA`` names ``script`` by (computed once per script)."""
    return hashlib.sha1(script.encode()).hexdigest()


def run_script(redis: RedisClient, script: str, keys: list[str], args: list[Any]) -> Any:
    """Run ``script`` with ``keys`` and ``args`` by its SHA (``EVALSHA``: the body is sent only the
    first time a server sees it, e.g. after a restart)."""
    client: Any = redis
    sha = script_sha(script)
    try:
        return client.evalsha(sha, len(keys), *keys, *args)
    except NoScriptError:
        return client.eval(script, len(keys), *keys, *args)


def text(value: bytes | str | None) -> str:
    """A Redis reply as ``str`` (``""`` for nil)."""
    if value is None:
        return ""
    return value.decode() if isinstance(value, bytes) else value


_SPECIAL_OPTIONS = frozenset({"NEVER_DECODE", "EMPTY_RESPONSE"})


class _Held:
    """A pool connection held by one thread; handed back when the thread ends (its thread-local
    storage is dropped then), unless the process has forked since (the pool resets itself)."""

    def __init__(self, pool: Any) -> None:
        self.pool, self.pid = pool, os.getpid()
        self.conn = pool.get_connection()

    def __del__(self) -> None:
        if self.pid == os.getpid():
            with contextlib.suppress(Exception):
                self.pool.release(self.conn)


class OwnConnections(threading.local):
    """Each thread's own connection for lean pipelines: taken from the pool once, not checked out
    and back (the pool's lock, liveness poll and bookkeeping: ≈ 8 µs) on every round trip. A lean
    pipeline reads every reply it asked for or disconnects the socket, so the connection is always
    ready for the next one."""

    held: _Held | None = None

    def connection(self, pool: Any) -> Any:
        held = self.held
        if held is None or held.pool is not pool or held.pid != os.getpid():
            held = self.held = _Held(pool)
        return held.conn


class LeanPipeline(Pipeline):  # type: ignore[type-arg]
    """A non-transactional pipeline of plain commands: packed in one pass, sent in one write on the
    thread's own connection, its replies read in order. Anything else (MULTI/EXEC, WATCH, pipeline
    scripts, multi-word command names, options that change how a reply is read, arguments hiredis
    cannot pack) and any connection failure go to redis-py's own ``execute`` with its retry policy,
    as before."""

    def __init__(self, *args: Any, own: OwnConnections | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._own = own if own is not None else OwnConnections()

    def execute(self, raise_on_error: bool = True) -> list[Any]:
        stack = self.command_stack
        if not self._lean(stack):
            return super().execute(raise_on_error)
        try:
            packed = b"".join([hiredis.pack_command(args) for args, _ in stack])
        except TypeError:  # e.g. a memoryview argument: redis-py copies it first
            return super().execute(raise_on_error)
        conn = self._own.connection(self.connection_pool)
        raw: list[Any] = []
        try:
            conn.send_packed_command([packed])  # connects first if the socket was dropped
            raw = _replies(conn, len(stack))
        except (RedisConnectionError, RedisTimeoutError, OSError):
            conn.disconnect()  # a dead connection (e.g. after a Redis restart): redis-py retries
            raw = []
        except BaseException:
            conn.disconnect()  # replies may be left unread: never send on this socket again unopened
            raise
        if len(raw) != len(stack):
            return super().execute(raise_on_error)
        replies = [self._callback(args, options, r) for (args, options), r in zip(stack, raw, strict=True)]
        self.reset()
        if raise_on_error:
            self.raise_first_error(stack, replies)  # type: ignore[no-untyped-call]
        return replies

    def _lean(self, stack: list[Any]) -> bool:
        if (not stack or self.transaction or self.explicit_transaction or self.watching or self.scripts
                or self.connection is not None):
            return False
        for args, options in stack:
            name = args[0]
            if not isinstance(name, str) or " " in name or name.upper().startswith("HIMPORT"):
                return False
            if options and not _SPECIAL_OPTIONS.isdisjoint(options):
                return False
        return True

    def _callback(self, args: tuple[Any, ...], options: dict[str, Any], reply: Any) -> Any:
        if isinstance(reply, ResponseError):
            return reply
        callback = self.response_callbacks.get(args[0])
        if callback is None:
            return reply
        if "keys" in options:  # what redis-py's parse_response drops (it is for its client-side cache)
            options = {k: v for k, v in options.items() if k != "keys"}
        return callback(reply, **options)


def _replies(conn: Any, count: int) -> list[Any]:
    """``count`` replies read in order, an error reply as its exception object. With the hiredis
    parser, straight from its reader (one ``gets`` per reply, a socket read only when the buffer runs
    dry; a RESP3 push notification in between goes to redis-py's handler, as its own read does);
    otherwise through redis-py's ``read_response``."""
    parser: Any = conn._parser
    if type(parser) is not _HiredisParser or parser._reader is None:
        out: list[Any] = []
        for _ in range(count):
            try:
                out.append(conn.read_response())
            except ResponseError as exc:
                out.append(exc)
        return out
    gets: Any = parser._reader.gets
    fill: Any = parser.read_from_socket
    push: Any = parser._hiredis_PushNotificationType
    handle: Any = parser.handle_push_response
    out = []
    while len(out) < count:
        reply = gets()
        while reply is NOT_ENOUGH_DATA:
            fill()  # raises on a timeout or a closed socket, as redis-py's read does
            reply = gets()
        if isinstance(reply, RedisConnectionError):
            raise reply
        if push is not None and isinstance(reply, push):
            handle(reply)
            continue
        out.append(reply)
    return out


class LeanRedis(redis.Redis):  # type: ignore[type-arg]
    """``redis.Redis`` whose pipelines are :class:`LeanPipeline`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._own = OwnConnections()

    def pipeline(self, transaction: bool = True, shard_hint: Any = None) -> Any:
        return LeanPipeline(self.connection_pool, self.response_callbacks, transaction, shard_hint, own=self._own)


def connect(target: RedisTarget | str) -> Any:
    """A :class:`LeanRedis` on a URL (as ``redis.Redis.from_url``) or on the master Sentinel names.

    With Sentinel, each new connection asks the sentinels for the current master, and a connection
    that finds its server gone, or demoted to a replica (``READONLY``), is dropped: after a fail-over
    the next command reaches the promoted replica through redis-py's usual retry."""
    if isinstance(target, str):
        return LeanRedis.from_url(target)
    if not target.uses_sentinel:
        return LeanRedis.from_url(target.url)
    from redis.sentinel import Sentinel

    username, password, db = target.credentials()
    sentinels = Sentinel(list(target.sentinels), sentinel_kwargs={
        "password": target.sentinel_password or None, "socket_timeout": 1.0, "socket_connect_timeout": 1.0})
    return sentinels.master_for(target.master, redis_class=LeanRedis, db=db, username=username,
                                password=password, socket_connect_timeout=2.0, socket_keepalive=True)
