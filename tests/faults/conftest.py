"""Fixtures for the fault suite: DB 6 of the tests' Redis (flushed around each test), fake WeChat API."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis

from bot.wechat.testkit import FakeWeChatServer
from tests._redisdb import flushed_db
from tests.faults._stack import FAULTS_REDIS_URL


@pytest.fixture
def wx() -> Iterator[FakeWeChatServer]:
    with FakeWeChatServer() as server:
        yield server


@pytest.fixture
def db6() -> Iterator[redis.Redis]:
    yield from flushed_db(FAULTS_REDIS_URL)
