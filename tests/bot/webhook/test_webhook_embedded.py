"""The webhook in embedded mode (fakeredis + in-process drain threads): security and message types."""

from __future__ import annotations

import time
from collections.abc import Iterator

import fakeredis
import httpx
import pytest

from bot.wechat.testkit import FakeWeChatServer, MessageFactory, WebhookDriver
from runtime import keys
from tests.harness.edge import AES_KEY, TOKEN, Webhook, start_webhook

M = MessageFactory()


@pytest.fixture
def conn() -> fakeredis.FakeRedis:
    return fakeredis.FakeRedis()


@pytest.fixture
def hook(conn, wx: FakeWeChatServer) -> Iterator[Webhook]:
    h = start_webhook(conn, wx, embedded=True)
    yield h
    h.stop()


_open: list[WebhookDriver] = []


@pytest.fixture(autouse=True)
def _close_drivers() -> Iterator[None]:
    yield
    while _open:
        _open.pop().close()


def driver(hook: Webhook, mode: str = "plain") -> WebhookDriver:
    d = WebhookDriver(hook.url, TOKEN, mode=mode, aes_key=AES_KEY, attempt_timeout_s=1.0)  # type: ignore[arg-type]
    _open.append(d)
    return d


def test_url_verification_echoes_only_when_signed(hook: Webhook) -> None:
    d = driver(hook)
    assert d.verify_url("hello").text == "hello"
    bad = httpx.get(hook.url, params={"signature": "x", "timestamp": "1", "nonce": "n", "echostr": "e"})
    assert bad.status_code == 403


@pytest.mark.parametrize("mode", ["plain", "compatible", "safe"])
def test_text_gets_a_passive_reply_in_every_mode(hook: Webhook, mode: str) -> None:
    result = driver(hook, mode).deliver(M.text("u1", "你好"))
    assert (result.attempts, result.status, result.reply) == (1, 200, "echo:你好")
    if mode != "plain":
        assert "<Encrypt>" in result.body


def test_bad_signature_is_403_before_parsing(hook: Webhook, conn) -> None:
    d = driver(hook)
    params = d.signed_params() | {"signature": "0" * 40}
    res = d.post_once("", params=params, body=b"<xml><not-even-closed>")
    assert res.status_code == 403
    safe = driver(hook, "safe")
    p, body = safe.envelope(M.text("u1", "x"))
    assert safe.post_once("", params=p | {"msg_signature": "0" * 40}, body=body).status_code == 403
    assert conn.keys("wx:*mailbox*") == []


@pytest.mark.parametrize("body", [
    b"not xml at all",
    b"<xml><ToUserName>a</ToUserName></xml>",
    b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "boom">]><xml><FromUserName>&e;</FromUserName>'
    b"<ToUserName>a</ToUserName><MsgType>text</MsgType></xml>",
])
def test_malformed_or_entity_bodies_are_400(hook: Webhook, body: bytes) -> None:
    d = driver(hook)
    assert d.post_once("", params=d.signed_params(), body=body).status_code == 400


def test_oversized_body_is_413(hook: Webhook) -> None:
    d = driver(hook)
    big = M.text("u1", "长" * 30000)
    assert d.post_once(big).status_code == 413


def test_message_types(hook: Webhook, conn, wx: FakeWeChatServer) -> None:
    d = driver(hook)
    assert d.deliver(M.voice("u1", "明天天气")).reply == "echo:明天天气"
    assert "语音" in (d.deliver(M.voice("u1")).reply or "")
    for xml in (M.image("u1"), M.video("u1"), M.location("u1"), M.link("u1"), M.file("u1")):
        reply = d.deliver(xml).reply or ""
        assert "文字" in reply or "位置" in reply
    assert d.deliver(M.click("u1", "dinner.plan")).reply == "CLICK:dinner.plan"
    assert d.deliver(M.subscribe("u2")).reply == "subscribe:"
    assert d.deliver(M.scan("u1", "42")).reply == "SCAN:42"
    view = d.deliver(M.view("u1"))
    assert (view.status, view.reply) == (200, None)
    res = d.deliver(M.unsubscribe("u2"))
    assert res.body == "success"
    assert hook.deps is not None
    store = hook.deps.delivery.store
    assert _eventually(lambda: store.flags("u2")["unsubscribed"])
    d.deliver(M.template_finished("u1", 1234, "failed:user block"))
    assert _eventually(lambda: any(o["status"] == "undelivered:failed:user block" for o in store.outcomes("u1")))
    assert wx.state.sent == []


def test_a_retry_is_not_enqueued_twice(hook: Webhook, conn) -> None:
    d = driver(hook)
    xml = M.text("u3", "一次")
    assert d.deliver(xml).reply == "echo:一次"
    again = d.post_once(xml)
    assert again.text == "success"  # already answered; not processed again
    assert conn.llen(keys.mailbox("u3")) == 0
    assert len(hook.deps.delivery.store.outcomes("u3")) == 1  # type: ignore[union-attr]


def _eventually(pred, timeout: float = 3.0) -> bool:
    from tests.harness.edge import wait_until

    return wait_until(pred, timeout)


def test_each_user_is_rate_limited_per_minute(conn, wx: FakeWeChatServer) -> None:
    hook = start_webhook(conn, wx, embedded=True, rate_limit_per_minute=2)
    try:
        d = driver(hook)
        replies = [d.deliver(M.text("fast", str(i))).reply for i in range(3)]
        assert replies[:2] == ["echo:0", "echo:1"]
        assert "稍等" in (replies[2] or "")
        assert d.deliver(M.text("other", "x")).reply == "echo:x"
    finally:
        hook.stop()


def test_a_turn_without_replies_is_answered_at_once(conn, wx: FakeWeChatServer) -> None:
    hook = start_webhook(conn, wx, embedded=True)
    try:
        d = driver(hook)
        started = time.monotonic()
        res = d.deliver(M.event("quiet", "LOCATION", extra={"Latitude": 1.0, "Longitude": 2.0}))
        assert (res.attempts, res.body) == (1, "success")
        assert time.monotonic() - started < 0.5  # not the 0.6 s window, let alone the hold
    finally:
        hook.stop()


def test_a_replayed_old_request_is_403(hook: Webhook) -> None:
    from bot.wechat.testkit import sign

    d = driver(hook)
    ts, nonce = str(int(time.time()) - 3600), "n1"
    params = {"timestamp": ts, "nonce": nonce, "signature": sign(TOKEN, ts, nonce)}
    assert d.post_once("", params=params, body=M.text("u1", "旧消息").encode()).status_code == 403
