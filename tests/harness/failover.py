"""wxbot's processes (webhook, workers, scheduler) started as an operator would, on a given environment."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

import httpx

from bot.bench import free_port
from bot.wechat.testkit import FakeWeChatServer, WebhookDriver

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "failover-test-token-01"  # `wxbot serve` with Redis refuses tokens under 16 characters
ECHO = "bot.wechat.testkit.echo:build_engine"


class Processes:
    """Start, watch and stop a set of wxbot processes; ``respawn_dead`` is systemd's Restart=always."""

    def __init__(self, env: dict[str, str], wx: FakeWeChatServer, log_dir: Path) -> None:
        self.env = os.environ | env | {
            "WECHAT_API_BASE": wx.url, "WECHAT_APP_ID": wx.state.app_id, "WECHAT_APP_SECRET": wx.state.secret,
            "WECHAT_TOKEN": TOKEN, "PYTHONPATH": str(ROOT), "DATA_DIR": str(log_dir), "DATABASE_URL": "",
            "RATE_LIMIT_PER_MINUTE": "100000",
        }
        self.log_dir = log_dir
        self.procs: dict[str, tuple[list[str], subprocess.Popen[bytes], IO[bytes]]] = {}
        self.respawned: dict[str, int] = {}

    def start(self, name: str, *args: str) -> None:
        cmd = [sys.executable, "-m", "bot.cli", *args]
        log = (self.log_dir / f"{name}.log").open("ab")
        # the kernel kills it should the test run itself be killed (util-linux's setpriv)
        launcher = ["setpriv", "--pdeathsig", "KILL"] if shutil.which("setpriv") else []
        self.procs[name] = (cmd, subprocess.Popen([*launcher, *cmd], cwd=ROOT, env=self.env, stdout=log, stderr=log),
                            log)

    def webhook(self, *, reply_wait: float = 0.0) -> str:
        """Start ``wxbot serve`` (``reply_wait``: seconds a request waits for a passive reply) and
        return its URL once it answers."""
        port = free_port()
        self.start("webhook", "serve", "--port", str(port), "--reply-wait", str(reply_wait), "--engine", ECHO)
        url = f"http://127.0.0.1:{port}/wechat"
        deadline = time.monotonic() + 30
        with WebhookDriver(url, TOKEN) as driver:
            while time.monotonic() < deadline:
                try:
                    if driver.verify_url().status_code == 200:
                        return url
                except httpx.HTTPError:
                    pass
                time.sleep(0.1)
        raise RuntimeError(f"wxbot serve did not start: {self.log('webhook')[-2000:]}")

    def worker(self, name: str) -> None:
        self.start(name, "worker", "--engine", ECHO, "--lease-ttl", "1.5", "--typing-after", "0", "--name",
                   f"{name}-{os.getpid()}")

    def pid(self, name: str) -> int:
        return self.procs[name][1].pid

    def alive(self, name: str) -> bool:
        return self.procs[name][1].poll() is None

    def respawn_dead(self) -> None:
        for name, (cmd, proc, log) in list(self.procs.items()):
            if proc.poll() is not None:
                log.close()
                n = self.respawned[name] = self.respawned.get(name, 0) + 1
                args = cmd[3:]
                if "--name" in args:  # RQ refuses a name whose dead worker is still registered
                    i = args.index("--name") + 1
                    args = [*args[:i], f"{args[i].split('~')[0]}~{n}", *args[i + 1:]]
                self.start(name, *args)

    def log(self, name: str) -> str:
        return (self.log_dir / f"{name}.log").read_text(errors="replace")

    def stop(self) -> None:
        for _, proc, _ in self.procs.values():
            if proc.poll() is None:
                proc.terminate()
        for _, proc, log in self.procs.values():
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            log.close()
