"""A private ``redis-server`` on a free loopback port in a temp dir (benchmarks and fault tests).

Benchmarks never touch the operator's Redis: each run starts its own server. The fault suite also
uses it to SIGKILL and restart Redis with the deploy configuration (AOF, ``appendfsync everysec``).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

__all__ = ["PrivateRedis", "free_port"]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PrivateRedis:
    """``redis-server`` with its own directory; ``aof=True`` uses the deploy persistence settings."""

    def __init__(self, *, aof: bool = True, port: int | None = None, binary: str = "redis-server",
                 extra_args: tuple[str, ...] = (), die_with_parent: bool = False) -> None:
        path = shutil.which(binary)
        if path is None:
            raise RuntimeError(f"{binary} not found on PATH (Debian: apt-get install redis-server)")
        self.binary = path
        self.port = port or free_port()
        self.aof = aof
        self.extra_args = extra_args
        # util-linux's setpriv makes the kernel kill the server when its parent dies (e.g. a killed test run)
        self.launcher = ["setpriv", "--pdeathsig", "KILL"] if die_with_parent and shutil.which("setpriv") else []
        self.dir = Path(tempfile.mkdtemp(prefix="wxbot-redis-"))
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _args(self) -> list[str]:
        args = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.dir),
                "--save", "", "--protected-mode", "yes", "--daemonize", "no", "--loglevel", "warning"]
        if self.aof:
            args += ["--appendonly", "yes", "--appendfsync", "everysec"]
        return [*self.launcher, *args, *self.extra_args]

    def start(self, timeout: float = 10.0) -> PrivateRedis:
        """Start (or restart) the server and wait until it answers PING.

        The answer must come from this very process: if another program took the port meanwhile,
        this server cannot bind it and exits, and the start fails instead of using the other one."""
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        self.proc = subprocess.Popen(self._args(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while True:
            try:
                # no retries: redis-py 8's default policy spends ~3.5 s on a refused connection
                conn: Any = redis.Redis(port=self.port, socket_connect_timeout=0.2, retry=Retry(NoBackoff(), 0))
                try:
                    if conn.info("server").get("process_id") == self.proc.pid:
                        return self
                finally:
                    conn.close()
            except redis.RedisError:
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError(f"redis-server on port {self.port} did not start")
            time.sleep(0.02)

    def kill(self) -> None:
        """SIGKILL the server (no shutdown save: only what AOF already has survives)."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        """Stop the server and remove its directory."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> PrivateRedis:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
