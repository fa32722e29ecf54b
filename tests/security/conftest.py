"""Fixtures of the security suite: DB 9 of the tests' Redis, flushed around each test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis

from tests.harness.edge import jobs_scope
from tests.harness.redis_server import flushed_db, private_url


@pytest.fixture
def db9() -> Iterator[redis.Redis]:
    yield from flushed_db(private_url(9))


@pytest.fixture(autouse=True)
def _jobs_end_with_the_test() -> Iterator[None]:
    with jobs_scope():
        yield

