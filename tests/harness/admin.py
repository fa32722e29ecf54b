"""The real webhook app (embedded: fakeredis + in-process drain threads) with the admin surfaces mounted."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import compose
from bot.admin import AdminDeps, mount
from bot.delivery import DeliveryService
from bot.queue import make_queue
from bot.settings import Settings
from bot.webhook import WebhookConfig, create_app
from bot.wechat.testkit import FakeWeChatServer, ServerThread
from bot.worker import InlineDispatcher, WorkerDeps
from runtime.store import RedisContextStore
from runtime.transcript import TranscribedTurns, Transcript

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
    edge: WorkerDeps
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

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
        self.inline.shutdown()


def build_stack(settings: Settings) -> Stack:
    """What ``wxbot serve`` builds in embedded mode, plus the admin mount and transcript recording."""
    conn = compose.embedded_redis()
    built = compose.core(settings, redis=conn)
    transcript = compose.transcript(settings, conn)
    turns = TranscribedTurns(built.engine, transcript)
    edge = WorkerDeps(redis=conn, turns=turns, delivery=DeliveryService(conn, compose.wechat_api(settings, conn)),
                       queue=make_queue(conn), sql_engine=built.services.db, lease_ttl_ms=5000)
    inline = InlineDispatcher(edge)
    config = WebhookConfig(secrets=compose.secrets(settings), reply_wait_s=3.0, hold_s=3.5, attempt_period_s=3.0,
                           sweep_interval_s=0.5)
    app = create_app(config, redis=conn, dispatch=inline)
    store = built.store if built.store is not None else RedisContextStore(conn)
    mount(app, AdminDeps(settings=settings, redis=conn, store=store, transcript=transcript,
                         secrets=compose.secrets(settings), sandbox=compose.rerun_sandbox(settings)))
    return Stack(app=app, redis=conn, settings=settings, transcript=transcript, inline=inline, edge=edge)
