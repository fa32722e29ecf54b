"""`wxbot serve`, `wxbot worker` and `wxbot scheduler` started at the same moment on a fresh database,
ten times over with ``WXBOT_LONG=1`` (CI), once without: every process comes up, none crashes, and the schema
ends at head.

The processes are the real commands (the default engine, a private redis-server, the webhook on a
free port), each with its own empty database per round: a PostgreSQL database created and dropped
by the test, or a new SQLite file.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis
from rq import Worker

from bot.bench import PrivateRedis, free_port
from skills.db import make_sql_engine
from skills.migrate import head, status
from tests.harness.pg import throwaway_database

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = int(os.environ.get("WXBOT_START_ROUNDS") or (10 if os.environ.get("WXBOT_LONG") == "1" else 1))
READY_WITHIN_S = 180.0


@pytest.fixture(scope="module")
def private_redis() -> Iterator[PrivateRedis]:
    server = PrivateRedis(aof=False).start()
    yield server
    server.stop()


@contextmanager
def fresh_database(kind: str, directory: Path) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite:///{directory / 'wxbot.db'}"
        return
    with throwaway_database("start") as url:
        yield url


def _spawn(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as err:
        return subprocess.Popen([sys.executable, "-m", "bot.cli", *args], cwd=ROOT, env=env,
                                stdout=subprocess.DEVNULL, stderr=err)


def _listening(port: int) -> bool:
    import socket

    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def start_round(kind: str, redis_url: str, directory: Path) -> list[str]:
    """Start the three processes at once; return what went wrong (empty when all came up)."""
    conn = redis.Redis.from_url(redis_url)
    conn.flushdb()
    problems: list[str] = []
    with fresh_database(kind, directory) as url:
        env = os.environ | {"REDIS_URL": redis_url, "DATABASE_URL": url, "DATA_DIR": str(directory),
                            "WEATHER_FAKE": "true", "PYTHONPATH": str(ROOT),
                            "WECHAT_TOKEN": "start-together-token-01"}
        port = free_port()
        name = f"w-{directory.name}"
        logs = {what: directory / f"{what}.log" for what in ("serve", "worker", "scheduler")}
        procs = {
            "serve": _spawn(["serve", "--port", str(port)], env, logs["serve"]),
            "worker": _spawn(["worker", "--name", name], env, logs["worker"]),
            "scheduler": _spawn(["scheduler"], env, logs["scheduler"]),
        }
        ready = {
            "serve": lambda: _listening(port),
            "worker": lambda: any(w.name == name for w in Worker.all(connection=conn)),
            "scheduler": lambda: b'"role": "scheduler"' in logs["scheduler"].read_bytes(),
        }
        try:
            waiting = set(procs)
            deadline = time.monotonic() + READY_WITHIN_S
            while waiting and time.monotonic() < deadline:
                for what in list(waiting):
                    if procs[what].poll() is not None:
                        problems.append(f"{what} exited {procs[what].returncode}: "
                                        f"{logs[what].read_text(errors='replace')[-1500:]}")
                        waiting.discard(what)
                    elif ready[what]():
                        waiting.discard(what)
                time.sleep(0.1)
            problems += [f"{what} not ready in {READY_WITHIN_S:.0f} s" for what in waiting]
        finally:
            for proc in procs.values():
                if proc.poll() is None:
                    proc.terminate()
            for proc in procs.values():
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            conn.close()
        problems += [f"{what}: {log.read_text(errors='replace')[-1500:]}" for what, log in logs.items()
                     if "Traceback" in log.read_text(errors="replace")]
        engine = make_sql_engine(url)
        try:
            if status(engine).current != head():
                problems.append(f"schema at {status(engine).current}, not {head()}")
        finally:
            engine.dispose()
    return problems


@pytest.mark.slow
@pytest.mark.timeout(2400)  # ten rounds of three cold process starts, on a machine shared with other work
@pytest.mark.parametrize("kind", [pytest.param("postgres", marks=pytest.mark.postgres), "sqlite"])
def test_web_worker_and_scheduler_start_together_on_a_fresh_database(
        kind: str, private_redis: PrivateRedis, tmp_path: Path) -> None:
    failed = {}
    for n in range(ROUNDS):
        directory = tmp_path / f"round{n}"
        directory.mkdir()
        problems = start_round(kind, private_redis.url, directory)
        if problems:
            failed[n] = problems
    assert not failed, failed
