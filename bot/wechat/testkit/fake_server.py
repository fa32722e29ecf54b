"""A fake WeChat API server over real HTTP, for tests of wxbot and of users' own deployments.

Endpoints: ``GET /cgi-bin/token``, ``POST /cgi-bin/stable_token``, ``/cgi-bin/message/custom/send``,
``/cgi-bin/message/custom/typing``, ``/cgi-bin/message/template/send``,
``/cgi-bin/message/subscribe/bizsend``. Faults (errcode, HTTP status, or "deliver, then time out" and
"deliver, then reset"), random faults at a rate, and latency are scriptable per endpoint, from Python
(``server.fail``, ``server.fail_randomly``, ``server.state``) or over HTTP (``POST /_testkit/script``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import struct
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from bot.wechat.testkit._serve import ServerThread
from bot.wechat.testkit._server_state import FakeWeChatState, Fault, RandomFaults
from bot.wechat.testkit.menu import menu_routes

ENDPOINTS = {
    "custom": "/cgi-bin/message/custom/send",
    "typing": "/cgi-bin/message/custom/typing",
    "template": "/cgi-bin/message/template/send",
    "subscribe": "/cgi-bin/message/subscribe/bizsend",
}


def build_app(state: FakeWeChatState) -> Starlette:
    """The Starlette app of the fake API bound to ``state``."""

    async def _gate(endpoint: str, user: str | None, fault: Fault | None) -> Response | None:
        delay = state.latency.get(endpoint, 0.0)
        if delay:
            await asyncio.sleep(delay)
        if fault is None or fault.after is not None:
            return None
        if fault.status:
            return Response("fault", status_code=fault.status)
        return JSONResponse({"errcode": fault.errcode, "errmsg": f"scripted {fault.errcode}"})

    def _token_reply() -> JSONResponse:
        return JSONResponse({"access_token": state.issue_token(), "expires_in": state.expires_in})

    async def token(request: Request) -> Response:
        q = request.query_params
        if q.get("appid") != state.app_id or q.get("secret") != state.secret:
            return JSONResponse({"errcode": 40013, "errmsg": "invalid appid"})
        return await _gate("token", None, state.take_fault("token", None)) or _token_reply()

    async def stable_token(request: Request) -> Response:
        body = await request.json()
        if body.get("appid") != state.app_id or body.get("secret") != state.secret:
            return JSONResponse({"errcode": 40013, "errmsg": "invalid appid"})
        gated = await _gate("stable_token", None, state.take_fault("stable_token", None))
        if gated:
            return gated
        current = state.current_token()
        if current and not body.get("force_refresh"):
            return JSONResponse({"access_token": current, "expires_in": state.expires_in})
        return _token_reply()

    def _api(kind: str) -> Any:
        async def handler(request: Request) -> Response:
            token = request.query_params.get("access_token", "")
            if token not in state.tokens:
                code = 42001 if token.startswith("tok-") else 40001
                return JSONResponse({"errcode": code, "errmsg": "access_token invalid"})
            payload = json.loads(await request.body() or b"{}")
            user = str(payload.get("touser", ""))
            fault = state.take_fault(kind, user)
            gated = await _gate(kind, user, fault)
            if gated:
                return gated
            serial = state.record(kind, user, payload)
            if fault is not None and fault.after == "timeout":
                await asyncio.sleep(fault.hang_s)  # delivered; the caller gives up waiting first
            elif fault is not None and fault.after == "reset":
                await _reset(request)  # delivered; the answer never comes
            return JSONResponse({"errcode": 0, "errmsg": "ok", "msgid": 1000 + serial})

        return handler

    async def script(request: Request) -> Response:
        body = await request.json()
        fault = Fault(body.get("errcode"), body.get("status"), int(body.get("times", 1)), body.get("user"),
                      body.get("after"), float(body.get("hang_s", 30.0)))
        if "rate" in body:
            state.random_faults[body["endpoint"]] = RandomFaults(float(body["rate"]), (fault,))
        else:
            state.script(body["endpoint"], fault)
        if "latency" in body:
            state.latency[body["endpoint"]] = float(body["latency"])
        return JSONResponse({"ok": True})

    async def sent(request: Request) -> Response:
        with state.lock:
            rows = [{"kind": s.kind, "user": s.user, "text": s.text, "at": s.at} for s in state.sent]
        return JSONResponse({"sent": rows, "token_fetches": state.token_fetches})

    routes = [
        Route("/cgi-bin/token", token),
        Route("/cgi-bin/stable_token", stable_token, methods=["POST"]),
        Route("/_testkit/script", script, methods=["POST"]),
        Route("/_testkit/sent", sent),
    ] + [Route(path, _api(kind), methods=["POST"]) for kind, path in ENDPOINTS.items()]
    routes += menu_routes(state)  # menu/create, menu/get, menu/delete (testkit/menu.py)
    return Starlette(routes=routes)


async def _reset(request: Request) -> None:
    """Reset the request's connection (TCP RST) without an answer; uvicorn then drops the response."""
    cycle = getattr(request.receive, "__self__", None)
    transport = getattr(cycle, "transport", None)
    if transport is None:  # not uvicorn's cycle: fail loudly rather than answer
        raise RuntimeError("cannot reset this connection")
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    transport.abort()
    await asyncio.sleep(0)  # let the protocol see the connection lost before the response is sent


class FakeWeChatServer:
    """Run the fake API on a free loopback port in a background thread (a context manager).

    >>> with FakeWeChatServer() as wx:
    ...     api = WeChatpyAPI(app_id=wx.state.app_id, secret=wx.state.secret, tokens=..., base_url=wx.url)
    """

    def __init__(self, state: FakeWeChatState | None = None) -> None:
        self.state = state or FakeWeChatState()
        self._thread = ServerThread(build_app(self.state))

    @property
    def url(self) -> str:
        return self._thread.url

    def fail(self, endpoint: str, *, errcode: int | None = None, status: int | None = None,
             times: int = 1, user: str | None = None, after: str | None = None, hang_s: float = 30.0) -> None:
        """Script the next ``times`` calls to ``endpoint`` (custom, typing, template, subscribe,
        token, stable_token) to fail with ``errcode`` or HTTP ``status``; or, ``after="timeout"`` /
        ``after="reset"``, to deliver and then hang for ``hang_s`` / reset the connection."""
        self.state.script(endpoint, Fault(errcode, status, times, user, after, hang_s))

    def fail_randomly(self, endpoint: str, rate: float, *, seed: int = 0, errcode: int | None = None,
                      status: int | None = None, after: str | None = None, hang_s: float = 30.0,
                      mix: tuple[Fault, ...] = ()) -> None:
        """Each later call to ``endpoint`` fails as :meth:`fail` describes with probability ``rate``
        (``rate=0`` stops it); ``mix``: further faults, one of them picked at random each time."""
        faults = ((Fault(errcode, status, 1, None, after, hang_s),) if errcode or status or after else ()) + mix
        self.state.random_faults[endpoint] = RandomFaults(rate, faults, random.Random(seed))

    def __enter__(self) -> FakeWeChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._thread.stop()
