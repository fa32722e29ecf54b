"""The production commands as the README writes them, from a shell with nothing activated, and the time
deploy/ gives each process to stop.

* ``.venv/bin/honcho start`` with ``PATH`` holding only the system's directories: the Procfile finds
  wxbot (the virtualenv of the README's command 1), the three processes start, and on SIGTERM each
  stops with exit code 0 (the signal reaches wxbot itself, not a shell around it).
* Compose's ``stop_grace_period`` and systemd's ``TimeoutStopSec`` leave each long-lived process more
  than the 10 s it takes at most to stop (``bot.stopping.STOP_WITHIN_S``), and never a minute.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
import yaml

from bot.stopping import STOP_WITHIN_S
from tests.harness.edge import wait_until
from tests.harness.redis_server import flushed_db, private_url

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
VENV_WXBOT = ROOT / ".venv" / "bin" / "wxbot"
SECRET = "procfile-test-secret-0001"
REDIS_URL = private_url(10)


@pytest.fixture
def db10() -> Iterator[redis.Redis]:
    yield from flushed_db(REDIS_URL)


def _seconds(value: str) -> float:
    match = re.fullmatch(r"(\d+)(s|min)?", value.strip())
    assert match, value
    return float(match.group(1)) * (60 if match.group(2) == "min" else 1)


def test_deploys_give_each_process_more_than_its_stop_takes() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    for name in ("web", "worker", "scheduler"):
        grace = _seconds(compose[name]["stop_grace_period"])
        assert STOP_WITHIN_S < grace < 60, (name, grace)
    for unit in ("wxbot-web.service", "wxbot-worker@.service", "wxbot-scheduler.service"):
        text = (DEPLOY / "systemd" / unit).read_text()
        found = re.findall(r"^TimeoutStopSec=(\S+)$", text, re.M)
        assert len(found) == 1 and STOP_WITHIN_S < _seconds(found[0]) < 60, (unit, found)


def test_honcho_runs_the_procfile_from_a_shell_with_nothing_activated(tmp_path: Path, db10: redis.Redis) -> None:
    if not VENV_WXBOT.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{VENV_WXBOT} is missing: tests/run.sh makes the README's virtualenv")
        pytest.skip(f"{VENV_WXBOT} is missing (tests/run.sh makes it): the Procfile's default wxbot")
    settings = tmp_path / "env"
    settings.write_text(f"REDIS_URL={REDIS_URL}\nDATABASE_URL=\nDATA_DIR={tmp_path / 'data'}\n"
                        f"WECHAT_TOKEN={SECRET}\nADMIN_TOKEN={SECRET}\nLOG_FORMAT=text\nWEATHER_FAKE=true\n")
    out = tmp_path / "honcho.out"
    bare = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    with out.open("wb") as sink:
        honcho = subprocess.Popen([str(ROOT / ".venv" / "bin" / "honcho"), "-f", "Procfile", "-e", str(settings),
                                   "start", "-p", "0"], cwd=ROOT, env=bare, stdout=sink, stderr=subprocess.STDOUT)
    try:
        started = ("web started", "worker started", "scheduler started")
        assert wait_until(lambda: all(s in out.read_text(errors="replace") for s in started)
                          or honcho.poll() is not None, 120, 0.1), out.read_text(errors="replace")[-3000:]
        assert honcho.poll() is None, out.read_text(errors="replace")[-3000:]
        honcho.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        honcho.wait(timeout=STOP_WITHIN_S + 20)
        took = time.monotonic() - signalled
    finally:
        if honcho.poll() is None:
            honcho.kill()
            honcho.wait()
    text = out.read_text(errors="replace")
    assert "not found" not in text and "Traceback" not in text, text[-3000:]
    for name in ("web.1", "worker.1", "scheduler.1"):
        assert f"{name} stopped (rc=0)" in text, text[-3000:]
    assert took <= STOP_WITHIN_S, (took, text[-3000:])
