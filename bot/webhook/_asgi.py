"""Raw ASGI pieces for the webhook's hot POST route: no Request/Response objects per message.

Starlette's request/response wrapper, query-string multidict and response classes cost about as
much CPU per request as the webhook's own checks; the POST route therefore reads the scope and
sends the two response messages itself. GET verification and the admin pages stay plain Starlette.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import unquote_plus

__all__ = ["TEXT", "XML", "AsgiEndpoint", "BodyTooLarge", "Receive", "Reply", "Scope", "Send", "query_of", "read_body", "respond"]

TEXT = b"text/plain; charset=utf-8"
XML = b"application/xml"
Reply = tuple[int, bytes, bytes]  # status, body, content type
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


class BodyTooLarge(Exception):
    """The declared or received body is over the cap (→ 413)."""


def query_of(scope: Scope) -> dict[str, str]:
    """The query string as a dict (``application/x-www-form-urlencoded``; a repeated name: the last)."""
    out: dict[str, str] = {}
    raw = scope.get("query_string", b"").decode("latin-1")
    for part in raw.split("&"):
        if not part:
            continue
        name, _, value = part.partition("=")
        if "%" in part or "+" in part:
            name, value = unquote_plus(name), unquote_plus(value)
        out[name] = value
    return out


async def read_body(scope: Scope, receive: Receive, limit: int) -> bytes:
    """The whole request body, refused early when ``content-length`` or the bytes exceed ``limit``."""
    for name, value in scope.get("headers", ()):
        if name == b"content-length" and value.isdigit() and int(value) > limit:
            raise BodyTooLarge()
    message = await receive()
    if message["type"] != "http.request":  # http.disconnect: nothing arrived
        return b""
    body: bytes = message.get("body", b"")
    if len(body) > limit:
        raise BodyTooLarge()
    if not message.get("more_body", False):
        return body  # the usual case: the whole body in one message
    chunks, size = [body], len(body)
    while True:
        message = await receive()
        if message["type"] != "http.request":  # http.disconnect: what arrived is all there is
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge()
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


async def respond(send: Send, reply: Reply) -> None:
    status, body, content_type = reply
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", content_type), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


class AsgiEndpoint:
    """Wrap ``handle(scope, receive) -> Reply`` as an ASGI app (Starlette routes a non-function
    endpoint as ASGI, without its request/response wrapper)."""

    def __init__(self, handle: Callable[[Scope, Receive], Awaitable[Reply]]) -> None:
        self._handle = handle

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await respond(send, await self._handle(scope, receive))
