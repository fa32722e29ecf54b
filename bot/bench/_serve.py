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
    """The real webhook on ``spec['redis_url']`` with the RQ dispatcher, as :func:`bot.compose.webhook`
    builds it for ``wxbot serve`` (without the admin surfaces)."""
    from bot import compose
    from bot.settings import Settings

    settings = Settings.from_env({"REDIS_URL": spec["redis_url"], "WECHAT_TOKEN": spec["token"],
                                  "RATE_LIMIT_PER_MINUTE": str(int(spec.get("rate_limit", 30)))})
    hook = compose.webhook(settings, path=spec.get("path", "/wechat"), reply_wait_s=float(spec.get("reply_wait_s", 4.5)),
                           admin=False, sweep=bool(spec.get("sweep", True)),
                           max_attempts=int(spec.get("max_attempts", 3)), poll_s=float(spec.get("poll_s", 0.05)))
    return hook.app


def main(argv: list[str] | None = None) -> int:
    import uvicorn

    spec: dict[str, Any] = json.loads((argv or sys.argv[1:])[0])
    app = empty_app(spec.get("path", "/wechat")) if spec["kind"] == "empty" else webhook_app(spec)
    uvicorn.run(app, host="127.0.0.1", port=int(spec["port"]), log_level="warning", access_log=False,
                loop="auto", http="auto", lifespan="on")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
