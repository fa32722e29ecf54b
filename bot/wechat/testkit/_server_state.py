"""In-memory state of the fake WeChat API: tokens, scripted faults, and everything that was sent."""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any

AFTER_DELIVERY = ("timeout", "reset")  # what a fault may do once the message was delivered


@dataclass(frozen=True)
class Sent:
    """One accepted outgoing call: ``kind`` is custom, typing, template or subscribe."""

    kind: str
    user: str
    payload: dict[str, Any]
    at: float

    @property
    def text(self) -> str:
        """The text content (custom message content, or the template/subscribe data joined)."""
        if self.kind == "custom":
            return str(self.payload.get("text", {}).get("content", ""))
        data = self.payload.get("data", {})
        return "".join(str(v.get("value", "")) for v in data.values() if isinstance(v, dict))


@dataclass
class Fault:
    """A scripted answer, ``times`` times: an ``errcode`` (WeChat JSON error) or an HTTP ``status``;
    or, with ``after``, the message is delivered and then the answer never comes (``"timeout"``: the
    request hangs for ``hang_s``, longer than any client waits) or the connection is reset
    (``"reset"``) — what a slow or broken network does to a send that did reach the user.
    ``user``: only calls for that user."""

    errcode: int | None = None
    status: int | None = None
    times: int = 1
    user: str | None = None
    after: str | None = None
    hang_s: float = 30.0

    def __post_init__(self) -> None:
        if self.after is not None and self.after not in AFTER_DELIVERY:
            raise ValueError(f"after must be one of {AFTER_DELIVERY}, not {self.after!r}")


@dataclass
class RandomFaults:
    """Each call to an endpoint meets one of ``faults`` (picked at random) with probability ``rate``
    (seeded, reproducible)."""

    rate: float
    faults: tuple[Fault, ...]
    rng: random.Random = field(default_factory=lambda: random.Random(0))


@dataclass
class FakeWeChatState:
    """Thread-safe state shared by the fake server's handlers and the test that drives it."""

    app_id: str = "wxtestapp"
    secret: str = "testsecret"
    expires_in: int = 7200
    lock: threading.Lock = field(default_factory=threading.Lock)
    tokens: set[str] = field(default_factory=set)
    token_fetches: int = 0
    faults: dict[str, list[Fault]] = field(default_factory=dict)
    latency: dict[str, float] = field(default_factory=dict)
    random_faults: dict[str, RandomFaults] = field(default_factory=dict)
    sent: list[Sent] = field(default_factory=list)
    _serial: int = 0

    def issue_token(self) -> str:
        with self.lock:
            self._serial += 1
            self.token_fetches += 1
            token = f"tok-{self._serial}-{int(time.time() * 1000)}"
            self.tokens.add(token)
            return token

    def current_token(self) -> str | None:
        with self.lock:
            return max(self.tokens, key=lambda t: int(t.split("-")[1])) if self.tokens else None

    def expire_tokens(self) -> None:
        """Make every token issued so far invalid (the next call gets 42001)."""
        with self.lock:
            self.tokens.clear()

    def script(self, endpoint: str, fault: Fault) -> None:
        with self.lock:
            self.faults.setdefault(endpoint, []).append(fault)

    def take_fault(self, endpoint: str, user: str | None) -> Fault | None:
        with self.lock:
            queue = self.faults.get(endpoint, [])
            for fault in queue:
                if fault.user is None or fault.user == user:
                    fault.times -= 1
                    if fault.times <= 0:
                        queue.remove(fault)
                    return fault
            chaos = self.random_faults.get(endpoint)
            if chaos is not None and chaos.faults and chaos.rng.random() < chaos.rate:
                return replace(chaos.rng.choice(chaos.faults))
        return None

    def record(self, kind: str, user: str, payload: dict[str, Any]) -> int:
        with self.lock:
            self.sent.append(Sent(kind, user, payload, time.time()))
            return len(self.sent)

    def sent_to(self, user: str, kind: str | None = None) -> list[Sent]:
        with self.lock:
            return [s for s in self.sent if s.user == user and (kind is None or s.kind == kind)]
