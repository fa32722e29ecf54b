"""The load generator's requests: signed up front, signed again when sent past the replay window."""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urlsplit

from bot.bench import LoadSpec, SignedRequests
from bot.wechat.testkit.driver import sign


def _query(request: bytes) -> dict[str, str]:
    target = request.split(b" ", 2)[1].decode()
    return {k: v[0] for k, v in parse_qs(urlsplit(target).query).items()}


def test_a_request_sent_late_is_signed_anew_for_the_same_message() -> None:
    requests = SignedRequests(LoadSpec(port=1, count=2, token="tok"))
    early = requests[1]
    requests._signed_at -= SignedRequests.RESIGN_AFTER_S + 1  # the run has gone on that long
    late = requests[1]
    assert early.split(b"\r\n\r\n", 1)[1] == late.split(b"\r\n\r\n", 1)[1]  # the same message
    q = _query(late)
    assert q["signature"] == sign("tok", q["timestamp"], q["nonce"])
    assert abs(int(q["timestamp"]) - time.time()) < 5
    assert _query(early)["nonce"] != q["nonce"]
