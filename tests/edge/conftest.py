"""Fixtures for the WeChat edge tests: fake WeChat API server, fakeredis, DB 2 of the tests' Redis."""

from __future__ import annotations

from collections.abc import Iterator

import fakeredis
import pytest
import redis

from bot.wechat import AccessTokenService, WeChatpyAPI
from bot.wechat.adapter import StableTokenFetcher
from bot.wechat.testkit import FakeWeChatServer
from tests._redisdb import flushed_db, private_url

REAL_REDIS_URL = private_url(2)


@pytest.fixture
def wx() -> Iterator[FakeWeChatServer]:
    with FakeWeChatServer() as server:
        yield server


@pytest.fixture
def fake_redis() -> redis.Redis:
    return fakeredis.FakeRedis()


@pytest.fixture
def real_redis() -> Iterator[redis.Redis]:
    yield from flushed_db(REAL_REDIS_URL)


def make_api(wx: FakeWeChatServer, conn: redis.Redis, *, timeout: float = 2.0) -> WeChatpyAPI:
    app_id, secret = wx.state.app_id, wx.state.secret
    fetcher = StableTokenFetcher(app_id, secret, base_url=wx.url, timeout=timeout)
    tokens = AccessTokenService(conn, fetcher, app_id=app_id)
    return WeChatpyAPI(app_id=app_id, secret=secret, tokens=tokens, base_url=wx.url, timeout=timeout)
