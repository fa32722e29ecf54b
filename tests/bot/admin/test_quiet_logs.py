"""What the embedded web process logs while the simulator signs and posts messages, replies go out through
the WeChat API (with its access token in the URL) and an admin re-runs a conversation: at INFO nothing
of the libraries' chatter (no Alembic line per re-run's scratch database, no line per HTTP request), and
at any level no signature, timestamp, nonce, access token, openid or secret."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from bot.logs import CHATTY_LOGGERS, JsonFormatter, configure_logging
from bot.wechat.testkit import FakeWeChatServer
from tests.harness.admin import ADMIN_TOKEN, build_stack, make_settings

BEARER = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
SIGNED = re.compile(r"(?i)(msg_signature|signature|timestamp|nonce|echostr|access_token|openid)=(?!\[redacted\])")


@pytest.fixture
def root_logging() -> Iterator[None]:
    """configure_logging takes the root logger over: give pytest's handlers back afterwards."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    chatty = {name: logging.getLogger(name).level for name in CHATTY_LOGGERS}
    yield
    for handler in list(root.handlers):
        root.removeHandler(handler)
    for handler in handlers:
        root.addHandler(handler)
    root.setLevel(level)
    for name, was in chatty.items():
        logging.getLogger(name).setLevel(was)


def _session(tmp_path: Path, wx: FakeWeChatServer, level: str) -> str:
    settings = make_settings(tmp_path, wx, ADMIN_TOKEN=ADMIN_TOKEN)
    stream = io.StringIO()
    configure_logging(settings, level=level, stream=stream)
    stack = build_stack(settings).start()
    try:
        sent = httpx.post(stack.url + "/simulator/api/send", json={"user": "sim-u1", "text": "今天几号"},
                          headers=BEARER, timeout=60)
        assert sent.status_code == 200 and sent.json()["reply"], sent.text
        outcomes = stack.edge.delivery.deliver("sim-u1", "push-1", ["该喝水了"], passive=False)  # the API path
        assert [str(o.channel) for o in outcomes] == ["custom"] and wx.state.tokens
        for _ in range(2):
            rerun = httpx.get(stack.url + "/admin/api/rerun", params={"user": "sim-u1"}, headers=BEARER, timeout=60)
            assert rerun.status_code == 200, rerun.text
    finally:
        stack.stop()
    text = stream.getvalue()
    for secret in (*wx.state.tokens, settings.wechat_token, settings.wechat_app_secret, ADMIN_TOKEN):
        assert secret not in text, secret
    assert not SIGNED.search(text), SIGNED.search(text)
    assert "sim-u1" not in text or level == "DEBUG"  # users are hashed above debug
    return text


def test_at_info_the_libraries_say_nothing(tmp_path: Path, wx: FakeWeChatServer, root_logging: None) -> None:
    text = _session(tmp_path, wx, "INFO")
    assert "Running upgrade" not in text and '"logger": "alembic' not in text, text[-2000:]
    assert '"logger": "httpx"' not in text, text[-2000:]


def test_at_debug_nothing_signed_or_secret_either(tmp_path: Path, wx: FakeWeChatServer, root_logging: None) -> None:
    text = _session(tmp_path, wx, "DEBUG")
    assert "[redacted]" in text  # the signed URLs were logged, their values not


def test_a_signed_url_is_scrubbed_from_any_line() -> None:
    record = logging.LogRecord("x", logging.INFO, "", 0, "POST %s", (
        "http://h/wechat?timestamp=1796&nonce=ab12&signature=34c0ee&openid=oAbC&msg_signature=9f&x=1",), None)
    line = JsonFormatter().format(record)
    assert "1796" not in line and "ab12" not in line and "34c0ee" not in line and "oAbC" not in line
    assert "x=1" in line and line.count("[redacted]") == 5
    record = logging.LogRecord("x", logging.INFO, "", 0, "GET https://api/cgi-bin/message?access_token=tok-9", (), None)
    assert "tok-9" not in JsonFormatter().format(record)
