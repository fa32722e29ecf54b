"""An oversized body gets its 413 over a real socket, also from a client that is still sending and
asks the server to close the connection afterwards (before: a broken pipe or a reset instead)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from urllib.parse import urlencode

import fakeredis
import httpx
import pytest

from bot.wechat.testkit import ServerThread
from tests.harness.webhook_app import make_app, signed


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    thread = ServerThread(make_app(fakeredis.FakeRedis(server=fakeredis.FakeServer())))
    thread.start()
    yield thread
    thread.stop()


def _post_raw(port: int, size: int, *, close: bool) -> tuple[str | None, bytes]:
    """Send headers and a ``size``-byte body in 64 KB writes, then read the answer: (the error the
    sending met, or None; the status line)."""
    body = b"<xml><Content>" + b"x" * size + b"</Content></xml>"
    head = (f"POST /wechat?{urlencode(signed())} HTTP/1.1\r\nHost: wx\r\nContent-Type: text/xml\r\n"
            f"Content-Length: {len(body)}\r\n" + ("Connection: close\r\n" if close else "") + "\r\n").encode()
    error = None
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        try:
            sock.sendall(head)
            for i in range(0, len(body), 65536):
                sock.sendall(body[i:i + 65536])
        except OSError as exc:
            error = type(exc).__name__
        answer = b""
        try:
            while b"\r\n" not in answer:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                answer += chunk
        except OSError as exc:
            error = error or type(exc).__name__
    return error, answer.split(b"\r\n", 1)[0]


@pytest.mark.parametrize("close", [True, False])
@pytest.mark.parametrize("size", [70_000, 300_000, 900_000])
def test_a_client_still_sending_an_oversized_body_receives_the_413(server: ServerThread, size: int,
                                                                   close: bool) -> None:
    for _ in range(10):
        assert _post_raw(server.port, size, close=close) == (None, b"HTTP/1.1 413 Request Entity Too Large")


def test_the_connection_stays_usable_after_a_413(server: ServerThread) -> None:
    with httpx.Client() as client:
        url = f"{server.url}/wechat"
        assert client.post(url, params=signed(), content=b"x" * 200_000).status_code == 413
        assert client.post(url, params=signed(), content=b"<xml>").status_code == 400  # same connection
