"""``wxbot bench pipeline``: webhook → Redis → N worker processes → reply, end to end.

Everything runs as real processes on this machine: a private ``redis-server`` (AOF, as deployed),
the webhook (uvicorn), ``--workers`` ``wxbot worker`` processes with the real engine, a fake WeChat
API for replies that miss the passive window, and the load generator. Turns are deterministic
(date/time questions and chit-chat, no model), from many users. Figures:

* ``turns_per_s``: messages answered per second, flat out (every request waits for its reply);
* ``passive_share`` and ``paced_latency``: share of messages answered passively, and their latency,
  at ``--passive-rate`` messages/s;
* ``cpu_ms_per_turn``: CPU per turn of each role (webhook, workers, Redis, the load generator)
  during the flat-out run, from ``/proc``; ``worker_rss_mb``: each worker's resident memory before
  and after it; ``redis_per_turn``: the flat-out run's script calls, commands and server time per
  turn as the server counts them (:mod:`bot.bench._redis_cost`);
* ``turns_per_s_by_workers`` (with ``--scale 1,2,4``): flat out with that many workers;
* baseline: RQ's forking ``Worker`` running empty jobs with the same number of processes.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from typing import Any

from bot.settings import Settings

__all__ = ["TEXTS", "TOKEN", "add_arguments", "run", "start_webhook"]

TARGET_TURNS = 1800.0
TARGET_FACTOR = 15.0
TARGET_PASSIVE = 0.99
TARGET_PASSIVE_P99_MS = 20.0
TARGET_CPU_MS = {"webhook": 0.25, "workers": 0.5, "redis": 0.2}  # per turn, each role's processes together
TOKEN = "bench-token"
TEXTS = ["今天几号", "现在几点", "今天星期几", "明天几号", "你好", "谢谢", "早上好", "几点了", "后天星期几", "在吗"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: workers, message counts, connections, rates."""
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--lanes", type=int, default=2, help="users drained side by side per worker (threads)")
    parser.add_argument("-n", "--count", type=int, default=10000, help="messages of the flat-out run")
    parser.add_argument("--users", type=int, default=1000, help="distinct users")
    parser.add_argument("--connections", type=int, default=128, help="concurrent webhook requests")
    parser.add_argument("--passive-rate", type=float, default=500.0, help="offered msg/s of the passive run")
    parser.add_argument("--passive-seconds", type=float, default=5.0, help="duration of the passive run")
    parser.add_argument("--baseline-jobs", type=int, default=500, help="empty jobs for the forking baseline")
    parser.add_argument("--scale", default="", metavar="N,N,…",
                        help="also measure turns/s flat out with each of these numbers of workers (e.g. 1,2,4)")
    parser.add_argument("--scale-count", type=int, default=5000, help="messages of each --scale run")
    parser.add_argument("--pretty", action="store_true", help="indent the JSON output")


def start_webhook(redis_url: str) -> tuple[Any, int]:
    """The real webhook in its own process on a free port (waits until it listens)."""
    from bot.bench._procs import spawn, wait_port
    from bot.bench._redis import free_port

    port = free_port()
    spec = {"kind": "webhook", "port": port, "redis_url": redis_url, "token": TOKEN, "rate_limit": 100000}
    hook = spawn(["-m", "bot.bench._serve", json.dumps(spec)])
    wait_port(port, proc=hook)
    return hook, port


def _start(redis_url: str, wx_url: str, workers: int, data_dir: str, lanes: int = 2) -> tuple[list[Any], int]:
    from bot.bench._procs import spawn

    hook, port = start_webhook(redis_url)
    env = {"REDIS_URL": redis_url, "WECHAT_API_BASE": wx_url, "WECHAT_APP_ID": "wxtestapp",
           "WECHAT_APP_SECRET": "testsecret", "WECHAT_TOKEN": TOKEN, "DATA_DIR": data_dir,
           "WEATHER_FAKE": "1", "OPENAI_BASE_URL": "", "OPENAI_API_KEY": "", "DATABASE_URL": ""}
    procs = []
    for i in range(workers):  # one at a time: concurrent first starts race on creating the SQLite tables
        procs.append(spawn(["-m", "bot.commands.worker", "--name", f"bench-{i}-{os.getpid()}",
                            "--typing-after", "0", "--lanes", str(lanes)], env=env))
        _wait_workers(redis_url, i + 1, procs[-1])
    return [hook, *procs], port


def _wait_workers(redis_url: str, n: int, proc: Any, timeout: float = 60.0) -> None:
    import redis
    from rq import Worker

    conn: Any = redis.Redis.from_url(redis_url)
    deadline = time.monotonic() + timeout
    while len(Worker.all(connection=conn)) < n and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.1)


def _custom_count(wx: Any) -> int:
    with wx.state.lock:
        return sum(1 for s in wx.state.sent if s.kind == "custom")


def _settle(wx: Any, expected: int, timeout: float = 30.0) -> int:
    deadline = time.monotonic() + timeout
    while _custom_count(wx) < expected and time.monotonic() < deadline:
        time.sleep(0.05)
    return _custom_count(wx)


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Run the benchmark, print one JSON report; 0 when the targets hold."""
    from bot import compose
    from bot.bench._jobs import forking_baseline
    from bot.bench._procs import cpu_seconds, resident_mb, run_load, stop
    from bot.bench._redis import PrivateRedis
    from bot.bench._redis_cost import RedisCost
    from bot.wechat.testkit import FakeWeChatServer

    base = {"token": TOKEN, "texts": TEXTS, "users": args.users, "timeout_s": 20.0}
    with PrivateRedis(aof=True) as redis_server, FakeWeChatServer() as wx, \
            tempfile.TemporaryDirectory(prefix="wxbot-bench-") as data_dir:
        procs, port = _start(redis_server.url, wx.url, args.workers, data_dir, args.lanes)
        try:
            warm = run_load(base | {"port": port, "count": 200, "connections": 16, "user_prefix": "warm"})
            if warm["passive_replies"] < 150:  # the first turns also wait for the engine to load
                run_load(base | {"port": port, "count": 200, "connections": 16, "user_prefix": "warm2"})
            before = _custom_count(wx)
            roles = {"webhook": [procs[0].pid], "workers": [p.pid for p in procs[1:]],
                     "redis": [redis_server.proc.pid] if redis_server.proc else []}
            roles["load generator"] = []  # its CPU: the flat run's own figure
            cpu_before = {role: sum(cpu_seconds(pid) for pid in pids) for role, pids in roles.items()}
            rss_before = [resident_mb(pid) for pid in roles["workers"]]
            server = compose.redis_client(Settings.from_env({"REDIS_URL": redis_server.url}))
            cost_before = RedisCost.read(server)
            flat = run_load(base | {"port": port, "count": args.count, "connections": args.connections,
                                    "user_prefix": "flat"})
            via_api = _settle(wx, before + args.count - flat["passive_replies"]) - before
            cost = RedisCost.read(server).since(cost_before, args.count)
            flat["redis_per_turn"] = {k: v for k, v in cost.items() if k not in ("commands", "usec")}
            flat["cpu_ms_per_turn"] = {role: round((sum(cpu_seconds(pid) for pid in pids) - cpu_before[role])
                                                   * 1000 / max(1, args.count), 3) for role, pids in roles.items()}
            flat["cpu_ms_per_turn"]["load generator"] = round(flat.pop("cpu_s", 0.0) * 1000 / max(1, args.count), 3)
            flat["worker_rss_mb"] = {"before": rss_before, "after": [resident_mb(pid) for pid in roles["workers"]]}
            before = _custom_count(wx)
            count = int(args.passive_rate * args.passive_seconds)
            paced = run_load(base | {"port": port, "count": count, "rate": args.passive_rate,
                                     "connections": max(32, int(args.passive_rate)), "user_prefix": "paced"})
            paced_api = _settle(wx, before + count - paced["passive_replies"]) - before
        finally:
            crashes = stop(procs)
        scale = {}
        for n in (int(x) for x in args.scale.split(",") if x.strip()):
            scale[str(n)], more = _scaled(redis_server.url, wx, data_dir, n, args, base)
            crashes += more
        baseline = forking_baseline(redis_server.url, jobs=args.baseline_jobs, workers=args.workers)
    report = _report(args, flat, via_api, paced, paced_api, baseline, crashes)
    if scale:
        report["figures"]["turns_per_s_by_workers"] = scale
    print(json.dumps(report, ensure_ascii=False, indent=2 if args.pretty else None))
    return 0 if report["within_target"] else 1


def _scaled(redis_url: str, wx: Any, data_dir: str, workers: int, args: argparse.Namespace,
            base: dict[str, Any]) -> tuple[float, list[str]]:
    """Turns/s flat out with ``workers`` fresh worker processes (and a fresh webhook)."""
    from bot.bench._procs import run_load, stop

    procs, port = _start(redis_url, wx.url, workers, data_dir, args.lanes)
    try:
        run_load(base | {"port": port, "count": 200, "connections": 16, "user_prefix": f"warm-{workers}"})
        before = _custom_count(wx)
        flat = run_load(base | {"port": port, "count": args.scale_count, "connections": args.connections,
                                "user_prefix": f"scale-{workers}"})
        answered = flat["passive_replies"] + _settle(wx, before + args.scale_count - flat["passive_replies"]) - before
    finally:
        crashes = stop(procs)
    return (round(answered / flat["seconds"], 1) if flat["seconds"] else 0.0), crashes


def _report(args: argparse.Namespace, flat: dict[str, Any], via_api: int, paced: dict[str, Any],
            paced_api: int, baseline: dict[str, Any], crashes: list[str]) -> dict[str, Any]:
    answered = flat["passive_replies"] + via_api
    turns = round(answered / flat["seconds"], 1) if flat["seconds"] else 0.0
    factor = round(turns / baseline["jobs_per_s"], 1) if baseline["jobs_per_s"] else None
    paced_sent = paced["sent"]
    share = round(paced["passive_replies"] / paced_sent, 4) if paced_sent else None
    lost = flat["sent"] - answered + paced_sent - paced["passive_replies"] - paced_api
    errors = sum(n for run in (flat, paced) for status, n in run["statuses"].items() if status != "200")
    cpu = flat.get("cpu_ms_per_turn") or {}
    p99 = paced["latency"]["p99_ms"]
    return {
        "bench": "pipeline", "workers": args.workers, "lanes": args.lanes,
        "flat_out": flat | {"answered_via_api": via_api},
        "paced": paced | {"answered_via_api": paced_api},
        "baseline_forking_worker_empty_jobs": baseline,
        "figures": {"turns_per_s": turns, "answered": answered, "sent": flat["sent"],
                    "x_forking_baseline": factor, "passive_rate_per_s": args.passive_rate,
                    "passive_share": share, "paced_latency": paced["latency"],
                    "cpu_ms_per_turn": flat.get("cpu_ms_per_turn"), "redis_per_turn": flat.get("redis_per_turn"),
                    "worker_rss_mb": flat.get("worker_rss_mb"),
                    "lost": lost, "errors": errors},
        "targets": {"turns_per_s": TARGET_TURNS, "x_forking_baseline": TARGET_FACTOR,
                    "passive_share": TARGET_PASSIVE, "paced_p99_ms": TARGET_PASSIVE_P99_MS,
                    "cpu_ms_per_turn": TARGET_CPU_MS},
        "crashes": crashes,
        "within_target": bool(turns >= TARGET_TURNS and factor is not None and factor >= TARGET_FACTOR
                              and share is not None and share >= TARGET_PASSIVE and p99 <= TARGET_PASSIVE_P99_MS
                              and all(cpu.get(role, 0.0) <= limit for role, limit in TARGET_CPU_MS.items())
                              and not lost and not errors and not crashes),
    }
