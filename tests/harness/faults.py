"""The edge as separate processes on a chosen Redis (DB 6 of the tests' Redis, or a server of its own)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.wechat.testkit import FakeWeChatServer
from tests.harness.redis_server import private_url
from tests.harness.tiers import LONG

ROOT = Path(__file__).resolve().parents[2]
__all__ = ["FAULTS_REDIS_URL", "LONG", "ROOT", "TOKEN", "Every", "WorkerPool", "worker_cmd", "worker_env"]
FAULTS_REDIS_URL = private_url(6)
TOKEN = "edge-test-token"


def worker_cmd(name: str, *, lease_ttl: float = 1.5, engine: str = "bot.wechat.testkit.echo:build_engine") -> list[str]:
    return [sys.executable, "-m", "bot.commands.worker", "--engine", engine, "--lease-ttl", str(lease_ttl),
            "--typing-after", "0", "--name", name]


def worker_env(redis_url: str, wx: FakeWeChatServer, **extra: str) -> dict[str, str]:
    return os.environ | {
        "REDIS_URL": redis_url, "WECHAT_API_BASE": wx.url, "WECHAT_APP_ID": wx.state.app_id,
        "WECHAT_APP_SECRET": wx.state.secret, "WECHAT_TOKEN": TOKEN, "PYTHONPATH": str(ROOT),
    } | extra


class WorkerPool:
    """``n`` worker processes; ``kill_one`` SIGKILLs a random one and starts a replacement."""

    def __init__(self, redis_url: str, wx: FakeWeChatServer, n: int, *, env: dict[str, str] | None = None,
                 **kw: Any) -> None:
        self._env = worker_env(redis_url, wx, **(env or {}))
        self._kw = kw
        self._serial = 0
        self.killed = 0
        self.procs = [self.spawn() for _ in range(n)]

    def spawn(self) -> subprocess.Popen[bytes]:
        self._serial += 1
        name = f"fault-{os.getpid()}-{self._serial}"
        return subprocess.Popen(worker_cmd(name, **self._kw), cwd=ROOT, env=self._env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def kill_one(self, rng: random.Random) -> None:
        victim = rng.randrange(len(self.procs))
        self.kill(self.procs[victim])
        self.procs[victim] = self.spawn()

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        """SIGKILL ``proc`` (it stays in ``procs``, dead)."""
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        _close(proc)
        self.killed += 1

    def respawn_dead(self) -> int:
        """Restart workers that exited on their own (what systemd's Restart=always does)."""
        n = 0
        for i, p in enumerate(self.procs):
            if p.poll() is not None:
                _close(p)
                self.procs[i] = self.spawn()
                n += 1
        return n

    def stop(self) -> list[str]:
        crashes = []
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
            err = _close(p)
            if "Traceback" in err:
                crashes.append(err[-2000:])
        return crashes


def _close(p: subprocess.Popen[bytes]) -> str:
    err = ""
    if p.stderr is not None and not p.stderr.closed:
        err = p.stderr.read().decode(errors="replace") if p.poll() is not None else ""
        p.stderr.close()
    return err


class Every(threading.Thread):
    """Call ``fn`` every ``interval`` seconds until stopped."""

    def __init__(self, interval: float, fn: Callable[[], None]) -> None:
        super().__init__(daemon=True)
        self._interval, self._fn = interval, fn
        self._stop_event = threading.Event()

    def run(self) -> None:
        while not self._stop_event.wait(self._interval):
            self._fn()

    def stop(self) -> None:
        self._stop_event.set()
        self.join()
