"""The admin web surface under ``/admin``: conversations, transcripts with traces, re-run diff, stats.

Read-only by construction: there is no route that delivers, enqueues or edits anything (the only
POSTs are login and logout). Mount with ``app.router.routes.extend(admin_routes(deps))``.
"""

from __future__ import annotations

import asyncio
from argparse import ArgumentTypeError
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from bot.admin._auth import COOKIE, COOKIE_MAX_AGE, AdminGate, Verdict, form_fields, over_https, session_value
from bot.admin._labels import entry_view, local_time
from bot.admin._pages import SECURITY_HEADERS, asset, favicon, login_page
from bot.admin.cli_support import parse_since
from bot.admin.overview import AdminDeps, context_view, page_stats

Handler = Callable[[Request], Awaitable[Response]]
MAX_LIMIT = 1000


def _json(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=SECURITY_HEADERS)


def _bearer(status: int) -> dict[str, str]:
    return {"WWW-Authenticate": "Bearer"} if status == 401 else {}


def _with_headers(response: Response, headers: dict[str, str]) -> Response:
    for name, value in headers.items():
        response.headers[name] = value
    return response


def guarded(gate: AdminGate, handler: Handler, *, api: bool) -> Handler:
    """``handler`` behind the admin gate."""

    async def endpoint(request: Request) -> Response:
        verdict = gate.verdict(request)
        if verdict is not Verdict.OK:
            if verdict is Verdict.OFF:
                return Response("Not Found", status_code=404)
            status = 401 if verdict is Verdict.MISSING else 403
            if api:
                return _with_headers(_json({"error": "unauthorized" if status == 401 else "forbidden"}, status),
                                     _bearer(status))
            return login_page(status, next_path=request.url.path, error="" if status == 401 else "令牌不正确")
        return await handler(request)

    return endpoint


def _safe_next(value: str) -> str:
    return value if value in ("/admin", "/simulator") else "/admin"


def _limit(request: Request, default: int) -> int:
    try:
        return max(1, min(MAX_LIMIT, int(request.query_params.get("limit", default))))
    except ValueError:
        return default


def admin_routes(deps: AdminDeps) -> list[BaseRoute]:
    """Routes of the admin surface."""
    gate = AdminGate(deps.settings.admin_token)
    transcript = deps.transcript
    tz = str(deps.settings.wxbot_tz)

    async def login(request: Request) -> Response:
        if not gate.enabled:
            return Response("Not Found", status_code=404)
        if request.method == "GET":
            return login_page(401 if gate.verdict(request) is not Verdict.OK else 200)
        fields = await form_fields(request)
        target = _safe_next(fields.get("next", "/admin"))
        if not gate.check_token(fields.get("token", "")):
            return login_page(403, next_path=target, error="令牌不正确")
        response = RedirectResponse(target, status_code=303)
        response.set_cookie(COOKIE, session_value(gate.token), max_age=COOKIE_MAX_AGE, httponly=True,
                            samesite="strict", secure=over_https(request), path="/")
        return response

    async def logout(request: Request) -> Response:
        if not gate.enabled:
            return Response("Not Found", status_code=404)
        response = RedirectResponse("/admin/login", status_code=303)
        response.delete_cookie(COOKIE, path="/")
        return response

    async def page(request: Request) -> Response:
        return asset("index.html")

    async def static(request: Request) -> Response:
        return asset(request.path_params["name"])

    async def users(request: Request) -> Response:
        found = await asyncio.to_thread(transcript.users, _limit(request, 100))
        return _json({"users": [u.model_dump(mode="json") | {"last_active_text": local_time(u.last_active, tz)}
                                for u in found]})

    async def entries(request: Request) -> Response:
        user = request.query_params.get("user", "")
        if not user:
            return _json({"error": "user is required"}, 400)
        try:
            since = parse_since(request.query_params.get("since"))
        except (ValueError, ArgumentTypeError) as exc:
            return _json({"error": str(exc)}, 400)
        found = await asyncio.to_thread(transcript.read, user, since, _limit(request, 200))
        return _json({"user": user, "entries": [entry_view(e.model_dump(mode="json"), tz) for e in found]})

    async def context(request: Request) -> Response:
        user = request.query_params.get("user", "")
        if not user:
            return _json({"error": "user is required"}, 400)
        return _json(await asyncio.to_thread(context_view, deps.store, user))

    async def rerun(request: Request) -> Response:
        from bot.admin.rerun import rerun as run_rerun

        user = request.query_params.get("user", "")
        if not user:
            return _json({"error": "user is required"}, 400)
        turns = await asyncio.to_thread(transcript.turns, user, None, _limit(request, 200))
        report = await asyncio.to_thread(run_rerun, user, turns, deps.sandbox)
        data = report.model_dump(mode="json")
        for diff, turn in zip(data["turns"], report.turns, strict=True):
            diff["time"] = local_time(turn.at, tz)
        return _json(data)

    async def stats(request: Request) -> Response:
        return _json(await asyncio.to_thread(page_stats, deps.redis, tz))

    async def login_css(request: Request) -> Response:
        # the login page needs its stylesheet before anyone is logged in; it reveals nothing
        return asset("admin.css") if gate.enabled else Response("Not Found", status_code=404)

    async def icon(request: Request) -> Response:
        return favicon()

    async def anything_else(request: Request) -> Response:
        return Response("Not Found", status_code=404)

    def page_route(path: str, handler: Handler) -> Route:
        return Route(path, guarded(gate, handler, api=False), methods=["GET"])

    def api_route(path: str, handler: Handler) -> Route:
        return Route(path, guarded(gate, handler, api=True), methods=["GET"])

    return [
        Route("/admin/login", login, methods=["GET", "POST"]),
        Route("/admin/logout", logout, methods=["POST"]),
        Route("/admin/login.css", login_css, methods=["GET"]),
        Route("/favicon.ico", icon, methods=["GET"]),
        page_route("/admin", page),
        page_route("/admin/", page),
        page_route("/admin/static/{name}", static),
        api_route("/admin/api/users", users),
        api_route("/admin/api/transcript", entries),
        api_route("/admin/api/context", context),
        api_route("/admin/api/rerun", rerun),
        api_route("/admin/api/stats", stats),
        Route("/admin/{rest:path}", guarded(gate, anything_else, api=True),
              methods=["GET", "POST", "PUT", "PATCH", "DELETE"]),
    ]

