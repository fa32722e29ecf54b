"""The redis-py client of wxbot's processes: redis-py, with pipelines that execute in less CPU.

A worker's turn is three pipelined round trips of about a dozen commands each. redis-py 8 spends
~5 µs of Python per command executing a pipeline (packing each command alone, HIMPORT bookkeeping,
observability hooks, one ``parse_response`` call chain per reply): measured, a ten-command pipeline
took 120 µs of CPU with :class:`LeanPipeline` against 170 µs. The commands are still built by
redis-py's own methods, and replies go through its response callbacks, so callers see no change.
"""

from __future__ import annotations

from typing import Any

import hiredis
import redis
from redis.client import Pipeline
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot._redis_target import RedisTarget

__all__ = ["LeanPipeline", "LeanRedis", "connect"]

_SPECIAL_OPTIONS = frozenset({"NEVER_DECODE", "EMPTY_RESPONSE"})


class LeanPipeline(Pipeline):  # type: ignore[type-arg]
    """A non-transactional pipeline of plain commands: packed in one pass, sent in one write, its
    replies read in order. Anything else (MULTI/EXEC, WATCH, pipeline scripts, multi-word command
    names, options that change how a reply is read, arguments hiredis cannot pack) and any
    connection failure go to redis-py's own ``execute`` with its retry policy, as before."""

    def execute(self, raise_on_error: bool = True) -> list[Any]:
        stack = self.command_stack
        if not self._lean(stack):
            return super().execute(raise_on_error)
        try:
            packed = b"".join([hiredis.pack_command(args) for args, _ in stack])
        except TypeError:  # e.g. a memoryview argument: redis-py copies it first
            return super().execute(raise_on_error)
        pool: Any = self.connection_pool
        conn = pool.get_connection()
        raw: list[Any] = []
        try:
            conn.send_packed_command([packed])
            for _ in stack:
                try:
                    raw.append(conn.read_response())
                except ResponseError as exc:
                    raw.append(exc)
        except (RedisConnectionError, RedisTimeoutError, OSError):
            conn.disconnect()  # a dead pooled connection (e.g. after a Redis restart): redis-py retries
            raw = []
        except BaseException:
            conn.disconnect()  # replies may be left unread: never hand this socket out again
            raise
        finally:
            pool.release(conn)
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


class LeanRedis(redis.Redis):  # type: ignore[type-arg]
    """``redis.Redis`` whose pipelines are :class:`LeanPipeline`."""

    def pipeline(self, transaction: bool = True, shard_hint: Any = None) -> Any:
        return LeanPipeline(self.connection_pool, self.response_callbacks, transaction, shard_hint)


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
