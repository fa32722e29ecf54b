"""Delivery paths end to end against the fake WeChat API (real HTTP) and fakeredis."""

from __future__ import annotations

import hashlib
import time

import pytest

from bot.delivery import OFFER_OR_READ, Channel, DeliveryService, TemplateConfig
from bot.delivery.handoff import Attempt
from bot.delivery.service import Started
from bot.wechat.testkit import FakeWeChatServer
from tests.harness.edge import make_api

NOW = 1_800_000_000.0


class Clock:
    def __init__(self) -> None:
        self.t = NOW

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock() -> Clock:
    return Clock()


def service(wx, conn, clock, **tmpl) -> DeliveryService:
    return DeliveryService(conn, make_api(wx, conn), templates=TemplateConfig(**tmpl), clock=clock)


def answered(svc: DeliveryService, user: str, key: str) -> str:
    """What a waiting webhook request answers with (taken, written in time and confirmed)."""
    attempt = Attempt.of(time.time(), wait_s=4.5, answer_s=5.0)
    state, text = svc.handoff.poll(user, key, attempt)
    assert state == "taken", state
    assert svc.handoff.confirm(user, key, attempt, in_time=True) == "sent"
    return text


def test_five_custom_messages_per_48h_then_template(wx: FakeWeChatServer, fake_redis, clock) -> None:
    svc = service(wx, fake_redis, clock, template_id="tmpl")
    svc.store.on_user_message("u1", NOW - 60)
    for i in range(6):
        svc.deliver("u1", f"push-{i}", [f"提醒 {i}"])
    assert [s.kind for s in wx.state.sent] == ["custom"] * 5 + ["template"]
    clock.t = NOW + 48 * 3600
    svc.deliver("u1", "push-late", ["迟到的提醒"])
    assert wx.state.sent[-1].kind == "template"
    channels = [o["channel"] for o in svc.store.outcomes("u1")]
    assert channels == ["custom"] * 5 + ["template", "template"]


def test_interaction_allows_three_within_a_minute(wx: FakeWeChatServer, fake_redis, clock) -> None:
    svc = service(wx, fake_redis, clock)
    svc.store.on_interaction("u1", NOW)
    outs = [svc.deliver("u1", f"m{i}", [f"第{i}条"])[0] for i in range(4)]
    assert [o.channel for o in outs] == [Channel.CUSTOM] * 3 + [Channel.PARK]


def test_parked_text_is_prepended_to_the_next_passive_reply(wx: FakeWeChatServer, fake_redis, clock) -> None:
    svc = service(wx, fake_redis, clock)
    assert svc.deliver("u1", "push-1", ["晚上9点倒垃圾"])[0].channel is Channel.PARK
    svc.handoff.open("u1", "msg-2", deadline=NOW + 15)
    out = svc.deliver("u1", "msg-2", ["你好"])
    assert [o.channel for o in out] == [Channel.PASSIVE]
    assert answered(svc, "u1", "msg-2") == "晚上9点倒垃圾\n\n你好"
    assert svc.store.parked("u1") == []
    assert wx.state.sent == []


@pytest.mark.parametrize(("code", "tmpl", "expected"), [
    (45015, {"template_id": "t"}, "template"),
    (45047, {"subscribe_template_id": "s"}, "subscribe"),
    (45015, {}, None),
])
def test_window_or_quota_refusal_falls_back(wx: FakeWeChatServer, fake_redis, clock, code, tmpl, expected) -> None:
    svc = service(wx, fake_redis, clock, **tmpl)
    svc.store.on_user_message("u1", NOW)
    wx.fail("custom", errcode=code)
    out = svc.deliver("u1", "m1", ["内容"])
    assert out[0].status == "blocked" and out[0].code == code
    assert [s.kind for s in wx.state.sent] == ([expected] if expected else [])
    if expected is None:
        assert svc.store.parked("u1") == ["内容"]
    # the quota is treated as used up: the next push does not try custom again
    svc.deliver("u1", "m2", ["再来"])
    assert all(s.kind != "custom" for s in wx.state.sent)


def test_user_refused_stops_everything(wx: FakeWeChatServer, fake_redis, clock) -> None:
    svc = service(wx, fake_redis, clock, subscribe_template_id="s")
    wx.fail("subscribe", errcode=43101)
    out = svc.deliver("u1", "m1", ["a" * 2000, "b" * 2000])
    assert [o.status for o in out] == ["refused", "dropped"]
    assert svc.deliver("u1", "m2", ["c"])[0].channel is Channel.DROP
    assert wx.state.sent == []


def test_unsubscribed_user_gets_no_push_and_5xx_parks(wx: FakeWeChatServer, fake_redis, clock) -> None:
    svc = service(wx, fake_redis, clock)
    svc.store.on_user_message("u1", NOW)
    svc.store.set_flag("u2", "unsubscribed")
    assert svc.deliver("u2", "m1", ["x"])[0].channel is Channel.DROP
    wx.fail("custom", status=503)
    assert svc.deliver("u1", "m1", ["y"])[0].status == "parked"
    assert svc.store.parked("u1") == ["y"]


def test_a_redelivered_reply_is_sent_once(wx: FakeWeChatServer, fake_redis, clock) -> None:
    svc = service(wx, fake_redis, clock)
    svc.store.on_user_message("u1", NOW)
    svc.deliver("u1", "m1", ["只发一次"])
    again = svc.deliver("u1", "m1", ["只发一次"])
    assert again[0].status == "duplicate"
    assert len(wx.state.sent) == 1


def test_long_text_spends_one_quota_per_2048_bytes(wx: FakeWeChatServer, fake_redis, clock) -> None:
    svc = service(wx, fake_redis, clock)
    svc.store.on_user_message("u1", NOW)
    svc.deliver("u1", "m1", ["短句。", "长" * 1000, "尾巴"])  # 3000+ bytes → 2 messages, not 3
    assert len(wx.state.sent) == 2
    assert all(len(s.text.encode()) <= 2048 for s in wx.state.sent)
    assert svc.store.quota("u1").message_used == 2


def _start(svc: DeliveryService, conn, user: str, key: str, texts: list[str]):
    pipe = conn.pipeline(transaction=False)
    pipe.get("unrelated")  # the caller's own commands come first
    start = svc.queue_start(pipe, user, key, texts)
    return start.read(pipe.execute(raise_on_error=False)[start.index:])


@pytest.mark.parametrize("conn_name", ["fake_redis", "real_redis"])
def test_a_started_passive_piece_is_settled_in_the_callers_round_trip(wx: FakeWeChatServer, clock, request,
                                                                      conn_name) -> None:
    conn = request.getfixturevalue(conn_name)
    svc = service(wx, conn, clock)
    conn.script_load(OFFER_OR_READ)
    svc.handoff.open("u1", "m1", deadline=NOW + 15)
    started = _start(svc, conn, "u1", "m1", ["你好"])
    assert started.outcome is not None and (started.outcome.channel, started.outcome.status) == ("passive", "offered")
    assert svc.deliver("u1", "m1", ["你好"], started=started) == [started.outcome]
    assert answered(svc, "u1", "m1") == "你好"
    again = _start(svc, conn, "u1", "m1", ["你好"])  # e.g. a re-run after a crash: settled before
    assert again.outcome is None and again.snapshot is not None and again.snapshot.handoff_state == "delivered"
    assert svc.deliver("u1", "m1", ["你好"], started=again)[0].status == "duplicate"
    assert wx.state.sent == []
    assert [o["channel"] for o in svc.store.outcomes("u1")] == ["passive"]


@pytest.mark.parametrize("conn_name", ["fake_redis", "real_redis"])
def test_a_start_that_cannot_offer_reads_the_snapshot_instead(wx: FakeWeChatServer, clock, request,
                                                              conn_name) -> None:
    conn = request.getfixturevalue(conn_name)
    svc = service(wx, conn, clock)
    svc.store.on_user_message("u1", NOW)
    conn.script_flush()
    assert _start(svc, conn, "u1", "m0", ["x"]).snapshot is None  # unknown script: nothing ran, read anew
    assert conn.script_exists(hashlib.sha1(OFFER_OR_READ.encode()).hexdigest()) == [True]
    # parked text: the passive reply must carry it too, so nothing is offered yet
    svc.store.park("u1", "晚上9点倒垃圾")
    svc.store.set_flag("u1", "refused")
    svc.handoff.open("u1", "m1", deadline=NOW + 15)
    started = _start(svc, conn, "u1", "m1", ["你好"])
    assert started.outcome is None and started.snapshot is not None
    snap = started.snapshot
    assert (snap.handoff_state, snap.parked, snap.flags) == ("waiting", ["晚上9点倒垃圾"],
                                                             {"unsubscribed": False, "refused": True})
    assert snap.quota.last_message_at == NOW and snap.quota.message_used == 0
    assert [o.channel for o in svc.deliver("u1", "m1", ["你好"], started=started)] == [Channel.PASSIVE]
    assert answered(svc, "u1", "m1") == "晚上9点倒垃圾\n\n你好"
    # nobody waits: the snapshot, and the reply goes through the API
    svc.store.set_flag("u1", "refused", on=False)
    started = _start(svc, conn, "u1", "m2", ["再见"])
    assert started.outcome is None and started.snapshot is not None and started.snapshot.handoff_state == ""
    assert [o.channel for o in svc.deliver("u1", "m2", ["再见"], started=started)] == [Channel.CUSTOM]
    # more than one passive piece: the plain snapshot reads
    svc.handoff.open("u1", "m3", deadline=NOW + 15)
    pipe = conn.pipeline(transaction=False)
    assert svc.queue_start(pipe, "u1", "m3", ["长" * 1000]).offered is None and len(pipe) == 5


def test_a_start_waits_for_the_turns_marker(wx: FakeWeChatServer, fake_redis, clock) -> None:
    svc = service(wx, fake_redis, clock)
    svc.handoff.open("u1", "m1", deadline=NOW + 15)

    def start() -> Started:
        pipe = fake_redis.pipeline(transaction=False)
        pending = svc.queue_start(pipe, "u1", "m1", ["你好"], saved_by="turn-marker")
        return pending.read(pipe.execute(raise_on_error=False)[pending.index:])

    nothing = start()  # the turn was not stored (its marker is absent): nothing offered, nothing read
    assert nothing.outcome is None and nothing.snapshot is None
    assert svc.store.snapshot("u1", "m1").handoff_state == "waiting"
    fake_redis.set("turn-marker", "1")
    offered = start()
    assert offered.outcome is not None and offered.outcome.status == "offered"
