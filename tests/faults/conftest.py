"""Fixtures for the fault suite: real Redis DB 6 (flushed around each test), fake WeChat API."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis

from bot.wechat.testkit import FakeWeChatServer
from tests.faults._stack import FAULTS_REDIS_URL


@pytest.fixture
def wx() -> Iterator[FakeWeChatServer]:
    with FakeWeChatServer() as server:
        yield server


@pytest.fixture
def db6() -> Iterator[redis.Redis]:
    conn = redis.Redis.from_url(FAULTS_REDIS_URL)
    conn.flushdb()
    yield conn
    conn.flushdb()
    conn.close()
