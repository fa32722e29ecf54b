"""``wxbot serve``'s webhook app as deployed with REDIS_URL: per-request scripts pipelined on the real server."""

from __future__ import annotations

import secrets
import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from bot.compose import webhook
from bot.settings import Settings
from bot.webhook import PipelinedScripts
from bot.wechat.testkit import MessageFactory
from bot.wechat.testkit.driver import sign
from runtime import keys
from tests.harness.edge import REAL_REDIS_URL


def test_served_app_admits_through_the_pipelined_connection(real_redis: Any, tmp_path: Path) -> None:
    settings = Settings(redis_url=REAL_REDIS_URL, data_dir=tmp_path, wechat_token="serve-token")
    app = webhook(settings, engine_ref="bot.wechat.testkit.echo:build_engine").app
    ts, nonce = str(int(time.time())), secrets.token_hex(6)
    query = {"timestamp": ts, "nonce": nonce, "signature": sign("serve-token", ts, nonce)}
    xml = MessageFactory().event("s1", "subscribe")  # an event nobody waits on: acked at once
    with TestClient(app) as client:
        ok = client.post("/wechat", params=query, content=xml)
        bad = client.post("/wechat", params=query | {"signature": "0" * 40}, content=xml)
    assert (ok.status_code, ok.text) == (200, "success")
    assert bad.status_code == 403
    assert real_redis.llen(keys.mailbox("s1")) == 1  # durable before the 200
    assert isinstance(app.state.scripts, PipelinedScripts)
