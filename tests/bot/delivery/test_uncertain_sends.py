"""Sends whose outcome is unknown: the fake WeChat API delivers and then times out or resets, the
adapter's failure is classified uncertain (or certain), and delivery records it and sends once more."""

from __future__ import annotations

import time

import pytest

from bot.bench import free_port
from bot.delivery import Channel, DeliveryService, outcome_unknown
from bot.wechat import WeChatAPIError, WeChatpyAPI
from bot.wechat.testkit import FakeWeChatServer
from runtime import keys
from tests.harness.edge import make_api


def _failure(api: WeChatpyAPI) -> WeChatAPIError:
    with pytest.raises(WeChatAPIError) as info:
        api.send_text("u1", "在吗")
    return info.value


@pytest.mark.parametrize("after", ["timeout", "reset"])
def test_delivered_then_cut_off_is_an_unknown_outcome(wx: FakeWeChatServer, fake_redis, after: str) -> None:
    api = make_api(wx, fake_redis, timeout=0.5)
    api.fetch_token()
    wx.fail("custom", after=after, hang_s=2.0)
    started = time.monotonic()
    assert outcome_unknown(_failure(api))
    assert time.monotonic() - started < 1.5  # the client's timeout, not the server's hang
    assert [s.text for s in wx.state.sent] == ["在吗"]  # it did reach the user


@pytest.mark.parametrize(("errcode", "status", "unknown"), [
    (None, 500, True), (None, 502, True), (None, 504, True),  # WeChat may have acted on it
    (None, 503, False), (-1, None, False), (45047, None, False),  # it said no
])
def test_what_an_answer_says_about_the_outcome(wx: FakeWeChatServer, fake_redis, errcode: int | None,
                                              status: int | None, unknown: bool) -> None:
    api = make_api(wx, fake_redis, timeout=1.0)
    wx.fail("custom", errcode=errcode, status=status)
    assert outcome_unknown(_failure(api)) is unknown


def test_a_refused_connection_or_a_missing_token_sent_nothing(wx: FakeWeChatServer, fake_redis) -> None:
    fake_redis.set(keys.access_token(wx.state.app_id), "tok-cached")
    dead = WeChatpyAPI(app_id=wx.state.app_id, secret=wx.state.secret, base_url=f"http://127.0.0.1:{free_port()}",
                       tokens=make_api(wx, fake_redis)._tokens, timeout=0.5)
    assert not outcome_unknown(_failure(dead))
    fake_redis.delete(keys.access_token(wx.state.app_id))
    wx.fail("stable_token", status=500)
    assert not outcome_unknown(_failure(make_api(wx, fake_redis, timeout=0.5)))


def test_random_faults_come_at_their_rate_and_are_reproducible(wx: FakeWeChatServer, fake_redis) -> None:
    api = make_api(wx, fake_redis, timeout=1.0)

    def run() -> list[bool]:
        wx.fail_randomly("custom", 0.3, seed=7, errcode=-1)
        out = []
        for _ in range(40):
            try:
                api.send_text("u1", "x")
                out.append(True)
            except WeChatAPIError:
                out.append(False)
        return out

    first, second = run(), run()
    assert first == second and 5 <= first.count(False) <= 20
    wx.fail_randomly("custom", 0.0)
    api.send_text("u1", "y")


def test_an_unknown_outcome_is_recorded_and_sent_again_once(wx: FakeWeChatServer, fake_redis) -> None:
    svc = DeliveryService(fake_redis, make_api(wx, fake_redis, timeout=0.4))
    svc.store.on_user_message("u1", time.time())
    svc.api.fetch_token()
    wx.fail("custom", after="timeout", hang_s=1.0)
    out = svc.deliver("u1", "m1", ["回复"], passive=False)
    assert [(o.channel, o.status) for o in out] == [(Channel.CUSTOM, "uncertain"), (Channel.CUSTOM, "sent")]
    assert [s.text for s in wx.state.sent] == ["回复", "回复"]  # the user got it twice, and it is recorded:
    assert [o["status"] for o in svc.store.outcomes("u1")] == ["uncertain", "sent"]
    assert svc.store.quota("u1").message_used == 2
    assert svc.deliver("u1", "m1", ["回复"], passive=False)[0].status == "duplicate"  # a re-run sends nothing


def test_a_second_unknown_outcome_parks_the_piece_instead_of_a_third_send(wx: FakeWeChatServer,
                                                                          fake_redis) -> None:
    svc = DeliveryService(fake_redis, make_api(wx, fake_redis, timeout=0.4))
    svc.store.on_user_message("u1", time.time())
    svc.api.fetch_token()
    wx.fail("custom", after="reset", times=2)
    out = svc.deliver("u1", "m1", ["回复"], passive=False)
    assert [o.status for o in out] == ["uncertain", "uncertain", "parked"]
    assert len(wx.state.sent) == 2 and svc.store.parked("u1") == ["回复"]
    assert [o["status"] for o in svc.store.outcomes("u1")] == ["uncertain", "uncertain", "parked"]


def test_stats_count_the_uncertain_sends(fake_redis) -> None:
    from bot.admin.overview import collect_stats
    from bot.commands.stats import render
    from runtime.transcript import Transcript

    transcript = Transcript(fake_redis)
    for status in ("uncertain", "sent", "resent_uncertain", "sent"):
        transcript.record_delivery("u1", "回复", "custom", status, ref="m1")
    data = collect_stats(fake_redis)
    assert data["turns"]["uncertain_deliveries"] == 2
    assert any(line.endswith(": 2") and line.startswith("uncertain sends") for line in render(data))
