"""One way for every suite to use a dedicated DB of the real Redis server, flushed around a test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis


def flushed_db(url: str) -> Iterator[redis.Redis]:
    """Yield a client on the real server's DB at ``url``, flushed before and after; FAIL (never skip)
    when the server cannot be reached. Use as ``yield from flushed_db(URL)`` inside a fixture."""
    conn = redis.Redis.from_url(url)
    try:
        conn.ping()
    except redis.RedisError as exc:
        conn.close()
        pytest.fail(f"real Redis at {url} is unreachable ({exc}); start it (see .ci/run)", pytrace=False)
    conn.flushdb()
    try:
        yield conn
    finally:
        conn.flushdb()
        conn.close()
