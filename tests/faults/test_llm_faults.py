"""The LLM down, slow, refusing or talking garbage (the fake OpenAI server): every turn is still
answered, in bounded time, through the whole edge (webhook → real Redis DB 8 → a worker process with
the real engine), on the default settings: a 30 s model costs one 3 s model budget per turn."""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from collections.abc import Iterator

import pytest
import redis

from bot.wechat.testkit import FakeWeChatServer, MessageFactory, WebhookDriver
from runtime.llm.testkit import FakeOpenAI, Mode, delay, disconnect, error, malformed, mode_step, reply
from tests.harness.edge import start_webhook
from tests.harness.faults import ROOT, TOKEN, worker_cmd, worker_env
from tests.harness.redis_server import private_url

pytestmark = pytest.mark.redis
URL = private_url(8)
M = MessageFactory()
VAGUE = ["你相信世界上有外星人吗", "你说人生有意义吗", "你觉得猫和狗哪个更可爱", "如果能穿越你想去哪个朝代"]  # sure chat the small-talk skill does not cover: the chat model, no router
WORST_TURN_S = 3.5  # the default model budget (3 s) and the engine's own work
BOUND_S = WORST_TURN_S + 1.0  # plus the webhook, the queue and the delivery to the fake WeChat API


@pytest.fixture
def db8() -> Iterator[redis.Redis]:
    conn = redis.Redis.from_url(URL)
    conn.flushdb()
    yield conn
    conn.flushdb()
    conn.close()


def test_llm_down_slow_refusing_or_garbage_every_turn_answered(db8: redis.Redis, wx: FakeWeChatServer) -> None:
    with FakeOpenAI() as llm, tempfile.TemporaryDirectory() as data:
        hook = start_webhook(db8, wx, embedded=False, reply_wait_s=0.0, max_attempts=1)
        env = worker_env(URL, wx, **llm.env(), DATA_DIR=data, WEATHER_FAKE="1", DATABASE_URL="")
        proc = subprocess.Popen(worker_cmd(f"llm-fault-{os.getpid()}", engine="bot.compose:conversation_engine"),
                                cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        latencies: dict[str, float] = {}
        calls: dict[str, int] = {}
        try:
            with WebhookDriver(hook.url, TOKEN, attempts=1, attempt_timeout_s=5) as d:
                d.post_once(M.text("warm", "今天几号"))
                assert _wait(wx, "warm", 60), "worker did not start"
                # each fault is met by a breaker that is closed: one failing turn, then a healthy one
                # (which closes it again), so every phase really reaches the model
                for n, (phase, step) in enumerate([("slow", delay(30)), ("malformed", malformed()),
                                                   ("down", error(503)), ("garbage", mode_step(Mode.GARBAGE)),
                                                   ("refusing", error(400)), ("dropped", disconnect())]):
                    calls_before = len(llm.chat_requests)
                    for i, (default, text) in enumerate([(step, VAGUE[n % len(VAGUE)]),
                                                         (reply("好呀，随时找我聊。"), VAGUE[(n + 1) % len(VAGUE)])]):
                        llm.default = default
                        user = f"{phase}{i}"
                        sent = time.time()
                        assert d.post_once(M.text(user, text)).status_code == 200
                        assert _wait(wx, user, BOUND_S + 5), f"{phase}: no answer for {text}"
                        latencies[user] = wx.state.sent_to(user, "custom")[0].at - sent
                    calls[phase] = len(llm.chat_requests) - calls_before
        finally:
            proc.terminate()
            try:
                _, err = proc.communicate(timeout=15)
            except subprocess.TimeoutExpired:  # never left running for the tests after this one
                proc.kill()
                _, err = proc.communicate()
                err += b"\n(still running 15 s after SIGTERM: killed)"
            hook.stop()
    for user, seconds in latencies.items():
        replies = [s.text for s in wx.state.sent_to(user, "custom")]
        assert len(replies) == 1 and replies[0].strip(), (user, replies)
        assert "Traceback" not in replies[0] and "Error" not in replies[0]
        assert seconds <= BOUND_S, (user, seconds)
    assert b"Traceback" not in err, err.decode(errors="replace")[-2000:]
    assert all(n >= 2 for n in calls.values()), calls  # the fault and the healthy turn both reached the model
    assert [s.text for s in wx.state.sent_to("slow1", "custom")] == ["好呀，随时找我聊。"]  # the breaker closed again
    print(calls, {u: round(s, 2) for u, s in latencies.items()})


def _wait(wx: FakeWeChatServer, user: str, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if wx.state.sent_to(user, "custom"):
            return True
        time.sleep(0.05)
    return False
