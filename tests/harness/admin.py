"""The real webhook app (embedded: fakeredis + in-process drain threads) with the admin surfaces mounted."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import fakeredis
from bot.app import build_runtime

from bot import app as wiring
from bot.admin import AdminDeps, mount
from bot.delivery import DeliveryService
from bot.queue import make_queue
from bot.settings import Settings
from bot.webhook import WebhookConfig, create_app
from bot.wechat.testkit import FakeWeChatServer, ServerThread
from bot.worker import EdgeRuntime, InlineDispatcher, install
from runtime.transcript import TranscribedEngine, Transcript

ADMIN_TOKEN = "admin-secret-token-123"


def make_settings(tmp: Path, wx: FakeWeChatServer, **extra: str) -> Settings:
    env = {"DATA_DIR": str(tmp), "WEATHER_FAKE": "true", "WECHAT_TOKEN": "sim-token",
           "WECHAT_APP_ID": wx.state.app_id, "WECHAT_APP_SECRET": wx.state.secret, "WECHAT_API_BASE": wx.url}
    return Settings.from_env(env | extra)


@dataclass
class Stack:
    """The webhook app, its Redis, and (once started) a uvicorn server thread."""

    app: Any
    redis: Any
    settings: Settings
    transcript: Transcript
    inline: InlineDispatcher
    edge: EdgeRuntime
    server: ServerThread | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def url(self) -> str:
        assert self.server is not None
        return self.server.url

    def start(self) -> Stack:
        self.server = ServerThread(self.app)
        self.server.start()
        return self

    def use(self) -> Stack:
        """Make this stack's runtime the one drain jobs use (the worker keeps one per process)."""
        install(self.edge)
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
        self.inline.shutdown()


def build_stack(settings: Settings) -> Stack:
    """What ``wxbot serve`` builds in embedded mode, plus the admin mount and transcript recording."""
    conn = fakeredis.FakeRedis(server=fakeredis.FakeServer())
    runtime = build_runtime(settings, redis=conn)
    transcript = Transcript.from_settings(conn, settings)
    engine = TranscribedEngine(runtime.engine, transcript)
    edge = EdgeRuntime(redis=conn, engine=engine, delivery=DeliveryService(conn, wiring.wechat_api(settings, conn)),
                       queue=make_queue(conn), lease_ttl_ms=5000)
    inline = InlineDispatcher(edge)
    config = WebhookConfig(secrets=wiring.secrets(settings), reply_wait_s=3.0, hold_s=3.5, attempt_period_s=3.0,
                           sweep_interval_s=0.5)
    app = create_app(config, redis=conn, dispatch=inline)
    mount(app, AdminDeps.build(settings, conn, runtime.store))
    return Stack(app=app, redis=conn, settings=settings, transcript=transcript, inline=inline, edge=edge)
