"""``wxbot bench worker``: where one worker's CPU goes per turn, under cProfile.

The same set-up as ``bench pipeline`` (a private ``redis-server`` with AOF, the real webhook in its
own process, a fake WeChat API, the load generator in its own process), but the worker runs in this
process, on one lane, with :mod:`cProfile` on while a closed-loop load of ``--count`` messages is
drained. Prints the worker's CPU ms per turn (the draining thread's ``time.thread_time``; with
``process_cpu_ms_per_turn`` the whole process's, its lease renewer and the fake WeChat API included;
profiler overhead included unless ``--no-profile``, so it reads higher than ``bench pipeline``'s) and the top ``--top`` functions by own time and by
cumulative time, each as µs per turn; and what the turns cost the Redis server, the webhook's calls
included (``redis``: script calls, commands, server time and the server's CPU per turn, see
:mod:`bot.bench._redis_cost`; ``--scripts`` names each script call).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import json
import os
import pstats
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import Any

from bot.settings import Settings

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: message counts, users, connections, how many rows of the profile."""
    parser.add_argument("-n", "--count", type=int, default=3000, help="messages drained under the profiler")
    parser.add_argument("--users", type=int, default=500, help="distinct users")
    parser.add_argument("--connections", type=int, default=32, help="concurrent webhook requests")
    parser.add_argument("--top", type=int, default=15, help="rows of each profile table")
    parser.add_argument("--no-profile", action="store_true", help="measure CPU per turn without cProfile")
    parser.add_argument("--save", metavar="FILE", help="also write the raw pstats to FILE")
    parser.add_argument("--scripts", action="store_true",
                        help="also name each script call (a MONITOR client: the Redis figures then include its cost)")


def _rows(stats: pstats.Stats, key: int, top: int, turns: int) -> list[dict[str, Any]]:
    """The ``top`` functions by own time (``key`` 2) or cumulative time (``key`` 3), µs per turn."""
    entries: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    ordered = sorted(entries.items(), key=lambda kv: kv[1][key], reverse=True)[:top]
    out = []
    for (path, line, name), (_cc, calls, own, cum, _callers) in ordered:
        where = path.split("site-packages/")[-1].removeprefix(os.getcwd() + "/")
        out.append({"function": f"{where}:{line}({name})", "calls_per_turn": round(calls / turns, 2),
                    "own_us_per_turn": round(own * 1e6 / turns, 1), "cum_us_per_turn": round(cum * 1e6 / turns, 1)})
    return out


def _drain_while(worker: Any, load: subprocess.Popen[bytes]) -> None:
    """Run the in-process worker in bursts until the load generator has finished."""
    while load.poll() is None:
        worker.work(burst=True, logging_level="WARNING")
        time.sleep(0.001)
    worker.work(burst=True, logging_level="WARNING")


def _load(spec: dict[str, Any]) -> subprocess.Popen[bytes]:
    from bot.bench._procs import ROOT, _env

    return subprocess.Popen([sys.executable, "-m", "bot.bench._load", json.dumps(spec, ensure_ascii=False)],
                            cwd=ROOT, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)


@contextlib.contextmanager
def _engine_time() -> Iterator[list[float]]:
    """The thread CPU seconds spent inside ``Engine.handle`` while the block runs (one lane: this thread)."""
    from runtime.engine import Engine

    spent = [0.0]
    original = Engine.handle

    def timed(self: Engine, inbound: Any, **kwargs: Any) -> Any:
        start = time.thread_time()
        try:
            return original(self, inbound, **kwargs)
        finally:
            spent[0] += time.thread_time() - start

    Engine.handle = timed  # type: ignore[method-assign]
    try:
        yield spent
    finally:
        Engine.handle = original  # type: ignore[method-assign]


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Profile the worker; print one JSON report."""
    from bot import compose
    from bot.bench._procs import stop
    from bot.bench._redis import PrivateRedis
    from bot.bench._redis_cost import RedisCost, ScriptTally
    from bot.bench.pipeline import TEXTS, TOKEN, start_webhook
    from bot.logs import configure_logging
    from bot.wechat.testkit import FakeWeChatServer

    base = {"token": TOKEN, "texts": TEXTS, "users": args.users, "timeout_s": 20.0,
            "connections": args.connections}
    with PrivateRedis(aof=True) as redis_server, FakeWeChatServer() as wx, \
            tempfile.TemporaryDirectory(prefix="wxbot-bench-") as data_dir:
        env = {"REDIS_URL": redis_server.url, "WECHAT_API_BASE": wx.url, "WECHAT_APP_ID": "wxtestapp",
               "WECHAT_APP_SECRET": "testsecret", "WECHAT_TOKEN": TOKEN, "DATA_DIR": data_dir,
               "WEATHER_FAKE": "1"}
        settings = Settings.from_env(env)
        configure_logging(settings)  # as `wxbot worker` does
        process = compose.worker_process(settings, typing_after_s=0.0, lanes=1, name=f"bench-profile-{os.getpid()}")
        worker, conn = process.worker, process.deps.redis
        hook, port = start_webhook(redis_server.url)
        try:
            for prefix in ("warm", "warm2"):  # the first turns load the engine's lazy parts
                _drain_while(worker, _load(base | {"port": port, "count": 300, "user_prefix": prefix}))
            load = _load(base | {"port": port, "count": args.count, "user_prefix": "prof"})
            # CPU time of this thread (the one lane runs here): waits on Redis and the fake WeChat
            # server's threads are not counted
            profiler = None if args.no_profile else cProfile.Profile(time.thread_time)
            tally = ScriptTally(compose.redis_client(settings)) if args.scripts else None
            cost_before = RedisCost.read(conn)
            cpu, thread_cpu = time.process_time(), time.thread_time()
            if profiler is not None:
                profiler.enable()
            with tally or contextlib.nullcontext(), _engine_time() as engine_cpu:
                _drain_while(worker, load)
            if profiler is not None:
                profiler.disable()
            cpu, thread_cpu = time.process_time() - cpu, time.thread_time() - thread_cpu
            cost = RedisCost.read(conn).since(cost_before, args.count)
            out, err = load.communicate()
            if load.returncode != 0:
                raise RuntimeError(f"load generator failed: {err.decode(errors='replace')[-2000:]}")
            result = json.loads(out)
        finally:
            stop([hook])
    turns = max(1, args.count)
    report: dict[str, Any] = {"bench": "worker", "turns": args.count, "answered_passively": result["passive_replies"],
                              "worker_cpu_ms_per_turn": round(thread_cpu * 1000 / turns, 3),
                              "process_cpu_ms_per_turn": round(cpu * 1000 / turns, 3),
                              # the conversation engine's own turn (parse, decide, apply), of the worker's CPU
                              "engine_cpu_ms_per_turn": round(engine_cpu[0] * 1000 / turns, 3),
                              "profiled": profiler is not None}
    # the webhook's calls included; a script's time includes the commands it calls (bot/bench/_redis_cost.py)
    report["redis"] = {k: v for k, v in cost.items() if k not in ("commands", "usec")}
    if tally is not None:
        report["redis"]["script_calls_by_script_per_turn"] = tally.per_turn(turns)
        report["redis"]["note"] = "measured with a MONITOR client attached: CPU and server time read high"
    report["redis_commands_per_turn"] = cost["commands"]
    report["redis_us_per_turn"] = cost["usec"]
    if profiler is not None:
        stats = pstats.Stats(profiler)
        if args.save:
            stats.dump_stats(args.save)
        report["top_own_time"] = _rows(stats, 2, args.top, turns)
        report["top_cumulative"] = _rows(stats, 3, args.top, turns)
    print(json.dumps(report, ensure_ascii=False, indent=2))
    return 0
