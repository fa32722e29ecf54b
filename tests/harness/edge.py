"""Helpers to run the edge for tests: the WeChat API client on the fake server, the webhook in a
thread, workers as separate processes."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.bench import stop
from bot.delivery import DeliveryService
from bot.queue import RQDispatcher, make_queue
from bot.webhook import WebhookConfig, create_app, script_runner
from bot.wechat import AccessTokenService, StableTokenFetcher, WeChatpyAPI
from bot.wechat.crypto import WebhookSecrets
from bot.wechat.testkit import FakeWeChatServer, ServerThread
from bot.wechat.testkit.echo import EchoEngine
from bot.worker import InlineDispatcher, UnrecordedTurns, WorkerDeps, serving
from tests.harness.redis_server import private_url

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "edge-test-token"
AES_KEY = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"
REAL_REDIS_URL = private_url(2)  # the DB the tests of bot/ use


def fast_config(**kw: Any) -> WebhookConfig:
    """WeChat's timing scaled down: 1 s per attempt instead of 5."""
    base: dict[str, Any] = {
        "secrets": WebhookSecrets(token=TOKEN, app_id="wxtestapp", aes_key=AES_KEY, mode="compatible"),
        "reply_wait_s": 0.6, "hold_s": 1.15, "attempt_period_s": 1.0, "sweep_interval_s": 0.3,
    }
    return WebhookConfig(**(base | kw))


@dataclass
class Webhook:
    thread: ServerThread
    deps: WorkerDeps | None = None
    cleanup: list[Callable[[], None]] = field(default_factory=list)

    @property
    def url(self) -> str:
        return self.thread.url + "/wechat"

    def stop(self) -> None:
        self.thread.stop()
        for fn in self.cleanup:
            fn()


def url_of(conn: Any) -> str:
    """The ``redis://`` URL of a redis-py client on a real server."""
    kw = conn.connection_pool.connection_kwargs
    return f"redis://{kw.get('host', '127.0.0.1')}:{kw.get('port', 6379)}/{kw.get('db', 0)}"


def start_webhook(conn: Any, wx: FakeWeChatServer, *, embedded: bool, **config: Any) -> Webhook:
    if embedded:
        rt = WorkerDeps(redis=conn, turns=UnrecordedTurns(EchoEngine()), delivery=DeliveryService(conn, make_api(wx, conn)),
                         queue=make_queue(conn), lease_ttl_ms=3000)
        inline = InlineDispatcher(rt)
        hook = Webhook(ServerThread(create_app(fast_config(**config), redis=conn, dispatch=inline)), rt)
        hook.cleanup.append(inline.shutdown)
    else:  # as deployed: the per-request scripts pipelined on their own connection
        hook = Webhook(ServerThread(create_app(fast_config(**config), redis=conn,
                                               dispatch=RQDispatcher(make_queue(conn)),
                                               scripts=script_runner(conn, url_of(conn)))))
    hook.thread.start()
    return hook


def start_workers(wx: FakeWeChatServer, n: int, *, lease_ttl: float = 3.0) -> list[subprocess.Popen[bytes]]:
    env = os.environ | {
        "REDIS_URL": REAL_REDIS_URL, "WECHAT_API_BASE": wx.url, "WECHAT_APP_ID": wx.state.app_id,
        "WECHAT_APP_SECRET": wx.state.secret, "WECHAT_TOKEN": TOKEN, "PYTHONPATH": str(ROOT),
    }
    cmd = [sys.executable, "-m", "bot.commands.worker", "--engine", "bot.wechat.testkit.echo:build_engine",
           "--lease-ttl", str(lease_ttl), "--typing-after", "1.5"]
    return [subprocess.Popen(cmd + ["--name", f"edge-test-{i}-{os.getpid()}"], cwd=ROOT, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for i in range(n)]


def stop_workers(procs: list[subprocess.Popen[bytes]]) -> None:
    for err in stop(procs):  # the crash tails, for the test log
        print(err)


def wait_until(pred: Callable[[], bool], timeout: float, interval: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(interval)
    return pred()


_JOBS = ExitStack()


def run_jobs_with(deps: WorkerDeps) -> WorkerDeps:
    """Until the test ends, the jobs it calls run with ``deps``, as inside the worker entry point
    (:func:`bot.worker.serving`)."""
    _JOBS.enter_context(serving(deps))
    return deps


@contextmanager
def jobs_scope() -> Iterator[None]:
    """Around a test: what :func:`run_jobs_with` set ends with it."""
    try:
        yield
    finally:
        _JOBS.close()


def make_api(wx: FakeWeChatServer, conn: Any, *, timeout: float = 2.0) -> WeChatpyAPI:
    """The WeChat API client on the fake server, its token shared through ``conn``."""
    app_id, secret = wx.state.app_id, wx.state.secret
    fetcher = StableTokenFetcher(app_id, secret, base_url=wx.url, timeout=timeout)
    tokens = AccessTokenService(conn, fetcher, app_id=app_id)
    return WeChatpyAPI(app_id=app_id, secret=secret, tokens=tokens, base_url=wx.url, timeout=timeout)
