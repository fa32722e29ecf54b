"""Fixtures of the fail-over tests: a Redis master, a replica and three sentinels; the fake WeChat API."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.wechat.testkit import FakeWeChatServer
from tests.failover._sentinel import SentinelCluster


@pytest.fixture
def wx() -> Iterator[FakeWeChatServer]:
    with FakeWeChatServer() as server:
        yield server


@pytest.fixture
def cluster() -> Iterator[SentinelCluster]:
    servers = SentinelCluster(down_after_ms=1000)
    try:
        yield servers.start()
    finally:
        servers.stop()
