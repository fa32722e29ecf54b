"""Fixtures of the fail-over tests: a Redis master, a replica and three sentinels; the fake WeChat API."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.harness.sentinel import SentinelCluster


@pytest.fixture
def cluster() -> Iterator[SentinelCluster]:
    servers = SentinelCluster(down_after_ms=1000)
    try:
        yield servers.start()
    finally:
        servers.stop()
