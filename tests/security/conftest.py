"""Fixtures of the security suite: DB 9 of the tests' Redis, flushed around each test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis

from tests.harness.redis_server import flushed_db, private_url


@pytest.fixture
def db9() -> Iterator[redis.Redis]:
    yield from flushed_db(private_url(9))
