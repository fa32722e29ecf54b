"""Signatures (missing, wrong, replayed outside the window, safe-mode msg_signature) → 403 before any
parsing; oversized bodies → 413; per-user rate limit: a flooding user gets a polite slow-down while
other users are unaffected (real Redis DB 9)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import fakeredis
import pytest
import redis
from starlette.testclient import TestClient

from bot.wechat.testkit import MessageFactory, WebhookDriver
from bot.wechat.texts import RATE_LIMITED
from tests.harness.webhook_app import AES_KEY, TOKEN, make_app, signed

M = MessageFactory()
XML = M.text("u1", "你好")


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(make_app(fakeredis.FakeRedis(server=fakeredis.FakeServer())),
                    raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize("params", [
    {},
    {"timestamp": str(int(time.time())), "nonce": "n"},
    signed() | {"signature": "0" * 40},
    signed(token="another-token"),
    signed(ts=int(time.time()) - 301),  # replayed: signed correctly, but outside the 5-minute window
    signed(ts=int(time.time()) + 3600),
    {"timestamp": "abc", "nonce": "n", "signature": "x"},
])
def test_bad_signatures_are_403_before_parsing(client: TestClient, params: dict[str, str]) -> None:
    for body in (XML.encode(), b"<!DOCTYPE x [<!ENTITY a 'b'>]><xml>&a;</xml>", b"\xff" * 10):
        res = client.post("/wechat", params=params, content=body)
        assert res.status_code == 403 and res.text == "forbidden"
    assert client.get("/wechat", params=params | {"echostr": "e"}).status_code == 403


def test_safe_mode_checks_msg_signature(client: TestClient) -> None:
    driver = WebhookDriver("http://unused", TOKEN, mode="safe", aes_key=AES_KEY)
    params, body = driver.envelope(XML)
    ok = client.post("/wechat", params=params, content=body)
    assert ok.status_code == 200
    assert client.post("/wechat", params=params | {"msg_signature": "0" * 40}, content=body).status_code == 403
    driver.close()


def test_oversized_body_is_413(client: TestClient) -> None:
    big = b"<xml><Content>" + b"x" * 70_000 + b"</Content></xml>"
    assert client.post("/wechat", params=signed(), content=big).status_code == 413


@pytest.mark.redis
def test_a_flooding_user_is_slowed_down_politely_others_are_not(db9: redis.Redis) -> None:
    with TestClient(make_app(db9, rate_limit=30), raise_server_exceptions=False) as c, \
            WebhookDriver("http://unused", TOKEN) as d:
        flood = [c.post("/wechat", params=signed(), content=M.text("flooder", f"刷屏{i}")) for i in range(45)]
        calm = [c.post("/wechat", params=signed(), content=M.text(f"calm{i}", "你好")) for i in range(20)]
    assert all(r.status_code == 200 for r in flood + calm)
    limited = [d.reply_text(r.text) for r in flood if r.text != "success"]
    assert len(limited) == 45 - 30 and set(limited) == {RATE_LIMITED}  # a polite Chinese slow-down
    assert all(r.text == "success" for r in calm)  # others accepted as usual
    assert db9.llen("wx:{flooder}:mailbox") == 30 and db9.llen("wx:{calm0}:mailbox") == 1
