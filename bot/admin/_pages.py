"""Static assets of the admin and simulator pages, and the small server-rendered login page."""

from __future__ import annotations

from html import escape
from importlib import resources

from starlette.responses import HTMLResponse, Response

ASSETS = {
    "admin.js": "text/javascript", "admin.css": "text/css", "index.html": "text/html",
    "simulator.html": "text/html", "simulator.js": "text/javascript",
}
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; style-src 'self'; script-src 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store",
}


# The page icon (a green speech bubble), served at /favicon.ico and linked from every page.
FAVICON = (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" '
           b'fill="#2b5d34"/><path d="M7 9h18a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H14l-5 4v-4H7a2 2 0 0 1-2-2v-9a2 2 '
           b'0 0 1 2-2z" fill="#fff"/><circle cx="11" cy="15.5" r="1.6" fill="#2b5d34"/><circle cx="16" cy="15.5" '
           b'r="1.6" fill="#2b5d34"/><circle cx="21" cy="15.5" r="1.6" fill="#2b5d34"/></svg>')


def favicon() -> Response:
    """The page icon (public: it reveals nothing)."""
    return Response(FAVICON, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"})


def asset(name: str) -> Response:
    """One packaged asset (only the names listed in ``ASSETS``)."""
    if name not in ASSETS:
        return Response("not found", status_code=404)
    body = resources.files("bot.admin").joinpath("static", name).read_bytes()
    return Response(body, media_type=ASSETS[name], headers=SECURITY_HEADERS)


def login_page(status: int, *, next_path: str = "/admin", error: str = "") -> HTMLResponse:
    """The login form (posts the token to /admin/login; the answer sets an HttpOnly cookie)."""
    message = f'<p class="error" id="login-error">{escape(error)}</p>' if error else ""
    html = f"""<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>wxbot 管理后台 · 登录</title>
<link rel="icon" href="/favicon.ico" type="image/svg+xml">
<link rel="stylesheet" href="/admin/login.css"></head><body><main class="login">
<h1>wxbot 管理后台</h1>{message}
<form method="post" action="/admin/login"><input type="hidden" name="next" value="{escape(next_path)}">
<label>管理令牌 <input type="password" name="token" id="token" autocomplete="current-password" autofocus></label>
<button type="submit" id="login">登录</button></form></main></body></html>"""
    return HTMLResponse(html, status_code=status, headers=SECURITY_HEADERS)
