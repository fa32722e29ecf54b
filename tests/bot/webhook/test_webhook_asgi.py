"""The raw ASGI pieces of the webhook's POST route."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.webhook import BodyTooLarge, query_of, read_body, respond


def test_query_string_decoding_matches_form_urlencoding() -> None:
    scope = {"query_string": b"timestamp=1764460800&nonce=a%2Bb&signature=x+y&empty=&flag&n=1&n=2&%E4%BD%A0=%E5%A5%BD"}
    assert query_of(scope) == {"timestamp": "1764460800", "nonce": "a+b", "signature": "x y", "empty": "",
                               "flag": "", "n": "2", "你": "好"}
    assert query_of({}) == {} and query_of({"query_string": b"&&"}) == {}


def _receiver(messages: list[dict[str, Any]]) -> Any:
    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}
    return receive


def test_body_is_joined_from_chunks_and_capped() -> None:
    chunks = [{"type": "http.request", "body": b"ab", "more_body": True},
              {"type": "http.request", "body": b"cd", "more_body": False}]
    assert asyncio.run(read_body({"headers": []}, _receiver(list(chunks)), 4)) == b"abcd"
    with pytest.raises(BodyTooLarge):  # received bytes over the cap
        asyncio.run(read_body({"headers": []}, _receiver(list(chunks)), 3))
    with pytest.raises(BodyTooLarge):  # declared length over the cap (the client went away meanwhile)
        asyncio.run(read_body({"headers": [(b"content-length", b"99")]}, _receiver([]), 10))
    # the client went away mid-body: what arrived is returned (the XML parser then refuses it)
    assert asyncio.run(read_body({"headers": []}, _receiver([chunks[0]]), 10)) == b"ab"
    whole = [{"type": "http.request", "body": b"abcde"}]  # the usual case: one message, no more_body
    assert asyncio.run(read_body({"headers": []}, _receiver(list(whole)), 5)) == b"abcde"
    with pytest.raises(BodyTooLarge):  # one message over the cap, no content-length declared
        asyncio.run(read_body({"headers": []}, _receiver(list(whole)), 4))
    assert asyncio.run(read_body({"headers": []}, _receiver([]), 4)) == b""  # gone before any body


def test_an_oversized_body_is_read_to_its_end_before_the_refusal_up_to_a_hard_cap() -> None:
    body = [{"type": "http.request", "body": b"x" * 10, "more_body": True} for _ in range(5)]
    body[-1]["more_body"] = False
    left = list(body)
    with pytest.raises(BodyTooLarge):
        asyncio.run(read_body({"headers": [(b"content-length", b"50")]}, _receiver(left), 20))
    assert left == []  # all of it was read (and dropped): the 413 reaches a client still sending
    left = list(body)
    with pytest.raises(BodyTooLarge):  # past the hard cap: answered without reading the rest
        asyncio.run(read_body({"headers": []}, _receiver(left), 5, discard_cap=25))
    assert len(left) == 2


def test_respond_sends_status_type_and_length() -> None:
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(respond(send, (200, "好".encode(), b"text/plain; charset=utf-8")))
    assert sent[0]["status"] == 200 and (b"content-length", b"3") in sent[0]["headers"]
    assert sent[1] == {"type": "http.response.body", "body": "好".encode()}
