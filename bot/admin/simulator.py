"""The simulator: a browser chat window that talks to the running bot through the real webhook path.

The browser posts text to ``/simulator/api/send``; the server signs (and, when an AES key is set,
encrypts) the XML exactly like WeChat using the test kit's :class:`WebhookDriver`, posts it to the
webhook over HTTP with WeChat's retry behaviour, and returns the passive reply. Replies that come
later (async turns) and scheduled pushes come from the transcript through a long poll: a request
waits up to ``MAX_WAIT_S`` for something new, so an idle window costs one request per 25 s.

Availability: with ``ADMIN_TOKEN`` set it needs the admin login (same cookie or Bearer token);
without a token it exists only in embedded mode (no ``REDIS_URL``) and only for loopback clients;
otherwise every path answers 404. Simulated users are always ``sim-…`` ids, so a message can never
be injected as (or cause a reply to) a real WeChat user.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from bot.admin._auth import AdminGate, Verdict
from bot.admin._labels import delivery_label
from bot.admin._pages import SECURITY_HEADERS, asset, login_page
from bot.admin.overview import AdminDeps
from runtime.transcript import DeliveryEntry, TurnEntry

SIM_USER = re.compile(r"^sim-[A-Za-z0-9_-]{1,40}$")
MAX_TEXT = 600
LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})
MAX_WAIT_S = 25.0
LOOK_EVERY_S = 0.4  # how often a waiting request reads the transcript (one XRANGE)


@dataclass(frozen=True)
class SimulatorConfig:
    """Where the webhook is and WeChat's timing (shorter in tests)."""

    webhook_path: str = "/wechat"
    webhook_url: str | None = None  # default: this server's own address + webhook_path
    attempts: int = 3
    attempt_timeout_s: float = 5.0


def _json(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=SECURITY_HEADERS)


def update_view(entry: TurnEntry | DeliveryEntry) -> dict[str, Any]:
    """What the chat window needs of one transcript entry."""
    if isinstance(entry, TurnEntry):
        inbound = entry.inbound
        return {"kind": "turn", "id": entry.id, "msg_id": inbound.msg_id, "text": inbound.text,
                "event": inbound.event, "replies": entry.replies, "stage": str(entry.trace.stage),
                "intent": entry.trace.intent}
    return {"kind": "delivery", "id": entry.id, "text": entry.text, "channel": entry.channel,
            "outcome": entry.outcome, "label": delivery_label(entry.channel, entry.outcome), "push": entry.push,
            "ref": entry.ref}


def simulator_routes(deps: AdminDeps, config: SimulatorConfig | None = None) -> list[BaseRoute]:
    """Routes of the simulator page."""
    settings = deps.settings
    config = config or SimulatorConfig()
    gate = AdminGate(settings.admin_token)
    transcript = deps.transcript

    def refused(request: Request, *, api: bool) -> Response | None:
        if not gate.enabled:
            client = request.client.host if request.client else ""
            return None if settings.embedded and client in LOOPBACK else Response("Not Found", status_code=404)
        verdict = gate.verdict(request)
        if verdict is Verdict.OK:
            return None
        status = 401 if verdict is Verdict.MISSING else 403
        if api:
            return _json({"error": "unauthorized" if status == 401 else "forbidden"}, status)
        return login_page(status, next_path="/simulator")

    def webhook_url(request: Request) -> str:
        if config.webhook_url:
            return config.webhook_url
        host, port = request.scope.get("server") or ("127.0.0.1", 8000)
        host = "127.0.0.1" if host in ("0.0.0.0", "") else host
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{port}{config.webhook_path}"

    def deliver(url: str, user: str, text: str) -> dict[str, Any]:
        from bot.wechat.testkit import MessageFactory, WebhookDriver, next_msg_id

        conf = deps.secrets
        mode = conf.mode if conf.aes_key else "plain"
        msg_id = next_msg_id()
        with WebhookDriver(url, settings.wechat_token, mode=mode, aes_key=conf.aes_key,
                           app_id=settings.wechat_app_id or "wxsimulator", attempts=config.attempts,
                           attempt_timeout_s=config.attempt_timeout_s) as driver:
            result = driver.deliver(MessageFactory().text(user, text, msg_id=msg_id))
        return {"msg_id": f"m{msg_id}", "reply": result.reply, "status": result.status, "attempts": result.attempts}

    async def page(request: Request) -> Response:
        return refused(request, api=False) or asset("simulator.html")

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        allowed = name in ("simulator.js", "admin.css")
        return refused(request, api=False) or (asset(name) if allowed else Response("Not Found", status_code=404))

    async def send(request: Request) -> Response:
        if (refusal := refused(request, api=True)) is not None:
            return refusal
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return _json({"error": "send JSON"}, 415)  # also keeps cross-site forms out
        try:
            body = json.loads(await request.body())
            user, text = str(body["user"]), str(body["text"]).strip()
        except (ValueError, KeyError, TypeError):
            return _json({"error": "expected {\"user\": \"sim-…\", \"text\": \"…\"}"}, 400)
        if not SIM_USER.match(user) or not text or len(text) > MAX_TEXT:
            return _json({"error": "user must be sim-<letters/digits>, text 1-600 characters"}, 400)
        return _json(await asyncio.to_thread(deliver, webhook_url(request), user, text))

    async def updates(request: Request) -> Response:
        if (refusal := refused(request, api=True)) is not None:
            return refusal
        user = request.query_params.get("user", "")
        if not SIM_USER.match(user):
            return _json({"error": "unknown simulator user"}, 400)
        after = request.query_params.get("after") or None
        try:
            wait = min(MAX_WAIT_S, max(0.0, float(request.query_params.get("wait", 0))))
        except ValueError:
            return _json({"error": "wait is seconds"}, 400)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        while True:
            entries = await asyncio.to_thread(transcript.read, user, after, 100)
            if entries or loop.time() >= deadline or await request.is_disconnected():
                break
            await asyncio.sleep(LOOK_EVERY_S)
        shown = [update_view(e) for e in entries if isinstance(e, TurnEntry | DeliveryEntry)]
        last = entries[-1].id if entries else after
        return _json({"entries": shown, "last_id": last})

    return [
        Route("/simulator", page, methods=["GET"]),
        Route("/simulator/static/{name}", static, methods=["GET"]),
        Route("/simulator/api/send", send, methods=["POST"]),
        Route("/simulator/api/updates", updates, methods=["GET"]),
    ]
