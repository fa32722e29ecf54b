"""Fixtures for the fault suite: DB 6 of the tests' Redis (flushed around each test), fake WeChat API."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis

from tests.harness.faults import FAULTS_REDIS_URL
from tests.harness.redis_server import flushed_db


@pytest.fixture
def db6() -> Iterator[redis.Redis]:
    yield from flushed_db(FAULTS_REDIS_URL)
