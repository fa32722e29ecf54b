"""Redis SIGKILLed and restarted with the deploy persistence (AOF, appendfsync everysec).

Runs its OWN redis-server on a free port in a temp dir (never the shared one). Every message the
webhook accepted (200) before, during or after the outage is answered; while Redis is down the
webhook says 503 (WeChat retries), never a 500.
"""

from __future__ import annotations

import threading
import time

import pytest
import redis

from bot._bench_redis import PrivateRedis
from bot.wechat.testkit import FakeWeChatServer, MessageFactory, WebhookDriver
from tests.edge._stack import start_webhook, wait_until
from tests.faults._stack import TOKEN, Every, WorkerPool

pytestmark = pytest.mark.redis
M = MessageFactory()


def test_redis_killed_and_restarted_loses_no_accepted_message(wx: FakeWeChatServer) -> None:
    server = PrivateRedis(aof=True).start()
    conn = redis.Redis(port=server.port, socket_timeout=2, socket_connect_timeout=1)
    hook = start_webhook(conn, wx, embedded=False, reply_wait_s=0.0, max_attempts=1)
    pool = WorkerPool(server.url, wx, 2)
    keeper = Every(0.5, lambda: pool.respawn_dead())  # systemd's Restart=always
    accepted: dict[str, list[str]] = {}
    statuses: list[int] = []
    users = [f"r{i:02d}" for i in range(10)]

    def send(user: str) -> None:
        with WebhookDriver(hook.url, TOKEN, attempts=1, attempt_timeout_s=5) as d:
            for i in range(30):
                xml = M.text(user, str(i))
                for _ in range(60):  # WeChat's retries, stretched over the outage
                    try:
                        res = d.post_once(xml)
                    except Exception:
                        time.sleep(0.2)
                        continue
                    statuses.append(res.status_code)
                    if res.status_code == 200:
                        accepted.setdefault(user, []).append(f"echo:{i}")
                        break
                    time.sleep(0.2)
                time.sleep(0.1)

    try:
        keeper.start()
        threads = [threading.Thread(target=send, args=(u,)) for u in users]
        for t in threads:
            t.start()
        time.sleep(1.0)
        server.kill()
        time.sleep(1.5)
        server.start()
        for t in threads:
            t.join()
        total = sum(map(len, accepted.values()))
        assert wait_until(lambda: sum(1 for s in wx.state.sent if s.kind == "custom") >= total, 60, 0.25)
        threading.Event().wait(1.0)
    finally:
        keeper.stop()
        pool.stop()
        hook.stop()
        server.stop()
    assert set(statuses) <= {200, 503}, sorted(set(statuses))
    print(f"accepted={len(statuses) - statuses.count(503)} refused_503={statuses.count(503)}")
    for user in users:
        got = [s.text for s in wx.state.sent_to(user, "custom")]
        unique = [t for i, t in enumerate(got) if i == 0 or got[i - 1] != t]
        assert unique == accepted[user] == [f"echo:{i}" for i in range(30)], (user, got)
