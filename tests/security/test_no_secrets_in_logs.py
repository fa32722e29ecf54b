"""Secrets never reach the logs: the whole edge runs with DEBUG logging on every logger (webhook in
compatible/AES mode, worker, delivery through the API with token fetch and a forced refresh, bad
signatures) and the captured text must not contain the app secret, the AES key, the token or any
access_token WeChat issued."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
import redis

from bot.wechat.testkit import FakeWeChatServer, MessageFactory, WebhookDriver
from tests.harness.edge import AES_KEY, TOKEN, start_webhook, wait_until

pytestmark = pytest.mark.redis
M = MessageFactory()


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.lines: list[str] = []
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def debug_logs() -> Iterator[_Capture]:
    root = logging.getLogger()
    handler, level = _Capture(), root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    yield handler
    root.removeHandler(handler)
    root.setLevel(level)


def test_no_secret_appears_in_debug_logs(db9: redis.Redis, debug_logs: _Capture) -> None:
    issued: set[str] = set()
    with FakeWeChatServer() as wx:
        hook = start_webhook(db9, wx, embedded=True, reply_wait_s=0.0, max_attempts=1)
        try:
            with WebhookDriver(hook.url, TOKEN, mode="compatible", aes_key=AES_KEY) as d:
                for i in range(3):
                    assert d.post_once(M.text("s1", f"hello {i}")).status_code == 200
                assert wait_until(lambda: len(wx.state.sent_to("s1", "custom")) == 3, 10)
                issued |= set(wx.state.tokens)
                wx.state.expire_tokens()  # the next call gets 42001: refresh with the app secret
                assert d.post_once(M.text("s1", "after expiry")).status_code == 200
                assert wait_until(lambda: len(wx.state.sent_to("s1", "custom")) == 4, 10)
                issued |= set(wx.state.tokens)
                bad = d.signed_params() | {"signature": "0" * 40}
                assert d.post_once("", params=bad, body=M.text("s1", "x")).status_code == 403
                safe = WebhookDriver(hook.url, TOKEN, mode="safe", aes_key=AES_KEY)
                params, body = safe.envelope(M.text("s2", "加密"))
                assert d.post_once("", params=params | {"msg_signature": "0" * 40}, body=body).status_code == 403
                safe.close()
        finally:
            hook.stop()
        secrets = {"app secret": wx.state.secret, "AES key": AES_KEY, "token": TOKEN}
        secrets |= {f"access_token {t}": t for t in issued}
    text = "\n".join(debug_logs.lines)
    assert len(debug_logs.lines) > 20 and wx.state.token_fetches >= 2  # the test did log and refresh
    leaks = [name for name, value in secrets.items() if value and value in text]
    assert leaks == [], [line for line in debug_logs.lines if any(v in line for v in secrets.values())][:5]
