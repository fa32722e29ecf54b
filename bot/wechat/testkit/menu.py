"""The fake WeChat API's custom-menu endpoints: ``menu/create``, ``menu/get``, ``menu/delete``.

Registered by :func:`bot.wechat.testkit.fake_server.build_app`. A published menu is recorded in the
state's ``sent`` list (kind ``menu``; a deletion is kind ``menu_delete``), so :func:`published_menu`
reads it back; faults and latency are scripted per endpoint like the others (``menu_create``,
``menu_get``). Bodies are checked the way WeChat checks them, with its error codes.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from bot.wechat.testkit._server_state import FakeWeChatState

__all__ = ["menu_error", "menu_routes", "published_menu"]

NO_MENU = 46003
# WeChat's codes for a malformed menu
BAD_BUTTON_COUNT, BAD_BUTTON_TYPE, BAD_NAME_SIZE, BAD_KEY_SIZE, BAD_SUB_COUNT, BAD_URL_SIZE = (
    40016, 40017, 40018, 40019, 40023, 40024)


def published_menu(state: FakeWeChatState) -> dict[str, Any] | None:
    """The body of the last accepted ``menu/create``, or None (never published, or deleted since)."""
    with state.lock:
        for sent in reversed(state.sent):
            if sent.kind == "menu":
                return sent.payload
            if sent.kind == "menu_delete":
                return None
    return None


def _button_error(button: Any, top: bool) -> int:
    if not isinstance(button, dict) or not isinstance(button.get("name"), str):
        return BAD_BUTTON_TYPE
    if len(button["name"].encode()) > (16 if top else 60):
        return BAD_NAME_SIZE
    subs = button.get("sub_button")
    if top and subs:
        if not isinstance(subs, list) or len(subs) > 5:
            return BAD_SUB_COUNT
        return next((e for e in (_button_error(s, False) for s in subs) if e), 0)
    kind = button.get("type")
    if kind == "click":
        key = button.get("key")
        return 0 if isinstance(key, str) and 0 < len(key.encode()) <= 128 else BAD_KEY_SIZE
    if kind == "view":
        url = button.get("url")
        return 0 if isinstance(url, str) and 0 < len(url.encode()) <= 1024 else BAD_URL_SIZE
    return BAD_BUTTON_TYPE


def menu_error(body: Any) -> int:
    """WeChat's errcode for a ``menu/create`` body (0 when it would be accepted)."""
    buttons = body.get("button") if isinstance(body, dict) else None
    if not isinstance(buttons, list) or not 1 <= len(buttons) <= 3:
        return BAD_BUTTON_COUNT
    return next((e for e in (_button_error(b, True) for b in buttons) if e), 0)


def menu_routes(state: FakeWeChatState) -> list[Route]:
    """The menu endpoints bound to ``state``."""

    async def gate(request: Request, endpoint: str) -> Response | None:
        token = request.query_params.get("access_token", "")
        if token not in state.tokens:
            code = 42001 if token.startswith("tok-") else 40001
            return JSONResponse({"errcode": code, "errmsg": "access_token invalid"})
        delay = state.latency.get(endpoint, 0.0)
        if delay:
            await asyncio.sleep(delay)
        fault = state.take_fault(endpoint, None)
        if fault is None:
            return None
        if fault.status:
            return Response("fault", status_code=fault.status)
        return JSONResponse({"errcode": fault.errcode, "errmsg": f"scripted {fault.errcode}"})

    async def create(request: Request) -> Response:
        if (refused := await gate(request, "menu_create")) is not None:
            return refused
        try:
            body = json.loads(await request.body() or b"{}")
        except ValueError:
            return JSONResponse({"errcode": 47001, "errmsg": "data format error"})
        code = menu_error(body)
        if code:
            return JSONResponse({"errcode": code, "errmsg": "invalid menu"})
        state.record("menu", "", body)
        return JSONResponse({"errcode": 0, "errmsg": "ok"})

    async def get(request: Request) -> Response:
        if (refused := await gate(request, "menu_get")) is not None:
            return refused
        menu = published_menu(state)
        if menu is None:
            return JSONResponse({"errcode": NO_MENU, "errmsg": "menu no exist"})
        buttons = [b | {"sub_button": b.get("sub_button", [])} for b in menu["button"]]
        return JSONResponse({"menu": {"button": buttons}})

    async def delete(request: Request) -> Response:
        if (refused := await gate(request, "menu_delete")) is not None:
            return refused
        state.record("menu_delete", "", {})
        return JSONResponse({"errcode": 0, "errmsg": "ok"})

    return [
        Route("/cgi-bin/menu/create", create, methods=["POST"]),
        Route("/cgi-bin/menu/get", get, methods=["GET"]),
        Route("/cgi-bin/menu/delete", delete, methods=["GET"]),
    ]
