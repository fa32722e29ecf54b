"""WeChat API faults (40001, 45015, 45047, 43101, 5xx, timeouts) → every text is delivered, parked
for the user's next message, or recorded as refused; none silently lost, and a send whose outcome
is unknown is recorded and sent once more. Real Redis (DB 7 of the tests' server), the fake WeChat API over real HTTP."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import redis

from bot.delivery import DeliveryService, DeliveryStore, TemplateConfig
from bot.wechat.testkit import FakeWeChatServer
from tests.harness.edge import make_api
from tests.harness.redis_server import private_url

pytestmark = pytest.mark.redis
URL = private_url(7)


@pytest.fixture
def db7() -> Iterator[redis.Redis]:
    conn = redis.Redis.from_url(URL)
    conn.flushdb()
    yield conn
    conn.flushdb()
    conn.close()


def _where(wx: FakeWeChatServer, conn: redis.Redis, user: str, text: str) -> str:
    """Where ``text`` for ``user`` ended up: the channel it was sent on, parked, refused or LOST."""
    for sent in wx.state.sent_to(user):
        if sent.kind != "typing" and text in sent.text:
            return sent.kind
    store = DeliveryStore(conn)
    if any(text in p for p in store.parked(user)):
        return "parked"
    if any(o["status"] == "refused" for o in store.outcomes(user)):
        return "refused"
    return "LOST"


CASES = [
    # (endpoint, errcode, status, template configured, where the text must end up)
    ("custom", 40001, None, False, "custom"),  # stale token: refresh once and retry
    ("custom", 42001, None, False, "custom"),
    ("custom", 45015, None, True, "template"),  # 48-hour window closed: template message
    ("custom", 45015, None, False, "parked"),
    ("custom", 45047, None, True, "template"),  # quota used up
    ("custom", 45047, None, False, "parked"),
    ("custom", None, 503, False, "parked"),  # WeChat down: not taken in
    ("custom", None, 503, True, "parked"),
    ("custom", None, 502, False, "custom"),  # may have been acted on: recorded uncertain, sent again
    ("template", None, 500, True, "template"),
    ("custom", -1, None, False, "parked"),  # system busy
]


@pytest.mark.parametrize(("endpoint", "errcode", "status", "template", "expected"), CASES)
def test_each_fault_ends_delivered_parked_or_refused(db7: redis.Redis, wx: FakeWeChatServer, endpoint: str,
                                                     errcode: int | None, status: int | None, template: bool,
                                                     expected: str) -> None:
    api = make_api(wx, db7, timeout=1.0)
    service = DeliveryService(db7, api, templates=TemplateConfig(template_id="tpl-1" if template else None))
    service.store.on_user_message("u1", time.time())
    if endpoint == "template":
        wx.fail("custom", errcode=45015)
    wx.fail(endpoint, errcode=errcode, status=status)
    service.deliver("u1", "m1", ["第一条回复"], passive=False)
    assert _where(wx, db7, "u1", "第一条回复") == expected
    unknown = [o for o in DeliveryStore(db7).outcomes("u1") if o["status"] == "uncertain"]
    assert len(unknown) == (1 if status in (500, 502) else 0)
    if expected == "parked":  # the next touch carries it: prepended to the next passive reply
        service.store.on_user_message("u1", time.time())
        outcomes = service.deliver("u1", "m2", ["第二条"], passive=False)
        assert any("第一条回复" in o.text and o.status == "sent" for o in outcomes), outcomes


def test_timeouts_are_recorded_sent_once_more_then_parked(db7: redis.Redis, wx: FakeWeChatServer) -> None:
    api = make_api(wx, db7, timeout=0.3)
    service = DeliveryService(db7, api)
    service.store.on_user_message("u2", time.time())
    api.fetch_token()  # warm the token so that only the send is slow
    wx.state.latency["custom"] = 0.8  # the fake delivers after 0.8 s: each send times out, then arrives
    started = time.monotonic()
    service.deliver("u2", "m1", ["慢回复"], passive=False)
    assert time.monotonic() - started < 3.0  # bounded by the client timeout, twice
    wx.state.latency["custom"] = 0.0
    statuses = [o["status"] for o in DeliveryStore(db7).outcomes("u2")]
    assert statuses == ["uncertain", "uncertain", "parked"]
    service.deliver("u2", "m1", ["慢回复"], passive=False)  # a re-run of the same message
    assert DeliveryStore(db7).parked("u2") == ["慢回复"]
    time.sleep(1.0)
    assert len(wx.state.sent_to("u2", "custom")) == 2  # each copy beyond the first is a recorded uncertain


def test_user_refused_is_recorded_and_pushes_stop(db7: redis.Redis, wx: FakeWeChatServer) -> None:
    api = make_api(wx, db7, timeout=1.0)
    service = DeliveryService(db7, api, templates=TemplateConfig(subscribe_template_id="sub-1"))
    wx.fail("subscribe", errcode=43101)
    out = service.deliver("u3", "push-1", ["提醒：喝水"], passive=False)
    assert [o.status for o in out] == ["refused"]
    assert _where(wx, db7, "u3", "提醒：喝水") == "refused"
    assert [o.status for o in service.deliver("u3", "push-2", ["提醒：睡觉"], passive=False)] == ["dropped"]
    assert any(o["status"] == "dropped" for o in DeliveryStore(db7).outcomes("u3"))


def test_many_mixed_faults_none_lost(db7: redis.Redis, wx: FakeWeChatServer) -> None:
    api = make_api(wx, db7, timeout=1.0)
    service = DeliveryService(db7, api, templates=TemplateConfig(template_id="tpl-1"))
    faults = [(40001, None), (45015, None), (45047, None), (None, 500), (None, 502), (-1, None)]
    for i in range(60):
        user = f"m{i % 12}"
        service.store.on_user_message(user, time.time())
        errcode, status = faults[i % len(faults)]
        if i % 2:
            wx.fail("custom", errcode=errcode, status=status, user=user)
        service.deliver(user, f"k{i}", [f"回复{i}"], passive=False)
    lost = [i for i in range(60) if _where(wx, db7, f"m{i % 12}", f"回复{i}") == "LOST"]
    assert lost == []
