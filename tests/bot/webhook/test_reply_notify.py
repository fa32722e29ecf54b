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


def _script_calls(conn: redis.Redis) -> int:
    stats = conn.info("commandstats")
    return sum(int(stats.get(f"cmdstat_{name}", {}).get("calls", 0)) for name in ("eval", "evalsha"))


def test_a_request_waiting_under_one_subscription_does_not_poll(conn: redis.Redis) -> None:
    """The Redis calls of a wait do not grow with its length: a request whose reply never comes
    runs its admit, one look when its time is up and its final release — no re-check in between
    (one every 0.5 s before: six script calls for this 1.8 s wait)."""
    config = WebhookConfig(secrets=WebhookSecrets(token=TOKEN), reply_wait_s=1.8, poll_s=0.05, max_attempts=1)
    with TestClient(_app(conn, config, "pipelined")) as client:
        _wait_for_subscribers(conn, 1)
        _post(client, M.text("n3", "先来一条"))  # the server learns the scripts (EVALSHA, then EVAL)
        before = _script_calls(conn)
        body, took = _post(client, M.text("n3", "你好"))
        calls = _script_calls(conn) - before
    assert body == "success" and took >= 1.7
    assert calls == 3, calls


def test_a_reply_offered_while_the_subscription_was_down_is_taken_when_it_is_back(conn: redis.Redis) -> None:
    """Its notification reached nobody: the new subscription wakes every waiting request to look."""
    config = WebhookConfig(secrets=WebhookSecrets(token=TOKEN), reply_wait_s=4.0, poll_s=3.0, max_attempts=1,
                           subscribed_recheck_s=10.0)
    xml = M.text("n4", "你好")
    key = parse_message(xml).message_key
    back: list[float] = []
    with TestClient(_app(conn, config, "pipelined")) as client:
        _wait_for_subscribers(conn, 1)

        def worker() -> None:  # once the request waits: drop the subscription, offer, see it come back
            deadline = time.monotonic() + 10
            while conn.hget(keys.handoff("n4", key), "state") != b"waiting" and time.monotonic() < deadline:
                time.sleep(0.005)
            conn.client_kill_filter(_type="pubsub")
            _wait_for_subscribers(conn, 0)
            Handoff(conn).offer("n4", key, "断线时的回复")
            _wait_for_subscribers(conn, 1)
            back.append(time.monotonic())

        acting = threading.Thread(target=worker)
        acting.start()
        body, _ = _post(client, xml)
        answered = time.monotonic()
        acting.join()
    assert "断线时的回复" in body and answered - back[0] < 1.0
