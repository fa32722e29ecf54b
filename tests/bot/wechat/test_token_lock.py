"""The access-token refresh lock: short-lived unless its holder renews it, fenced, waited on boundedly."""

from __future__ import annotations

import threading
import time

import fakeredis
import pytest

from bot.wechat import AccessTokenService, WeChatUnavailable
from bot.wechat.api import AccessToken
from runtime import keys

APP = "wxlock"


class Fetcher:
    """A token endpoint that takes ``delay`` seconds and counts its calls."""

    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay
        self.calls = 0

    def __call__(self, force: bool = False) -> AccessToken:
        self.calls += 1
        time.sleep(self.delay)
        return AccessToken(f"tok-{self.calls}", 7200)


def service(conn: fakeredis.FakeRedis, fetch: Fetcher, **kw: float) -> AccessTokenService:
    return AccessTokenService(conn, fetch, app_id=APP, **kw)


def test_a_lock_left_behind_by_a_dead_holder_stands_in_the_way_for_its_short_expiry_only(fake_redis) -> None:
    # e.g. Redis was killed while a worker held the lock, and its append-only file kept the lock
    fake_redis.set(keys.access_token_lock(APP), "dead-holder", px=600)
    fetch = Fetcher()
    started = time.monotonic()
    assert service(fake_redis, fetch, lock_ttl_s=0.6, wait_s=5).get() == "tok-1"
    assert time.monotonic() - started < 1.5
    assert fetch.calls == 1
    assert not fake_redis.exists(keys.access_token_lock(APP))  # released by the new holder


def test_the_holder_renews_the_lock_while_a_slow_fetch_runs_and_the_others_wait_for_its_token(fake_redis) -> None:
    fetch = Fetcher(delay=1.0)
    got: list[str] = []
    holder = threading.Thread(target=lambda: got.append(service(fake_redis, fetch, lock_ttl_s=0.3).get()))
    holder.start()
    time.sleep(0.1)
    assert service(fake_redis, fetch, lock_ttl_s=0.3, wait_s=5).get() == "tok-1"  # waited, never fetched
    holder.join()
    assert got == ["tok-1"] and fetch.calls == 1


def test_a_holder_that_lost_the_lock_does_not_overwrite_the_next_holders_token(fake_redis) -> None:
    fetch = Fetcher(delay=0.5)
    got: list[str] = []
    holder = threading.Thread(target=lambda: got.append(service(fake_redis, fetch, lock_ttl_s=5).get()))
    holder.start()
    time.sleep(0.1)
    fake_redis.set(keys.access_token_lock(APP), "next-holder")  # e.g. lapsed and taken while we were cut off
    fake_redis.set(keys.access_token(APP), "tok-of-next-holder")
    holder.join()
    assert got == ["tok-1"]  # good for its own call
    assert fake_redis.get(keys.access_token(APP)) == b"tok-of-next-holder"
    assert fake_redis.get(keys.access_token_lock(APP)) == b"next-holder"  # and not released either


def test_waiting_for_a_live_holder_is_bounded(fake_redis) -> None:
    fake_redis.set(keys.access_token_lock(APP), "busy-holder", px=60_000)
    started = time.monotonic()
    with pytest.raises(WeChatUnavailable):
        service(fake_redis, Fetcher(), wait_s=0.4).get()
    assert 0.35 < time.monotonic() - started < 1.5
