"""Fixtures of the security suite: real Redis DB 9, flushed around each test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis

from tests._redisdb import flushed_db


@pytest.fixture
def db9() -> Iterator[redis.Redis]:
    yield from flushed_db("redis://127.0.0.1:6379/9")
