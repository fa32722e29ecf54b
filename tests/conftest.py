"""Shared fixtures: the real Redis server (DB 1, flushed around each test) and an in-process fakeredis.

The real-Redis fixture FAILS (never skips) when 127.0.0.1:6379 cannot be reached: the store contract
must hold against the real server, so a missing server is a broken environment, not an optional test.
"""

from __future__ import annotations

from collections.abc import Iterator

import fakeredis
import pytest
import redis

REAL_REDIS_URL = "redis://127.0.0.1:6379/1"


@pytest.fixture
def redis_url() -> Iterator[str]:
    """URL of the real Redis server, DB 1 (flushed before and after the test)."""
    conn = redis.Redis.from_url(REAL_REDIS_URL, socket_connect_timeout=2, socket_timeout=5)
    try:
        conn.ping()
    except redis.RedisError as exc:
        conn.close()
        pytest.fail(f"real Redis at {REAL_REDIS_URL} is unreachable ({exc}); start it (see DEVELOPERS.md)",
                    pytrace=False)
    conn.flushdb()
    try:
        yield REAL_REDIS_URL
    finally:
        conn.flushdb()
        conn.close()


@pytest.fixture
def real_redis_client(redis_url: str) -> Iterator[redis.Redis]:
    """A client on the real Redis DB 1 (flushed around the test)."""
    conn = redis.Redis.from_url(redis_url)
    yield conn
    conn.close()


@pytest.fixture
def fakeredis_client() -> Iterator[fakeredis.FakeRedis]:
    """An in-process Redis substitute with its own private server."""
    conn = fakeredis.FakeRedis(server=fakeredis.FakeServer())
    yield conn
    conn.close()
