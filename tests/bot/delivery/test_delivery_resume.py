"""A delivery cut short by a crash (the worker SIGKILLed) and run again: it sends exactly the pieces
it had packed, the parked texts it carried are neither lost nor sent twice unrecorded, and they
leave the parked list only when the delivery carrying them is settled."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bot.delivery import Channel, DeliveryService
from bot.wechat.testkit import FakeWeChatServer
from tests.harness.edge import make_api


class Killed(BaseException):
    """The worker died (nothing after this point of the delivery ran)."""


class DiesAt:
    """The real API, but the process dies at the ``nth`` custom send, ``before`` or after it."""

    def __init__(self, api: Any, nth: int, *, before: bool) -> None:
        self._api, self._nth, self._before = api, nth, before
        self.calls = 0

    def send_text(self, user: str, text: str) -> None:
        self.calls += 1
        if self.calls == self._nth and self._before:
            raise Killed
        self._api.send_text(user, text)
        if self.calls == self._nth:
            raise Killed

    def __getattr__(self, name: str) -> Any:
        return getattr(self._api, name)


def services(wx: FakeWeChatServer, conn, nth: int, *, before: bool) -> tuple[DeliveryService, DeliveryService]:
    api = make_api(wx, conn)
    api.fetch_token()
    dying = DeliveryService(conn, DiesAt(api, nth, before=before))
    dying.store.on_user_message("u1", time.time())
    return dying, DeliveryService(conn, api)


def custom(wx: FakeWeChatServer) -> list[str]:
    return [s.text for s in wx.state.sent if s.kind == "custom"]


@pytest.mark.parametrize("before", [True, False])
def test_a_rerun_sends_what_the_first_attempt_packed_parked_text_included(wx: FakeWeChatServer, fake_redis,
                                                                        before: bool) -> None:
    dying, rerun = services(wx, fake_redis, 1, before=before)
    dying.store.park("u1", "ack1")  # an earlier reply WeChat could not take
    with pytest.raises(Killed):
        dying.deliver("u1", "m2", ["ack2"], passive=False)
    assert dying.store.parked("u1") == ["ack1"]  # not settled yet: still parked
    out = rerun.deliver("u1", "m2", ["ack2"], passive=False)
    assert [(o.status, o.text) for o in out] == [("resent_uncertain", "ack1\n\nack2"), ("sent", "ack1\n\nack2")]
    assert rerun.store.parked("u1") == []
    # died before the call: the user got it once; after: twice, and that one is recorded
    assert custom(wx) == ["ack1\n\nack2"] * (1 if before else 2)
    statuses = [o["status"] for o in rerun.store.outcomes("u1")]
    assert statuses == ["resent_uncertain", "sent"]
    assert rerun.deliver("u1", "m2", ["ack2"], passive=False)[0].status == "duplicate"


def test_a_rerun_resumes_a_long_reply_after_its_settled_pieces(wx: FakeWeChatServer, fake_redis) -> None:
    dying, rerun = services(wx, fake_redis, 2, before=True)
    dying.store.park("u1", "昨天的回复")
    texts = ["第一段。" * 150, "第二段。" * 150]  # ~3.6 KB with the parked text: two messages
    with pytest.raises(Killed):
        dying.deliver("u1", "m1", texts, passive=False)
    assert len(custom(wx)) == 1 and custom(wx)[0].startswith("昨天的回复\n\n第一段。")
    assert dying.store.parked("u1") == ["昨天的回复"]  # its delivery is not settled yet
    out = rerun.deliver("u1", "m1", texts, passive=False)
    assert [o.status for o in out] == ["duplicate", "resent_uncertain", "sent"]
    assert len(custom(wx)) == 2
    assert "".join(custom(wx)).replace("\n", "") == ("昨天的回复" + "".join(texts)).replace("\n", "")
    assert rerun.store.parked("u1") == []


def test_a_reply_that_fails_is_parked_in_the_step_that_settles_it(wx: FakeWeChatServer, fake_redis) -> None:
    svc = DeliveryService(fake_redis, make_api(wx, fake_redis))
    svc.store.on_user_message("u1", time.time())
    svc.store.park("u1", "ack1")
    wx.fail("custom", status=503)
    out = svc.deliver("u1", "m2", ["ack2"], passive=False)
    assert [(o.channel, o.status) for o in out] == [(Channel.PARK, "parked")]
    assert svc.store.parked("u1") == ["ack1\n\nack2"]  # carried, failed, parked again: once
    assert svc.deliver("u1", "m3", ["ack3"], passive=False)[0].text == "ack1\n\nack2\n\nack3"
    assert svc.store.parked("u1") == [] and custom(wx) == ["ack1\n\nack2\n\nack3"]


def test_pushes_leave_parked_texts_for_the_users_next_reply(wx: FakeWeChatServer, fake_redis) -> None:
    svc = DeliveryService(fake_redis, make_api(wx, fake_redis))
    svc.store.on_user_message("u1", time.time())
    svc.store.park("u1", "ack1")
    svc.deliver("u1", "reminder:1", ["该喝水了"], passive=False, carry_parked=False)
    assert custom(wx) == ["该喝水了"] and svc.store.parked("u1") == ["ack1"]
