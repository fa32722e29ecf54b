"""A passive reply is only ever taken by a request that can still deliver it, recorded as sent only
when it was answered in time, and never overtaken by the user's next reply (real Redis).

Each webhook request is an :class:`Attempt` whose limits come from when it reached the host; here
they are built from a chosen arrival, so a request "read late" is one that arrived in the past.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
import redis

from bot.delivery import DeliveryService
from bot.delivery import handoff as handoff_module
from bot.delivery.handoff import Attempt, Handoff
from bot.queue import Mailbox, sweep_once
from bot.wechat.testkit import FakeWeChatServer
from runtime import keys
from tests.harness.edge import make_api
from tests.harness.redis_server import flushed_db, private_url

pytestmark = pytest.mark.redis


@pytest.fixture
def conn() -> Iterator[redis.Redis]:
    yield from flushed_db(private_url(13))


class Jobs:
    """A dispatcher that only keeps the late deliveries handed to it."""

    def __init__(self) -> None:
        self.late: list[tuple[str, str, str]] = []

    def drain(self, user: str, *, force: bool = False) -> None:
        pass

    def released(self, user: str, message_key: str, reply: str) -> None:
        self.late.append((user, message_key, reply))


def attempt(ago: float = 0.0) -> Attempt:
    """A request that reached the host ``ago`` seconds ago (WeChat's timing: 4.5 s wait, 5 s patience)."""
    return Attempt.of(time.time() - ago, wait_s=4.5, answer_s=5.0)


def admit(conn: redis.Redis, user: str, key: str, request: Attempt | None) -> Handoff:
    now = time.time()
    Mailbox(conn).admit(user, key, "{}", limit=0, deadline=now + 16, now=now, waits=request is not None,
                        attempt=request)
    return Handoff(conn)


def outcomes(conn: redis.Redis, user: str) -> list[tuple[str, str]]:
    return [(f[b"channel"].decode(), f[b"status"].decode()) for _, f in conn.xrange(keys.outcomes(user))]


def test_a_request_past_its_time_never_takes_the_reply_and_the_next_attempt_does(conn: redis.Redis) -> None:
    first = attempt(ago=3.5)  # read late: it may be offered a reply for 1 s more, and take one for 1.17 s
    handoff = admit(conn, "u1", "m1", first)
    assert handoff.offer("u1", "m1", "回复")
    time.sleep(max(0.0, first.claim_by - time.time()) + 0.05)  # frozen between the offer and its look
    assert handoff.poll("u1", "m1", first) == ("late", "")  # WeChat gave up on it: not its to answer
    assert handoff.state("u1", "m1") == "ready"
    retry = attempt()
    opened = Mailbox(conn).admit("u1", "m1", "{}", limit=0, deadline=time.time() + 16, now=time.time(),
                                 attempt=retry).opened
    assert (opened.state, opened.attempt) == ("ready", 2)
    assert handoff.poll("u1", "m1", retry) == ("taken", "回复")
    assert handoff.confirm("u1", "m1", retry, in_time=True) == "sent"
    assert outcomes(conn, "u1") == [("passive", "sent")]


def test_only_one_of_two_waiting_requests_takes_the_reply(conn: redis.Redis) -> None:
    first, second = attempt(), attempt()
    handoff = admit(conn, "u1", "m1", first)
    assert handoff.offer("u1", "m1", "回复")
    assert handoff.poll("u1", "m1", second) == ("taken", "回复")
    assert handoff.poll("u1", "m1", first) == ("other", "")  # answered with nothing: not an empty reply
    assert handoff.release("u1", "m1", first) == ("other", "")


def test_an_answer_written_too_late_is_given_back_and_recorded_uncertain(conn: redis.Redis) -> None:
    first = attempt()
    handoff = admit(conn, "u1", "m1", first)
    assert handoff.offer("u1", "m1", "回复")
    assert handoff.poll("u1", "m1", first) == ("taken", "回复")
    assert handoff.confirm("u1", "m1", first, in_time=False, last=False) == "uncertain"
    assert handoff.state("u1", "m1") == "ready"  # for WeChat's next attempt
    retry = attempt()
    assert handoff.poll("u1", "m1", retry) == ("taken", "回复")
    assert handoff.confirm("u1", "m1", first, in_time=True) == "moved"  # not its any more
    assert handoff.confirm("u1", "m1", retry, in_time=True) == "sent"
    assert outcomes(conn, "u1") == [("passive", "uncertain"), ("passive", "sent")]
    # the last attempt's late answer: the reply is due at once for the API path
    last = attempt()
    admit(conn, "u1", "m2", last)
    assert handoff.offer("u1", "m2", "第二条") and handoff.poll("u1", "m2", last)[0] == "taken"
    assert handoff.confirm("u1", "m2", last, in_time=False, last=True) == "uncertain"
    assert handoff.state("u1", "m2") == "released_ready"
    assert handoff.due(time.time() + 0.01) == [("u1", "m2")]


def test_wechats_retry_takes_back_a_reply_an_earlier_attempt_took_but_a_stale_one_does_not(
        conn: redis.Redis) -> None:
    first = attempt(ago=5.0)
    handoff = admit(conn, "u1", "m1", attempt())
    handoff.offer("u1", "m1", "回复")
    conn.hset(keys.handoff("u1", "m1"), mapping={"state": "taken", "taker": first.token,
                                                  "taker_arrived": f"{first.arrived:.6f}", "write_by": "0"})
    stale = attempt(ago=6.0)  # processed late, but sent before the taker: no evidence of anything
    assert Mailbox(conn).admit("u1", "m1", "{}", limit=0, deadline=0, now=time.time(),
                               attempt=stale).opened.state == "taken"
    retry = attempt()  # WeChat tried again: the taker's answer never reached it
    opened = Mailbox(conn).admit("u1", "m1", "{}", limit=0, deadline=0, now=time.time(), attempt=retry).opened
    assert (opened.state, opened.text) == ("taken", "回复")
    assert handoff.confirm("u1", "m1", retry, in_time=True) == "sent"
    again = Attempt.of(time.time() + 1.5, wait_s=4.5, answer_s=5.0)  # even after a confirmed answer
    opened = Mailbox(conn).admit("u1", "m1", "{}", limit=0, deadline=0, now=time.time(), attempt=again).opened
    assert (opened.state, opened.text) == ("taken", "回复")
    assert outcomes(conn, "u1") == [("passive", "sent"), ("passive", "retried")]


def test_a_reply_for_a_request_past_its_time_goes_through_the_api_at_once(conn: redis.Redis,
                                                                          wx: FakeWeChatServer) -> None:
    svc = DeliveryService(conn, make_api(wx, conn))
    svc.store.on_user_message("u1", time.time())
    handoff = admit(conn, "u1", "m1", attempt(ago=4.6))  # the only request can no longer be offered a reply
    out = svc.deliver("u1", "m1", ["回复"])
    assert [(o.channel, o.status) for o in out] == [("custom", "sent")]
    assert handoff.state("u1", "m1") == "released"  # WeChat's next attempt is answered at once
    assert [s.text for s in wx.state.sent_to("u1", "custom")] == ["回复"]


def test_the_next_reply_waits_for_the_open_passive_reply_and_sends_it_first(conn: redis.Redis,
                                                                            wx: FakeWeChatServer) -> None:
    svc = DeliveryService(conn, make_api(wx, conn))
    svc.store.on_user_message("u1", time.time())
    request = attempt(ago=3.8)  # a reply may be offered to it for 0.7 s more, and taken for 0.87 s
    handoff = admit(conn, "u1", "m1", request)
    assert [o.status for o in svc.deliver("u1", "m1", ["第一条"])] == ["offered"]
    admit(conn, "u1", "m2", None)  # the next message; the request of the first never looks again
    out = svc.deliver("u1", "m2", ["第二条"])
    assert [(o.channel, o.status) for o in out] == [("custom", "sent")]
    sent = wx.state.sent_to("u1", "custom")
    assert [s.text for s in sent] == ["第一条", "第二条"]  # in order
    assert sent[0].at >= request.claim_by  # not before the request could no longer take it
    assert handoff.state("u1", "m1") == "sent_late" and not conn.hexists(keys.user_flags("u1"), "offered")
    assert handoff.due(time.time() + 3600) == []


def test_the_next_reply_goes_out_once_the_open_one_was_answered(conn: redis.Redis, wx: FakeWeChatServer) -> None:
    svc = DeliveryService(conn, make_api(wx, conn))
    svc.store.on_user_message("u1", time.time())
    request = attempt()
    handoff = admit(conn, "u1", "m1", request)
    assert [o.status for o in svc.deliver("u1", "m1", ["第一条"])] == ["offered"]
    answered: list[float] = []

    def webhook() -> None:  # the request answers a moment later
        assert handoff.poll("u1", "m1", request) == ("taken", "第一条")
        answered.append(time.time())
        handoff.confirm("u1", "m1", request, in_time=True)

    threading.Timer(0.2, webhook).start()
    out = svc.deliver("u1", "m2", ["第二条"])
    assert [(o.channel, o.status) for o in out] == [("custom", "sent")]
    sent = wx.state.sent_to("u1", "custom")
    assert [s.text for s in sent] == ["第二条"] and sent[0].at >= answered[0]
    assert outcomes(conn, "u1") == [("passive", "sent"), ("custom", "sent")]


def test_a_reply_taken_by_an_answer_never_confirmed_is_sent_again_and_recorded_uncertain(
        conn: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(handoff_module, "CONFIRM_GRACE_S", 0.1)
    request = Attempt.of(time.time(), wait_s=1.5, answer_s=2.0)
    handoff = admit(conn, "u1", "m1", request)
    handoff.offer("u1", "m1", "回复")
    assert handoff.poll("u1", "m1", request)[0] == "taken"  # then the webhook died before confirming

    jobs = Jobs()
    sweep_once(conn, jobs, now=time.time() + 60)
    assert jobs.late == []  # its answer may still be confirmed
    time.sleep(max(0.0, request.write_by + 0.1 - time.time()) + 0.05)
    conn.delete(keys.sweep_lock())
    sweep_once(conn, jobs, now=time.time() + 60)
    assert jobs.late == [("u1", "m1", "回复")]
    assert outcomes(conn, "u1") == [("passive", "uncertain")]  # it may have reached the user


def test_a_long_reply_goes_on_through_the_api_only_after_its_passive_piece_was_answered(
        conn: redis.Redis, wx: FakeWeChatServer) -> None:
    svc = DeliveryService(conn, make_api(wx, conn))
    svc.store.on_user_message("u1", time.time())
    request = attempt()
    handoff = admit(conn, "u1", "m1", request)
    answered: list[float] = []

    def webhook() -> None:
        assert handoff.poll("u1", "m1", request)[0] == "taken"
        answered.append(time.time())
        handoff.confirm("u1", "m1", request, in_time=True)

    threading.Timer(0.2, webhook).start()
    out = svc.deliver("u1", "m1", ["长" * 1000])  # two pieces: the first passive, the second custom
    assert [(o.channel, o.status) for o in out] == [("passive", "offered"), ("custom", "sent")]
    assert wx.state.sent_to("u1", "custom")[0].at >= answered[0]


def test_the_sweeper_leaves_a_reply_someone_took_over_since_it_read_the_list(conn: redis.Redis) -> None:
    handoff = admit(conn, "u1", "m1", attempt(ago=10))
    conn.hset(keys.handoff("u1", "m1"), mapping={"state": "released_ready", "text": "回复"})
    conn.zadd(keys.handoff_deadlines(), {"u1|m1": time.time() - 1})
    assert handoff.due(time.time()) == [("u1", "m1")]  # the sweeper reads the list …
    assert handoff.take_over("u1", "m1") == ("late", "回复")  # … a worker takes it over meanwhile …
    assert handoff.release_late("u1", "m1", time.time()) == ("owned", "")  # … so no second late job
