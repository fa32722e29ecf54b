"""Start and stop the benchmark's processes (server, load generator, workers)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

__all__ = ["ROOT", "cpu_seconds", "resident_mb", "run_load", "spawn", "stop", "wait_port"]

ROOT = Path(__file__).resolve().parents[2]  # the repository


def _env(extra: dict[str, str] | None = None) -> dict[str, str]:
    path = os.environ.get("PYTHONPATH", "")
    return os.environ | {"PYTHONPATH": f"{ROOT}{os.pathsep}{path}" if path else str(ROOT)} | (extra or {})


def spawn(args: list[str], *, env: dict[str, str] | None = None, quiet: bool = True) -> subprocess.Popen[bytes]:
    """``python args…`` from the repository root, stderr kept for a crash report."""
    return subprocess.Popen([sys.executable, *args], cwd=ROOT, env=_env(env),
                            stdout=subprocess.DEVNULL if quiet else None, stderr=subprocess.PIPE)


def wait_port(port: int, timeout: float = 20.0, proc: subprocess.Popen[bytes] | None = None) -> None:
    """Wait until something listens on ``127.0.0.1:port``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            raise RuntimeError(f"server exited early: {err[-2000:]}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port}")


def stop(procs: list[subprocess.Popen[bytes]]) -> list[str]:
    """Terminate ``procs``; returns the stderr tails of those that crashed with a traceback."""
    for p in procs:
        if p.poll() is None:
            p.terminate()
    crashes = []
    for p in procs:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        err = ""
        if p.stderr is not None:
            err = p.stderr.read().decode(errors="replace")
            p.stderr.close()
        if "Traceback" in err:
            crashes.append(err[-2000:])
    return crashes


def run_load(spec: dict[str, Any]) -> dict[str, Any]:
    """Run the load generator in its own process and return its JSON result."""
    out = subprocess.run([sys.executable, "-m", "bot.bench._load", json.dumps(spec, ensure_ascii=False)],
                         cwd=ROOT, env=_env(), capture_output=True, timeout=600, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"load generator failed: {out.stderr.decode(errors='replace')[-2000:]}")
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a live process used so far (Linux ``/proc``; 0.0 when unreadable)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def resident_mb(pid: int) -> float:
    """Resident memory of a live process in MiB (Linux ``/proc``; 0.0 when unreadable)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except (OSError, ValueError, IndexError):
        pass
    return 0.0
