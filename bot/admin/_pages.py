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


def asset(name: str) -> Response:
    """One packaged asset (only the names listed in ``ASSETS``)."""
    if name not in ASSETS:
        return Response("not found", status_code=404)
    body = resources.files("bot.admin").joinpath("static", name).read_bytes()
    return Response(body, media_type=ASSETS[name], headers=SECURITY_HEADERS)


def login_page(status: int, *, next_path: str = "/admin", error: str = "") -> HTMLResponse:
    """The login form (posts the token to /admin/login; the answer sets an HttpOnly cookie)."""
    message = f'<p class="error" id="login-error">{escape(error)}</p>' if error else ""
    html = f"""<!doctype html><html lang="zh"><head><meta charset="utf-8"><title>wxbot admin login</title>
<link rel="stylesheet" href="/admin/login.css"></head><body><main class="login">
<h1>wxbot admin</h1>{message}
<form method="post" action="/admin/login"><input type="hidden" name="next" value="{escape(next_path)}">
<label>Admin token <input type="password" name="token" id="token" autocomplete="current-password" autofocus></label>
<button type="submit" id="login">Log in</button></form></main></body></html>"""
    return HTMLResponse(html, status_code=status, headers=SECURITY_HEADERS)
