"""Every test's Redis: a private ``redis-server`` per pytest process, never the developer's own.

The server starts on a free loopback port the first time a test module or fixture asks for a URL
(:func:`private_url`), keeps no data on disk, and is stopped when the test session ends
(``tests/conftest.py``); the kernel also kills it should the test run itself be killed. The suite
never connects to 127.0.0.1:6379, so concurrent test runs do not collide and the data in a
developer's own Redis is never flushed or written (``tests/safety/`` proves it).

A new test gets a Redis with ``flushed_db(private_url(N))`` in a fixture: suites in one run execute
one after another and flush their DB around each test, so the DB number only needs to differ from
a fixture that lives across tests (module or session scope). Tests that kill or restart Redis start
their own :class:`~bot.bench._redis.PrivateRedis` instead.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis

from bot.bench import PrivateRedis

__all__ = ["flushed_db", "private_server_pid", "private_url", "stop_private_server"]

_server: PrivateRedis | None = None


def _private_server() -> PrivateRedis:
    global _server
    if _server is None:
        last: Exception | None = None
        for _ in range(5):  # a port taken by someone else between choosing and binding: choose again
            candidate = PrivateRedis(aof=False, die_with_parent=True)
            try:
                _server = candidate.start()
                break
            except RuntimeError as exc:
                candidate.stop()
                last = exc
        else:
            raise RuntimeError(f"could not start the tests' private redis-server: {last}")
    return _server


def private_url(db: int = 0) -> str:
    """``redis://`` URL of DB ``db`` on this test process's private server (started on first use)."""
    return f"redis://127.0.0.1:{_private_server().port}/{db}"


def private_server_pid() -> int | None:
    """The private server's process id (None before it starts): a child that outlives every test."""
    return _server.proc.pid if _server is not None and _server.proc is not None else None


def stop_private_server() -> None:
    """Stop the private server (end of the test session)."""
    global _server
    if _server is not None:
        _server.stop()
        _server = None


def flushed_db(url: str) -> Iterator[redis.Redis]:
    """Yield a client on the DB at ``url``, flushed before and after; FAIL (never skip) when the
    server cannot be reached. Use as ``yield from flushed_db(private_url(N))`` inside a fixture."""
    conn = redis.Redis.from_url(url)
    try:
        conn.ping()
    except redis.RedisError as exc:
        conn.close()
        pytest.fail(f"the tests' Redis at {url} is unreachable ({exc})", pytrace=False)
    conn.flushdb()
    try:
        yield conn
    finally:
        conn.flushdb()
        conn.close()
