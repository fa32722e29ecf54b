"""The admin gate: ``ADMIN_TOKEN`` as a Bearer header or an HttpOnly session cookie set by a login form.

No token configured → the admin surface does not exist (404 for every path). Missing credentials →
401 (a login form for pages, JSON for the API); wrong credentials → 403. The cookie holds an HMAC
derived from the token, never the token itself; it is always HttpOnly and SameSite=Strict, and
Secure whenever the login came over HTTPS (nginx's ``X-Forwarded-Proto: https`` included).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import parse_qs

from starlette.requests import Request

COOKIE = "wxbot_admin"
COOKIE_MAX_AGE = 12 * 3600
_SESSION_CONTEXT = b"wxbot-admin-session-v1"


class Verdict(StrEnum):
    """What the gate decided for one request."""

    OFF = "off"  # no token configured: pretend nothing is here
    MISSING = "missing"
    WRONG = "wrong"
    OK = "ok"


def session_value(token: str) -> str:
    """The cookie value for ``token`` (an HMAC, so a leaked cookie does not reveal the token)."""
    return hmac.new(token.encode(), _SESSION_CONTEXT, hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class AdminGate:
    """Checks requests against the configured admin token."""

    token: str

    @property
    def enabled(self) -> bool:
        return bool(self.token)

    def check_token(self, offered: str) -> bool:
        """Constant-time comparison of an offered token."""
        return self.enabled and hmac.compare_digest(offered.encode(), self.token.encode())

    def verdict(self, request: Request) -> Verdict:
        """Pure decision from the request's headers and cookies."""
        if not self.enabled:
            return Verdict.OFF
        header = request.headers.get("authorization", "")
        if header:
            scheme, _, value = header.partition(" ")
            return Verdict.OK if scheme.lower() == "bearer" and self.check_token(value.strip()) else Verdict.WRONG
        cookie = request.cookies.get(COOKIE)
        if cookie is None:
            return Verdict.MISSING
        return Verdict.OK if hmac.compare_digest(cookie, session_value(self.token)) else Verdict.WRONG


def over_https(request: Request) -> bool:
    """True when the browser reached us over HTTPS: directly, or through a proxy that says so in
    ``X-Forwarded-Proto`` (believed from any peer: it can only make the cookie stricter)."""
    forwarded = request.headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
    return request.url.scheme == "https" or forwarded == "https"


async def form_fields(request: Request, limit: int = 4096) -> dict[str, str]:
    """The fields of a small urlencoded form body (first value of each; no multipart dependency)."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return {}
    return {k: v[0] for k, v in parse_qs(body.decode("utf-8", "replace")).items()}
