"""The suite's teardown check finds a process a test left running, and only that."""

from __future__ import annotations

import subprocess
import sys

from tests.harness.processes import children, left_running


def test_a_process_left_running_is_found_and_one_that_ended_is_not() -> None:
    before = set(children())
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        left = left_running(before, grace_s=0.2)
        assert list(left) == [sleeper.pid] and "time.sleep(60)" in left[sleeper.pid]
    finally:
        sleeper.kill()
        sleeper.wait()
    assert left_running(before, grace_s=0.2) == {}
