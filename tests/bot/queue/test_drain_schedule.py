"""The ready list and capped drainer jobs (real Redis DB 11): no lost wake-up, cap, recovery."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from bot.delivery import DeliveryService, DeliveryStore
from bot.delivery.handoff import Attempt, Handoff
from bot.queue import DrainSchedule, Mailbox, RQDispatcher, make_queue
from bot.queue.sweeper import sweep_once
from bot.wechat.inbound import parse_message
from bot.wechat.testkit import FakeWeChatServer, MessageFactory
from bot.wechat.testkit.echo import EchoEngine
from bot.worker import UnrecordedTurns, WorkerDeps, drain_ready
from runtime import keys
from tests.harness.edge import make_api, run_jobs_with
from tests.harness.redis_server import flushed_db, private_url

pytestmark = pytest.mark.redis
M = MessageFactory()


@pytest.fixture
def conn() -> Iterator[redis.Redis]:
    yield from flushed_db(private_url(11))


def admit(conn: redis.Redis, dispatch: RQDispatcher, xml: str, *, waits: bool = False) -> str:
    msg = parse_message(xml)
    now = time.time()
    got = Mailbox(conn).admit(msg.user, msg.message_key, msg.to_json(), limit=0, deadline=now + 60, now=now,
                              waits=waits)
    if got.claimed:
        dispatch.drain(msg.user)
    return msg.message_key


def test_the_cap_counts_live_drainers_and_force_passes_it(conn: redis.Redis) -> None:
    schedule = DrainSchedule(conn, max_drainers=2)
    first, second = schedule.push("a"), schedule.push("b")
    assert first and second
    assert schedule.push("c") is None  # two drainers already cover the list
    assert schedule.push("d", force=True) is not None
    assert [u.decode() for u in conn.lrange(keys.ready_users(), 0, -1)] == ["a", "b", "c", "d"]
    conn.zadd(keys.drainers(), {first: 0, second: 0, "x": 0}, xx=True)  # expired (killed) drainers
    assert schedule.push(None) is not None


def test_a_drainer_retires_in_the_same_step_that_finds_the_list_empty(conn: redis.Redis) -> None:
    schedule = DrainSchedule(conn, max_drainers=1)
    token = schedule.push("a")
    assert token is not None and schedule.push("b") is None
    assert schedule.pop(token) == ["a", "b"]
    assert conn.zscore(keys.drainers(), token) is not None  # still live while it works
    assert schedule.pop(token) == []
    assert conn.zscore(keys.drainers(), token) is None
    assert schedule.push("c") is not None  # so the next push starts a new one: no lost wake-up


def test_handover_starts_a_successor_only_when_work_is_left(conn: redis.Redis) -> None:
    schedule = DrainSchedule(conn, max_drainers=1)
    token = schedule.push("a")
    assert token is not None
    successor = schedule.handover(token)
    assert successor is not None and conn.zscore(keys.drainers(), token) is None
    assert schedule.pop(successor) == ["a"]
    assert schedule.handover(successor) is None


@pytest.mark.parametrize("lanes", [1, 2, 3])
def test_one_drainer_serves_many_users_in_order_and_skips_a_leased_one(wx: FakeWeChatServer,
                                                                       conn: redis.Redis, lanes: int) -> None:
    queue = make_queue(conn, "wxbot-test-drain")
    run_jobs_with(WorkerDeps(redis=conn, turns=UnrecordedTurns(EchoEngine()), delivery=DeliveryService(conn, make_api(wx, conn)),
                        queue=queue, lease_ttl_ms=5000, typing_after_s=0, lanes=lanes))
    dispatch = RQDispatcher(queue, max_drainers=1)
    for i in range(4):
        for user in ("d1", "d2", "d3"):
            admit(conn, dispatch, M.text(user, f"{user}-{i}"))
    assert queue.count == 1  # one drainer job for twelve messages
    assert conn.llen(keys.ready_users()) == 3
    assert Mailbox(conn).acquire("d3", "someone-else", 60_000)
    token = conn.zrange(keys.drainers(), 0, -1)[0].decode()
    assert drain_ready(token) == 8
    for user in ("d1", "d2"):
        assert [s.text for s in wx.state.sent_to(user, "custom")] == [f"echo:{user}-{i}" for i in range(4)]
        assert conn.llen(keys.mailbox(user)) == 0 and not conn.exists(keys.lease(user))
        assert not conn.exists(keys.drain_pending(user))
    assert conn.llen(keys.mailbox("d3")) == 4 and wx.state.sent_to("d3", "custom") == []
    assert conn.zcard(keys.drainers()) == 0
    Mailbox(conn).release("d3", "someone-else")
    conn.zadd(keys.active_mailboxes(), {"d1": 0, "d3": 0})
    assert sweep_once(conn, dispatch, idle_s=0.0) == 1  # recovery: the stranded user is pushed again
    assert conn.zscore(keys.active_mailboxes(), "d1") is None  # an empty mailbox is forgotten
    token = conn.zrange(keys.drainers(), 0, -1)[0].decode()
    assert drain_ready(token) == 4
    assert [s.text for s in wx.state.sent_to("d3", "custom")] == [f"echo:d3-{i}" for i in range(4)]


class _RedisDiesFor(DeliveryService):
    def deliver(self, user: str, *args: Any, **kw: Any) -> Any:
        if user == "l2":
            time.sleep(0.05)  # the other lane is mid-way
            raise redis.ConnectionError("Redis went away")
        return super().deliver(user, *args, **kw)


def test_a_failing_lane_lets_the_other_lanes_finish_then_fails_the_drainer(wx: FakeWeChatServer,
                                                                          conn: redis.Redis) -> None:
    queue = make_queue(conn, "wxbot-test-drain")
    run_jobs_with(WorkerDeps(redis=conn, turns=UnrecordedTurns(EchoEngine()), delivery=_RedisDiesFor(conn, make_api(wx, conn)),
                        queue=queue, lease_ttl_ms=5000, typing_after_s=0, lanes=2))
    dispatch = RQDispatcher(queue, max_drainers=1)
    for i in range(3):
        for user in ("l1", "l2", "l3", "l4"):
            admit(conn, dispatch, M.text(user, f"{user}-{i}"))
    token = conn.zrange(keys.drainers(), 0, -1)[0].decode()
    with pytest.raises(redis.ConnectionError):
        drain_ready(token)
    # lane one (l1, l3) was served in full while lane two failed on l2's first message
    for user in ("l1", "l3"):
        assert [s.text for s in wx.state.sent_to(user, "custom")] == [f"echo:{user}-{i}" for i in range(3)]
    assert conn.llen(keys.mailbox("l2")) == 3 and wx.state.sent_to("l2", "custom") == []  # kept, not lost
    assert conn.zcard(keys.drainers()) == 0  # the slot is freed; the sweeper re-drives l2 and l4
    assert not any(conn.exists(keys.lease(u)) for u in ("l1", "l3", "l4"))  # l4's claim taken ahead: let go
    assert conn.llen(keys.mailbox("l4")) == 3 and wx.state.sent_to("l4", "custom") == []


def test_a_message_appended_while_the_lease_is_held_is_never_stranded(wx: FakeWeChatServer,
                                                                      conn: redis.Redis) -> None:
    mailbox = Mailbox(conn)
    admit(conn, RQDispatcher(make_queue(conn, "wxbot-test-drain")), M.text("s1", "one"))
    head = mailbox.claim("s1", "t", 5000)
    assert head is not None and not conn.exists(keys.drain_pending("s1"))
    second = parse_message(M.text("s1", "two"))
    conn.rpush(keys.mailbox("s1"), second.to_json())  # arrives mid-turn
    status, nxt = mailbox.pop_next("s1", head, "t", 5000)
    assert status == 1 and nxt == second.to_json() and conn.get(keys.lease("s1")) == b"t"
    assert mailbox.pop_next("s1", nxt, "t", 5000) == (1, None)
    assert not conn.exists(keys.lease("s1"))  # released in the step that saw the mailbox empty
    assert mailbox.pop_next("s1", nxt, "t", 5000) == (-1, None)


def test_the_passive_piece_is_offered_and_settled_at_once_and_recorded_by_the_answer(conn: redis.Redis) -> None:
    store, handoff = DeliveryStore(conn), Handoff(conn)
    conn.hset(keys.handoff("p1", "m1"), "state", "waiting")
    assert handoff.offer_passive("p1", "m1", "piece", "你好") == "offered"
    assert conn.hget(keys.handoff("p1", "m1"), "text").decode() == "你好"
    assert handoff.offer_passive("p1", "m1", "piece", "你好") == "done"
    assert store.outcomes("p1") == []  # handed over, not sent: the request that answers records it
    attempt = Attempt.of(time.time(), wait_s=4.5, answer_s=5.0)
    assert Handoff(conn).poll("p1", "m1", attempt) == ("taken", "你好")
    assert Handoff(conn).confirm("p1", "m1", attempt, in_time=True, size=6) == "sent"
    assert [(o["channel"], o["status"]) for o in store.outcomes("p1")] == [("passive", "sent")]
    conn.hset(keys.handoff("p1", "m2"), "state", "released")
    assert handoff.offer_passive("p1", "m2", "piece", "你好") == "lost"
    assert not conn.hexists(keys.part_sent("p1", "m2"), "piece")


def test_the_admit_queues_the_user_and_asks_for_a_drainer_only_under_the_cap(conn: redis.Redis) -> None:
    mailbox, schedule = Mailbox(conn), DrainSchedule(conn, max_drainers=1)
    now = time.time()

    def go(user: str, key: str) -> tuple[bool, bool, str | None]:
        got = mailbox.admit(user, key, "{}", limit=0, deadline=now + 60, now=now, waits=False, schedule=schedule)
        return got.claimed, got.queued, got.drainer

    claimed, queued, drainer = go("a1", "m1")
    assert claimed and queued and drainer is not None
    assert go("a1", "m2") == (False, False, None)  # pending: already on the list
    assert go("a2", "m3") == (True, True, None)  # the one drainer covers it
    assert [u.decode() for u in conn.lrange(keys.ready_users(), 0, -1)] == ["a1", "a2"]
    assert schedule.pop(drainer) == ["a1", "a2"] and schedule.pop(drainer) == []
    assert go("a3", "m5")[2] is not None  # that drainer retired: the next message starts one
