"""``wxbot bench webhook``: ack latency and throughput of the webhook beside an empty handler.

Both servers run as their own uvicorn process, with the same event loop and HTTP parser; the load
comes from another process over loopback. Throughput at saturation: ``--rounds`` flat-out runs per
server, alternating between the two (so a machine that slows down or speeds up mid-run weighs on
both alike); the figure is each server's median round. Then open-loop runs at the offered rates,
one server after the other (latency measured from the moment each request was due). The webhook
runs against a private ``redis-server`` (AOF, as deployed) with the RQ dispatcher and answers
``success`` as soon as the message is durable and its drain job queued (no workers: this measures
the ack path alone).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from bot.settings import Settings

__all__ = ["add_arguments", "measure", "report_of", "run", "saturated"]

TARGET_P99_MS = 20.0
TARGET_SHARE = 0.5
TOKEN = "bench-token"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: offered rates, duration per run, connections, Redis."""
    parser.add_argument("--rates", default="250,500,1000", help="offered loads in requests/s (comma-separated)")
    parser.add_argument("--seconds", type=float, default=3.0, help="duration of each offered-load run")
    parser.add_argument("--saturate", type=int, default=20000, help="requests of each flat-out run (0: skip)")
    parser.add_argument("--rounds", type=int, default=3, help="flat-out runs per server, alternating")
    parser.add_argument("--connections", type=int, default=64, help="client connections")
    parser.add_argument("--redis-url", default="", help="use this Redis (its DB is FLUSHED) instead of a private one")
    parser.add_argument("--pretty", action="store_true", help="indent the JSON output")


def _server(kind: str, redis_url: str) -> tuple[Any, int]:
    from bot.bench._procs import spawn, wait_port
    from bot.bench._redis import free_port

    port = free_port()
    spec = {"kind": kind, "port": port, "redis_url": redis_url, "token": TOKEN, "reply_wait_s": 0.0,
            "max_attempts": 1, "rate_limit": 1000, "sweep": False}
    proc = spawn(["-m", "bot.bench._serve", json.dumps(spec)])
    wait_port(port, proc=proc)
    return proc, port


def measure(redis_url: str, *, rates: list[float], seconds: float, saturate: int, rounds: int,
            connections: int) -> dict[str, dict[str, Any]]:
    """Every run against one server process of each kind (``empty`` and ``webhook``), both up at once."""
    from bot.bench._procs import run_load, stop

    kinds = ("empty", "webhook")
    servers = {kind: _server(kind, redis_url) for kind in kinds}
    out: dict[str, dict[str, Any]] = {kind: {} for kind in kinds}
    try:
        base = {kind: {"port": port, "token": TOKEN, "connections": connections, "users": 5000}
                for kind, (_, port) in servers.items()}
        for kind in kinds:
            run_load(base[kind] | {"count": 300, "user_prefix": f"{kind}-warm"})
        for r in range(rounds if saturate else 0):
            for kind in kinds:
                out[kind].setdefault("saturation_rounds", []).append(
                    run_load(base[kind] | {"count": saturate, "user_prefix": f"{kind}-sat{r}"}))
        for kind in kinds:
            for rate in rates:
                out[kind][f"offered_{int(rate)}"] = run_load(
                    base[kind] | {"count": int(rate * seconds), "rate": rate, "user_prefix": f"{kind}-{int(rate)}"})
    finally:
        for kind, (proc, _) in servers.items():
            crashes = stop([proc])
            if crashes:
                out[kind]["crashes"] = crashes
    return out


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Run the benchmark, print one JSON report; 0 when the targets hold."""
    import redis

    from bot.bench._redis import PrivateRedis

    rates = [float(r) for r in args.rates.split(",") if r.strip()]
    private = None if args.redis_url else PrivateRedis(aof=True).start()
    url = args.redis_url or (private.url if private else "")
    try:
        redis.Redis.from_url(url).flushdb()
        runs = measure(url, rates=rates, seconds=args.seconds, saturate=args.saturate,
                       rounds=max(1, args.rounds), connections=args.connections)
    finally:
        if private:
            private.stop()
    report = report_of(runs["empty"], runs["webhook"], rates)
    print(json.dumps(report, ensure_ascii=False, indent=2 if args.pretty else None))
    return 0 if report["within_target"] else 1


def saturated(runs: dict[str, Any]) -> float:
    """The median flat-out throughput over a server's rounds (0.0 without any)."""
    rounds = sorted(float(r.get("throughput_per_s", 0.0)) for r in runs.get("saturation_rounds", []))
    if not rounds:
        return 0.0
    mid = len(rounds) // 2
    return rounds[mid] if len(rounds) % 2 else round((rounds[mid - 1] + rounds[mid]) / 2, 1)


def report_of(empty: dict[str, Any], hook: dict[str, Any], rates: list[float]) -> dict[str, Any]:
    """The figures and the verdict from both servers' runs (pure)."""
    top = f"offered_{int(max(rates))}" if rates else ""
    sat_e, sat_w = saturated(empty), saturated(hook)
    p99 = hook.get(top, {}).get("latency", {}).get("p99_ms")
    share = round(sat_w / sat_e, 3) if sat_e else None
    errors = sum(n for run in [*hook.get("saturation_rounds", []), *(v for v in hook.values() if isinstance(v, dict))]
                 for s, n in run.get("statuses", {}).items() if s != "200")
    return {
        "bench": "webhook",
        "webhook": hook, "baseline_empty_handler": empty,
        "figures": {"ack_p99_ms_at_top_rate": p99, "top_rate_per_s": max(rates) if rates else None,
                    "webhook_max_per_s": sat_w, "empty_max_per_s": sat_e, "share_of_empty": share,
                    "rounds": {kind: [r.get("throughput_per_s") for r in runs.get("saturation_rounds", [])]
                               for kind, runs in (("empty", empty), ("webhook", hook))},
                    "non_200": errors},
        "targets": {"ack_p99_ms": TARGET_P99_MS, "share_of_empty": TARGET_SHARE},
        "within_target": bool(p99 is not None and p99 <= TARGET_P99_MS and share is not None
                              and share >= TARGET_SHARE and errors == 0 and "crashes" not in hook),
    }
