"""The webhook app in-process for the security suite (fakeredis or a real Redis DB), plus signing."""

from __future__ import annotations

import secrets
import time
from typing import Any

from bot.webhook import WebhookConfig, create_app
from bot.wechat.crypto import WebhookSecrets
from bot.wechat.testkit.driver import sign

TOKEN = "sec-test-token"
AES_KEY = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"
APP_ID = "wxtestapp"


class RecordingDispatcher:
    """Drain requests are only recorded (the suite drains mailboxes itself)."""

    def __init__(self) -> None:
        self.users: list[str] = []

    def drain(self, user: str, *, force: bool = False) -> None:
        self.users.append(user)

    def released(self, user: str, message_key: str, reply: str) -> None:
        pass


def make_app(redis: Any, *, mode: str = "compatible", rate_limit: int = 30, body_limit: int = 64 * 1024,
             dispatch: Any = None) -> Any:
    conf = WebhookSecrets(token=TOKEN, app_id=APP_ID, aes_key=AES_KEY, mode=mode)  # type: ignore[arg-type]
    config = WebhookConfig(secrets=conf, reply_wait_s=0.0, max_attempts=1, rate_limit_per_minute=rate_limit,
                           body_limit=body_limit)
    return create_app(config, redis=redis, dispatch=dispatch or RecordingDispatcher(), sweep=False)


def signed(ts: int | None = None, token: str = TOKEN) -> dict[str, str]:
    stamp, nonce = str(int(time.time()) if ts is None else ts), secrets.token_hex(6)
    return {"timestamp": stamp, "nonce": nonce, "signature": sign(token, stamp, nonce)}
