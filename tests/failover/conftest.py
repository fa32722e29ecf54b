"""Fixtures of the fail-over tests: a Redis master, a replica and three sentinels (or none: a pair);
the fake WeChat API."""

from __future__ import annotations

import os
import signal
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


@pytest.fixture
def pair() -> Iterator[SentinelCluster]:
    """A master and its replica, no sentinels (a replica SIGSTOPped by a test is woken at the end)."""
    servers = SentinelCluster(sentinels=0)
    try:
        yield servers.start()
    finally:
        proc = servers.replica.proc
        if proc is not None and proc.poll() is None:
            os.kill(proc.pid, signal.SIGCONT)
        servers.stop()
