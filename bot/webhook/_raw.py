"""Raw ASGI pieces for the webhook's hot POST route: no Request/Response objects per message.

Starlette's request/response wrapper, query-string multidict and response classes cost about as
much CPU per request as the webhook's own checks; the POST route therefore reads the scope and
sends the two response messages itself. GET verification and the admin pages stay plain Starlette.

:func:`arrived`: when a request reached this host — by the kernel's clock, not by when its handler ran.

WeChat waits 5 s from when it sent a request. A webhook process that was frozen (a long GC pause,
CPU starvation, SIGSTOP) reads the request late: counting its wait from the handler's start would
let it answer after WeChat gave up. The kernel stamps the last data it received on each TCP
connection (``TCP_INFO``'s ``tcpi_last_data_recv``, milliseconds ago); a request's bytes arrive
together and the client then waits, so that stamp is when the request arrived, whenever the process
gets to read it. Where it cannot be read (not Linux, a Unix socket, a server other than uvicorn),
the handler's start is used.
"""

from __future__ import annotations

import socket
import struct
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, NamedTuple
from urllib.parse import unquote_plus

__all__ = ["TEXT", "XML", "Answer", "AsgiEndpoint", "BodyTooLarge", "Receive", "Reply", "Scope", "Send", "arrived",
           "query_of", "read_body", "respond"]

TEXT = b"text/plain; charset=utf-8"
XML = b"application/xml"
Reply = tuple[int, bytes, bytes]  # status, body, content type
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
DISCARD_CAP = 1 << 20  # an oversized body is read (and dropped) up to this much before the 413 goes out


class Answer(NamedTuple):
    """A reply and what to do once it was written (``written``: ``time.monotonic()`` just after)."""

    reply: Reply
    then: Callable[[float], Awaitable[None]]


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


async def read_body(scope: Scope, receive: Receive, limit: int, *, discard_cap: int = DISCARD_CAP) -> bytes:
    """The whole request body; :class:`BodyTooLarge` when ``content-length`` or the bytes exceed
    ``limit`` — raised only once the rest of the body was read and dropped (up to ``discard_cap``
    bytes in all), so the 413 reaches a client that is still sending instead of a reset connection."""
    declared = -1
    for name, value in scope.get("headers", ()):
        if name == b"content-length" and value.isdigit():
            declared = int(value)
    chunks: list[bytes] = []
    size, more = 0, True
    while more:
        message = await receive()
        if message["type"] != "http.request":  # http.disconnect: what arrived is all there is
            break
        chunk: bytes = message.get("body", b"")
        more = bool(message.get("more_body", False))
        if not more and not chunks and declared <= limit and len(chunk) <= limit:
            return chunk  # the usual case: the whole body in one message
        size += len(chunk)
        if size > limit or declared > limit:
            if size > discard_cap:
                break  # past the cap: answer now (the client may see the connection close)
            continue  # keep reading, drop it
        chunks.append(chunk)
    if size > limit or declared > limit:
        raise BodyTooLarge()
    return b"".join(chunks)


async def respond(send: Send, reply: Reply) -> None:
    status, body, content_type = reply
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", content_type), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


class AsgiEndpoint:
    """Wrap ``handle(scope, receive) -> Reply | Answer`` as an ASGI app (Starlette routes a
    non-function endpoint as ASGI, without its request/response wrapper); an :class:`Answer`'s
    ``then`` runs once the reply was written."""

    def __init__(self, handle: Callable[[Scope, Receive], Awaitable[Reply | Answer]]) -> None:
        self._handle = handle

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        result = await self._handle(scope, receive)
        if isinstance(result, Answer):
            await respond(send, result.reply)
            await result.then(time.monotonic())
        else:
            await respond(send, result)


# -- when the request arrived ----------------------------------------------------------------
_TCP_INFO = getattr(socket, "TCP_INFO", None)
_LAST_DATA_RECV = 52  # offset of tcpi_last_data_recv (u32, ms) in struct tcp_info (Linux ≥ 2.6)
_INFO_LEN = 104


def arrived(receive: Any) -> float:
    """The ``time.monotonic()`` at which the request ``receive`` reads (uvicorn's request cycle, whose
    ``transport`` is the connection) reached this host: now, less what the kernel says is the age of
    the connection's last received data."""
    now = time.monotonic()
    age = _data_age_s(receive)
    return now - age if age is not None else now


def _data_age_s(receive: Any) -> float | None:
    transport = getattr(getattr(receive, "__self__", None), "transport", None)
    if transport is None or _TCP_INFO is None:
        return None
    try:
        sock = transport.get_extra_info("socket")
        info = sock.getsockopt(socket.IPPROTO_TCP, _TCP_INFO, _INFO_LEN)
        (ms,) = struct.unpack_from("I", info, _LAST_DATA_RECV)
    except (OSError, AttributeError, TypeError, struct.error):
        return None
    return float(ms) / 1000.0
