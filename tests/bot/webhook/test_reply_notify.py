"""A waiting webhook request is woken by the reply's notification, not by its poll (real Redis DB 12)."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from starlette.testclient import TestClient

from bot.delivery.handoff import Handoff
from bot.webhook import WebhookConfig, create_app, script_runner
from bot.wechat.crypto import WebhookSecrets
from bot.wechat.inbound import parse_message
from bot.wechat.testkit import MessageFactory
from bot.wechat.testkit.driver import sign
from runtime import keys
from tests.harness.redis_server import flushed_db, private_url

pytestmark = pytest.mark.redis
M = MessageFactory()
TOKEN = "notify-token"
URL = private_url(12)


class _Nobody:
    def drain(self, user: str, *, force: bool = False) -> None: ...
    def released(self, user: str, message_key: str, reply: str) -> None: ...


@pytest.fixture
def conn() -> Iterator[redis.Redis]:
    yield from flushed_db(URL)


def _post(client: TestClient, xml: str) -> tuple[str, float]:
    ts, nonce = str(int(time.time())), secrets.token_hex(6)
    started = time.monotonic()
    res = client.post("/wechat", params={"timestamp": ts, "nonce": nonce, "signature": sign(TOKEN, ts, nonce)},
                      content=xml)
    return res.text, time.monotonic() - started


def _app(conn: redis.Redis, config: WebhookConfig, transport: str) -> Any:
    scripts = script_runner(conn, URL if transport == "pipelined" else None)
    return create_app(config, redis=conn, dispatch=_Nobody(), sweep=False, scripts=scripts)


@pytest.mark.parametrize("transport", ["threaded", "pipelined"])
@pytest.mark.parametrize("how", ["offer", "passive_piece", "release"])
def test_the_waiting_request_answers_within_moments_of_the_worker(conn: redis.Redis, how: str,
                                                                  transport: str) -> None:
    config = WebhookConfig(secrets=WebhookSecrets(token=TOKEN), reply_wait_s=4.0, poll_s=3.0, max_attempts=1)
    xml = M.text("n1", "你好")
    key = parse_message(xml).message_key

    acted: list[object] = []

    def worker() -> None:  # once the request waits (timed from there: a loaded machine admits it later)
        deadline = time.monotonic() + 10
        while conn.hget(keys.handoff("n1", key), "state") != b"waiting" and time.monotonic() < deadline:
            time.sleep(0.005)
        acted.append(time.monotonic())
        if how == "offer":
            Handoff(conn).offer("n1", key, "回复")
        elif how == "passive_piece":
            acted.append(Handoff(conn).offer_passive("n1", key, "p", "回复"))
        else:
            Handoff(conn).release("n1", key)

    with TestClient(_app(conn, config, transport)) as client:
        acting = threading.Thread(target=worker)
        acting.start()
        body, _ = _post(client, xml)
        answered = time.monotonic()
        acting.join()
    assert acted[1:] in ([], ["offered"]), acted
    assert answered - float(acted[0]) < 1.5  # a poll alone would have taken 3 s  # type: ignore[arg-type]
    assert ("回复" in body) is (how != "release")


def test_a_dropped_subscription_is_taken_up_again(conn: redis.Redis) -> None:
    """The event-loop subscriber reconnects after the server drops it; the next reply wakes at once."""
    config = WebhookConfig(secrets=WebhookSecrets(token=TOKEN), reply_wait_s=4.0, poll_s=3.0, max_attempts=1)
    with TestClient(_app(conn, config, "pipelined")) as client:
        _wait_for_subscribers(conn, 1)
        conn.client_kill_filter(_type="pubsub")
        _wait_for_subscribers(conn, 0)
        _wait_for_subscribers(conn, 1)  # back within its retry pause
        xml = M.text("n2", "你好")
        key = parse_message(xml).message_key
        offered: list[float] = []

        def worker() -> None:  # once the request waits
            deadline = time.monotonic() + 10
            while conn.hget(keys.handoff("n2", key), "state") != b"waiting" and time.monotonic() < deadline:
                time.sleep(0.005)
            offered.append(time.monotonic())
            Handoff(conn).offer("n2", key, "又回来了")

        acting = threading.Thread(target=worker)
        acting.start()
        body, _ = _post(client, xml)
        answered = time.monotonic()
        acting.join()
    assert "又回来了" in body and answered - offered[0] < 1.5


def _wait_for_subscribers(conn: redis.Redis, n: int, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        counts = dict(conn.pubsub_numsub("wx:replies"))
        if counts.get(b"wx:replies", 0) == n:
            return
        time.sleep(0.02)
    raise AssertionError(f"expected {n} subscribers on wx:replies")
