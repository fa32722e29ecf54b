"""Server side of the benchmarks, run as its own process (``python -m bot.bench._serve '<json>'``).

``kind`` is ``webhook`` (the real app from :func:`bot.webhook.create_app` on real Redis and the RQ
dispatcher) or ``empty`` (a Starlette app that reads the body and answers ``success``: the floor
any webhook on this machine, this server and this event loop can reach).
"""

from __future__ import annotations

import json
import sys
from typing import Any

__all__ = ["empty_app", "main", "webhook_app"]


def empty_app(path: str) -> Any:
    """The baseline: one POST route that reads the body and answers ``success``."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import PlainTextResponse, Response
    from starlette.routing import Route

    async def receive(request: Request) -> Response:
        await request.body()
        return PlainTextResponse("success")

    return Starlette(routes=[Route(path, receive, methods=["POST"])])


def webhook_app(spec: dict[str, Any]) -> Any:
    """The real webhook on ``spec['redis_url']`` with the RQ dispatcher."""
    from bot.queue import RQDispatcher, make_queue
    from bot.redis_client import connect
    from bot.webhook import WebhookConfig, create_app
    from bot.webhook._aio import script_runner
    from bot.wechat.crypto import WebhookSecrets

    conn: Any = connect(spec["redis_url"])  # as `wxbot serve`
    config = WebhookConfig(
        secrets=WebhookSecrets(token=spec["token"]), path=spec.get("path", "/wechat"),
        reply_wait_s=float(spec.get("reply_wait_s", 4.5)), max_attempts=int(spec.get("max_attempts", 3)),
        poll_s=float(spec.get("poll_s", 0.05)), rate_limit_per_minute=int(spec.get("rate_limit", 30)),
    )
    return create_app(config, redis=conn, dispatch=RQDispatcher(make_queue(conn)),
                      sweep=bool(spec.get("sweep", True)), scripts=script_runner(conn, spec["redis_url"]))


def main(argv: list[str] | None = None) -> int:
    import uvicorn

    spec: dict[str, Any] = json.loads((argv or sys.argv[1:])[0])
    app = empty_app(spec.get("path", "/wechat")) if spec["kind"] == "empty" else webhook_app(spec)
    uvicorn.run(app, host="127.0.0.1", port=int(spec["port"]), log_level="warning", access_log=False,
                loop="auto", http="auto", lifespan="on")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
