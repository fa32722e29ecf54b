"""The processes a test leaves behind: this process's running children, read from ``/proc`` (Linux)."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

from tests.harness.redis_server import private_server_pid

__all__ = ["LEFT_RUNNING_GRACE_S", "children", "left_running"]

LEFT_RUNNING_GRACE_S = 3.0  # a child stopped just before the end of a test may still be on its way out


def children() -> dict[int, str]:
    """This process's children that still run (zombies aside), with their command lines."""
    pids: set[int] = set()
    for task in os.listdir("/proc/self/task"):  # each thread's children (a fixture runs after every test)
        with contextlib.suppress(OSError), open(f"/proc/self/task/{task}/children") as listing:
            pids.update(int(pid) for pid in listing.read().split())
    running: dict[int, str] = {}
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError):
            continue
        if state != "Z":
            running[pid] = command.strip()
    return running


def left_running(before: set[int], grace_s: float = LEFT_RUNNING_GRACE_S) -> dict[int, str]:
    """The children started since ``before`` that still run after ``grace_s`` (the suite's Redis aside)."""
    deadline = time.monotonic() + grace_s
    while True:
        left = {pid: cmd for pid, cmd in children().items() if pid not in before and pid != private_server_pid()}
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)
