"""A waiting webhook request is woken by the reply's notification, not by its poll (real Redis DB 12)."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterator

import pytest
import redis
from starlette.testclient import TestClient

from bot._webhook_crypto import WebhookSecrets
from bot.delivery._store import DeliveryStore
from bot.delivery.handoff import Handoff
from bot.webhook import WebhookConfig, create_app
from bot.wechat.inbound import parse_message
from bot.wechat.testkit import MessageFactory
from bot.wechat.testkit.driver import sign
from tests._redisdb import flushed_db

pytestmark = pytest.mark.redis
M = MessageFactory()
TOKEN = "notify-token"


class _Nobody:
    def drain(self, user: str, *, force: bool = False) -> None: ...
    def released(self, user: str, message_key: str, reply: str) -> None: ...


@pytest.fixture
def conn() -> Iterator[redis.Redis]:
    yield from flushed_db("redis://127.0.0.1:6379/12")


def _post(client: TestClient, xml: str) -> tuple[str, float]:
    ts, nonce = str(int(time.time())), secrets.token_hex(6)
    started = time.monotonic()
    res = client.post("/wechat", params={"timestamp": ts, "nonce": nonce, "signature": sign(TOKEN, ts, nonce)},
                      content=xml)
    return res.text, time.monotonic() - started


@pytest.mark.parametrize("how", ["offer", "passive_piece", "release"])
def test_the_waiting_request_answers_within_moments_of_the_worker(conn: redis.Redis, how: str) -> None:
    config = WebhookConfig(secrets=WebhookSecrets(token=TOKEN), reply_wait_s=4.0, poll_s=3.0, max_attempts=1)
    xml = M.text("n1", "你好")
    key = parse_message(xml).message_key

    def worker() -> None:
        if how == "offer":
            Handoff(conn).offer("n1", key, "回复")
        elif how == "passive_piece":
            assert DeliveryStore(conn).offer_passive("n1", key, "p", "回复") == "sent"
        else:
            Handoff(conn).release("n1", key)

    with TestClient(create_app(config, redis=conn, dispatch=_Nobody(), sweep=False)) as client:
        threading.Timer(0.3, worker).start()
        body, elapsed = _post(client, xml)
    assert elapsed < 1.5  # a poll alone would have taken 3 s
    assert ("回复" in body) is (how != "release")
