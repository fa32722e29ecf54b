"""A piece's claim is held by a replica before its WeChat call (real master and replica).

Without it, a master that dies right after a send takes the claim and the settlement with it; the
promoted replica knows nothing of the send, the message is re-run and the text goes out again,
unrecorded (the duplicate the fail-over test used to see under load). With the claim confirmed by
``WAIT`` first, a re-run after any fail-over finds it and records the resend as ``resent_uncertain``.
"""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest
import redis

from bot.delivery import DeliveryService, NotReplicated
from bot.wechat.testkit import FakeWeChatServer
from runtime import keys
from tests.harness.edge import make_api
from tests.harness.sentinel import SentinelCluster, wait_for

pytestmark = pytest.mark.redis


def _service(pair: SentinelCluster, wx: FakeWeChatServer, *, timeout_ms: int = 2000) -> tuple[redis.Redis,
                                                                                              DeliveryService]:
    conn = redis.Redis(port=pair.master.port)
    svc = DeliveryService(conn, make_api(wx, conn), replicas=1, replica_timeout_ms=timeout_ms)
    svc.store.on_user_message("u1", time.time())
    return conn, svc


def test_the_claim_is_on_the_replica_while_the_api_call_runs(pair: SentinelCluster, wx: FakeWeChatServer) -> None:
    _, svc = _service(pair, wx)
    wx.state.latency["custom"] = 0.6  # the send takes a while: look at the replica meanwhile
    record: dict[bytes, bytes] = {}
    done = threading.Event()

    def look() -> None:  # until the call ends (its settlement then replaces the claim)
        while not done.is_set() and b"sending" not in record.values():
            record.update(pair.ask(pair.replica, "HGETALL", keys.part_sent("u1", "m1")))
            time.sleep(0.01)

    looking = threading.Thread(target=look)
    looking.start()
    out = svc.deliver("u1", "m1", ["回复"], passive=False)
    done.set()
    looking.join()
    assert [o.status for o in out] == ["sent"]
    assert b"sending" in record.values(), record  # a fail-over now would leave the re-run a trace


def test_a_replica_that_does_not_confirm_holds_the_send_back_and_a_gone_one_does_not(
        pair: SentinelCluster, wx: FakeWeChatServer) -> None:
    conn, svc = _service(pair, wx, timeout_ms=3000)
    replica = pair.replica.proc
    assert replica is not None
    os.kill(replica.pid, signal.SIGSTOP)  # attached, but confirming nothing
    try:
        with pytest.raises(NotReplicated):
            svc.deliver("u1", "m1", ["回复"], passive=False)
    finally:
        os.kill(replica.pid, signal.SIGCONT)
    assert wx.state.sent_to("u1") == []  # nothing went out that a fail-over could make unrecorded
    assert b"sending" not in conn.hgetall(keys.part_sent("u1", "m1")).values()  # the claim was withdrawn
    out = svc.deliver("u1", "m1", ["回复"], passive=False)  # handled again once the replica is back
    assert [o.status for o in out] == ["sent"] and len(wx.state.sent_to("u1")) == 1
    assert [o["status"] for o in svc.store.outcomes("u1")] == ["sent"]  # no uncertainty recorded
    pair.replica.kill()  # the master is alone (as right after a fail-over): sends go on without waiting
    time.sleep(1.1)  # the replicas are read again at most a second later
    started = time.monotonic()
    assert [o.status for o in svc.deliver("u1", "m2", ["第二条"], passive=False)] == ["sent"]
    assert time.monotonic() - started < 2.0  # no 3 s wait for a confirmation that cannot come


def test_a_send_whose_settlement_died_with_the_master_is_resent_recorded(pair: SentinelCluster,
                                                                        wx: FakeWeChatServer) -> None:
    """The master dies after the send, its settlement never replicated: the promoted replica has the
    claim, so the re-run records the resend instead of doubling unrecorded."""
    _, svc = _service(pair, wx)
    wx.state.latency["custom"] = 0.6
    # promoted in the middle of the call: it has the claim, and never gets the settlement (the claim is
    # waited for on the replica, not timed: a loaded machine may take longer to reach the call)
    def promote_once_claimed() -> None:
        claimed = lambda: b"sending" in pair.ask(pair.replica, "HGETALL", keys.part_sent("u1", "m1")).values()  # noqa: E731
        assert wait_for(claimed, 10, 0.01)
        pair.ask(pair.replica, "REPLICAOF", "NO", "ONE")

    promote = threading.Thread(target=promote_once_claimed)
    promote.start()
    assert [o.status for o in svc.deliver("u1", "m1", ["回复"], passive=False)] == ["sent"]
    promote.join()
    pair.master.kill()
    promoted = redis.Redis(port=pair.replica.port)
    rerun = DeliveryService(promoted, make_api(wx, promoted), replicas=1, replica_timeout_ms=300)
    out = rerun.deliver("u1", "m1", ["回复"], passive=False)  # the message handled again
    assert [o.status for o in out] == ["resent_uncertain", "sent"]
    assert len(wx.state.sent_to("u1", "custom")) == 2  # a double, and it is recorded
    assert [o["status"] for o in rerun.store.outcomes("u1")] == ["resent_uncertain", "sent"]
