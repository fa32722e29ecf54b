"""Offered-load HTTP client for the benchmarks, run as its own process (``python -m bot.bench._load``).

Open loop: request ``i`` is due at ``start + i / rate`` whatever happened before, so a slow server
shows up as latency (measured from the due time, no coordinated omission), not as a lower rate.
A hand-written HTTP/1.1 keep-alive client on uvloop keeps the client's own cost per request far below
the server's. Reads a JSON spec from argv[1], prints one JSON result.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bot.bench._stats import summary_ms
from bot.wechat.testkit.driver import sign
from bot.wechat.testkit.messages import MessageFactory

__all__ = ["LoadSpec", "SignedRequests", "build_requests", "main", "run_load"]


@dataclass
class LoadSpec:
    """What to send: ``count`` signed text messages from ``users`` users at ``rate``/s (0: flat out)."""

    port: int
    count: int
    rate: float = 0.0
    connections: int = 32
    users: int = 1000
    path: str = "/wechat"
    token: str = "bench-token"
    texts: list[str] = field(default_factory=lambda: ["你好"])
    user_prefix: str = "bench"
    timeout_s: float = 30.0


class SignedRequests:
    """Raw HTTP/1.1 requests, each a distinct signed message (user ``i % users``), signed up front; a
    request sent more than ``RESIGN_AFTER_S`` later is signed again when it is sent, so a run longer
    than the webhook's 300 s replay window is not refused for old timestamps."""

    RESIGN_AFTER_S = 200.0

    def __init__(self, spec: LoadSpec) -> None:
        factory = MessageFactory()
        base = time.time_ns() // 1000
        self._spec = spec
        self._bodies = [factory.text(f"{spec.user_prefix}{i % spec.users}", spec.texts[i % len(spec.texts)],
                                     msg_id=base + i).encode() for i in range(spec.count)]
        self._signed_at = time.time()
        self._signed = [self._sign(body) for body in self._bodies]

    def __len__(self) -> int:
        return len(self._bodies)

    def __getitem__(self, i: int) -> bytes:
        if time.time() - self._signed_at < self.RESIGN_AFTER_S:
            return self._signed[i]
        return self._sign(self._bodies[i])

    def _sign(self, body: bytes) -> bytes:
        spec = self._spec
        ts, nonce = str(int(time.time())), secrets.token_hex(6)
        query = f"timestamp={ts}&nonce={nonce}&signature={sign(spec.token, ts, nonce)}"
        head = (f"POST {spec.path}?{query} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/xml\r\n"
                f"Content-Length: {len(body)}\r\n\r\n").encode()
        return head + body


def build_requests(spec: LoadSpec) -> SignedRequests:
    """The run's requests (see :class:`SignedRequests`)."""
    return SignedRequests(spec)


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split(b" ", 2)[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    body = await reader.readexactly(length) if length else b""
    return status, body


async def run_load(spec: LoadSpec, requests: SignedRequests) -> dict[str, Any]:
    """Send ``requests`` as specified; returns latencies, statuses, throughput and passive replies."""
    next_index = 0
    latency: list[float] = []
    service: list[float] = []
    statuses: Counter[str] = Counter()
    passive = 0
    start = time.perf_counter() + 0.05
    interval = 1.0 / spec.rate if spec.rate > 0 else 0.0
    finished_at = start

    async def connection() -> None:
        nonlocal next_index, passive, finished_at
        reader, writer = await asyncio.open_connection("127.0.0.1", spec.port)
        try:
            while next_index < len(requests):
                i = next_index
                next_index += 1
                due = start + i * interval
                now = time.perf_counter()
                if due > now:
                    await asyncio.sleep(due - now)
                sent = time.perf_counter()
                try:
                    writer.write(requests[i])
                    status, body = await asyncio.wait_for(_read_response(reader), spec.timeout_s)
                except (TimeoutError, OSError, asyncio.IncompleteReadError) as exc:
                    statuses[type(exc).__name__] += 1
                    writer.close()
                    reader, writer = await asyncio.open_connection("127.0.0.1", spec.port)
                    continue
                done = time.perf_counter()
                finished_at = max(finished_at, done)
                latency.append(done - max(due, start))
                service.append(done - sent)
                statuses[str(status)] += 1
                passive += body.startswith(b"<xml")
        finally:
            writer.close()

    await asyncio.gather(*(connection() for _ in range(spec.connections)))
    elapsed = finished_at - start
    ok = sum(n for s, n in statuses.items() if s.isdigit() and int(s) < 500)
    return {
        "sent": len(requests), "offered_per_s": spec.rate or None, "connections": spec.connections,
        "seconds": round(elapsed, 3), "throughput_per_s": round(ok / elapsed, 1) if elapsed > 0 else 0.0,
        "statuses": dict(statuses), "passive_replies": passive,
        "latency": summary_ms(latency), "service_time": summary_ms(service),
    }


def main(argv: list[str] | None = None) -> int:
    """``python -m bot.bench._load '<json spec>'`` → one JSON line on stdout."""
    spec = LoadSpec(**json.loads((argv or sys.argv[1:])[0]))
    requests = build_requests(spec)
    cpu = time.process_time()  # the load's own CPU, building the requests left out
    try:
        import uvloop

        result = uvloop.run(run_load(spec, requests))
    except ImportError:
        result = asyncio.run(run_load(spec, requests))
    result["cpu_s"] = round(time.process_time() - cpu, 3)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
