"""The wechatpy adapter against the fake WeChat API over real HTTP."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
import redis

from bot.wechat import (
    AccessTokenInvalid,
    OutsideWindow,
    QuotaExceeded,
    UserRefused,
    WeChatAPIError,
    WeChatUnavailable,
)
from bot.wechat.testkit import FakeWeChatServer
from runtime import keys
from tests.harness.edge import REAL_REDIS_URL, make_api


def test_send_text_reaches_the_fake_server_with_a_shared_token(wx: FakeWeChatServer, fake_redis) -> None:
    api = make_api(wx, fake_redis)
    api.send_text("u1", "你好")
    api.typing("u1")
    msgid = api.send_template("u1", "tmpl-1", {"content": "提醒"})
    api.send_subscribe("u1", "sub-1", {"thing1": "提醒"})
    assert [s.kind for s in wx.state.sent] == ["custom", "typing", "template", "subscribe"]
    assert wx.state.sent[0].text == "你好" and wx.state.sent[2].text == "提醒"
    assert msgid > 0
    assert wx.state.token_fetches == 1
    ttl = fake_redis.ttl(keys.access_token(wx.state.app_id))
    assert 7200 - 300 - 5 < ttl <= 7200 - 300


@pytest.mark.parametrize(
    ("code", "error"),
    [(45015, OutsideWindow), (45047, QuotaExceeded), (43101, UserRefused), (40003, WeChatAPIError)],
)
def test_errcodes_map_onto_the_error_tree(wx: FakeWeChatServer, fake_redis, code: int, error: type) -> None:
    api = make_api(wx, fake_redis)
    wx.fail("custom", errcode=code)
    with pytest.raises(error) as info:
        api.send_text("u1", "x")
    assert info.value.code == code
    assert wx.state.sent == []


def test_http_5xx_and_timeouts_are_unavailable(wx: FakeWeChatServer, fake_redis) -> None:
    api = make_api(wx, fake_redis, timeout=0.3)
    wx.fail("custom", status=502)
    with pytest.raises(WeChatUnavailable) as info:
        api.send_text("u1", "x")
    assert info.value.status == 502
    wx.state.latency["custom"] = 1.0
    with pytest.raises(WeChatUnavailable):
        api.send_text("u1", "x")


def test_expired_token_is_refreshed_once_then_the_call_is_retried(wx: FakeWeChatServer, fake_redis) -> None:
    api = make_api(wx, fake_redis)
    api.send_text("u1", "first")
    wx.state.expire_tokens()
    api.send_text("u1", "second")
    assert [s.text for s in wx.state.sent] == ["first", "second"]
    assert wx.state.token_fetches == 2


def test_a_second_token_rejection_is_raised_not_looped(wx: FakeWeChatServer, fake_redis) -> None:
    api = make_api(wx, fake_redis)
    api.send_text("u1", "first")
    wx.fail("custom", errcode=40001, times=2)
    with pytest.raises(AccessTokenInvalid):
        api.send_text("u1", "x")
    assert wx.state.token_fetches == 2


def test_the_adapter_never_calls_the_real_wechat_host(wx: FakeWeChatServer, fake_redis) -> None:
    api = make_api(wx, fake_redis)
    client = api._client
    assert client.rebase("https://api.weixin.qq.com/customservice/kfaccount/add") == (
        wx.url + "/customservice/kfaccount/add"
    )
    assert client.API_BASE_URL.startswith(wx.url)


_RACER = textwrap.dedent(
    """
    import sys, redis
    from bot.wechat import AccessTokenService
    from bot.wechat.adapter import StableTokenFetcher
    url, app_id, secret, base = sys.argv[1:5]
    conn = redis.Redis.from_url(url)
    sys.stdin.readline()
    svc = AccessTokenService(conn, StableTokenFetcher(app_id, secret, base_url=base), app_id=app_id)
    print(svc.get())
    """
)


@pytest.mark.redis
def test_two_processes_racing_fetch_the_token_once(wx: FakeWeChatServer, real_redis: redis.Redis) -> None:
    wx.state.latency["stable_token"] = 0.3
    args = [sys.executable, "-c", _RACER, REAL_REDIS_URL, wx.state.app_id, wx.state.secret, wx.url]
    procs = [subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate("go\n", timeout=20)[0].strip() for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert outs[0] == outs[1] and outs[0].startswith("tok-")
    assert wx.state.token_fetches == 1
