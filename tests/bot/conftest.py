"""Fixtures of the tests of bot/: fakeredis, and DB 2 of the tests' Redis (flushed around each test)."""

from __future__ import annotations

from collections.abc import Iterator

import fakeredis
import pytest
import redis

from tests.harness.edge import REAL_REDIS_URL, jobs_scope
from tests.harness.redis_server import flushed_db


@pytest.fixture
def fake_redis() -> redis.Redis:
    return fakeredis.FakeRedis()


@pytest.fixture
def real_redis() -> Iterator[redis.Redis]:
    yield from flushed_db(REAL_REDIS_URL)


@pytest.fixture(autouse=True)
def _jobs_end_with_the_test() -> Iterator[None]:
    with jobs_scope():
        yield

