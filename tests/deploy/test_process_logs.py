"""The real processes' logs: with LOG_FORMAT=json (the default) every line any of them writes is a JSON
object (uvicorn's start and access lines too), each process says once what it is and what it talks
to (role, version, Redis, database, queues), and nothing secret or user-identifying is written."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from bot.bench import free_port
from tests.harness.redis_server import private_url

ROOT = Path(__file__).resolve().parents[2]
ADMIN = "admin-token-for-the-log-test-0001"
SECRET = "app-secret-for-the-log-test-0001"
OPENID = "oLOGTESTopenid0001"


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("WECHAT_", "ADMIN_", "REDIS_", "LOG_"))}
    return base | {"DATA_DIR": str(tmp_path), "WEATHER_FAKE": "true", "PYTHONPATH": str(ROOT),
                   "WECHAT_TOKEN": "log-test-token-000001", "WECHAT_APP_SECRET": SECRET, "ADMIN_TOKEN": ADMIN,
                   "DATABASE_URL": "", "REDIS_URL": ""} | extra


def _run_until(args: list[str], env: dict[str, str], ready: str, tmp_path: Path, poke: object = None) -> str:
    """Start ``wxbot ARGS``, wait until its output holds ``ready``, call ``poke``, stop it; everything it
    wrote (stdout and stderr: no line may escape the JSON rule on either)."""
    err_path = tmp_path / f"{args[0]}.err"
    with err_path.open("wb") as err:
        proc = subprocess.Popen([sys.executable, "-m", "bot.cli", *args], cwd=tmp_path, env=env,
                                stdout=err, stderr=err)
    try:
        deadline = time.monotonic() + 90
        while ready not in err_path.read_text(errors="replace"):
            assert proc.poll() is None, err_path.read_text(errors="replace")
            assert time.monotonic() < deadline, err_path.read_text(errors="replace")
            time.sleep(0.1)
        if callable(poke):
            poke()
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return err_path.read_text(errors="replace")


def _records(text: str) -> list[dict[str, object]]:
    lines = [line for line in text.splitlines() if line.strip()]
    records = []
    for line in lines:
        try:
            records.append(json.loads(line))
        except ValueError:
            pytest.fail(f"a log line that is not JSON: {line!r}")
    for line in lines:
        assert ADMIN not in line and SECRET not in line and OPENID not in line, line
    return records


def _startup(records: list[dict[str, object]], role: str) -> dict[str, object]:
    found = [r for r in records if r.get("logger") == "bot.startup"]
    assert len(found) == 1, records
    line = found[0]
    assert line["role"] == role and line["msg"] == f"{role} started", line
    assert line["version"] and line["redis"] and line["database"], line
    return line


def test_serve_logs_json_lines_only_including_uvicorn_start_and_access(tmp_path: Path) -> None:
    port = free_port()

    def poke() -> None:
        query = {"signature": "0" * 40, "timestamp": "1", "nonce": "2", "echostr": "x", "openid": OPENID}
        assert httpx.get(f"http://127.0.0.1:{port}/wechat", params=query).status_code == 403
        time.sleep(0.3)  # the access line is written after the response

    text = _run_until(["serve", "--port", str(port)], _env(tmp_path), "Application startup complete", tmp_path,
                      poke)
    records = _records(text)
    line = _startup(records, "web+worker+scheduler (embedded)")
    assert line["redis"] == "embedded" and str(line["database"]).startswith("sqlite ")
    assert any(r["logger"] == "uvicorn.error" and "Uvicorn running" in str(r["msg"]) for r in records), records
    access = [r for r in records if r["logger"] == "uvicorn.access"]
    assert access and access[-1]["method"] == "GET" and access[-1]["path"] == "/wechat", access
    assert access[-1]["status"] == 403 and "color_message" not in access[-1]


def test_worker_and_scheduler_say_what_they_are_when_they_start(tmp_path: Path) -> None:
    redis_url = private_url(9)
    env = _env(tmp_path, REDIS_URL=redis_url)
    worker = _records(_run_until(["worker", "--name", f"logs-{os.getpid()}"], env, "worker started", tmp_path))
    line = _startup(worker, "worker")
    assert line["queues"] == ["wxbot"], line
    assert line["redis"] == redis_url and str(line["database"]).startswith("sqlite ")
    scheduler = _records(_run_until(["scheduler"], env, "scheduler started", tmp_path))
    line = _startup(scheduler, "scheduler")
    assert line["sink"] == "rq" and line["redis"] == redis_url


def test_log_format_text_is_plain_lines(tmp_path: Path) -> None:
    env = _env(tmp_path, REDIS_URL=private_url(9), LOG_FORMAT="text")
    text = _run_until(["scheduler"], env, "scheduler started", tmp_path)
    line = next(line for line in text.splitlines() if "scheduler started" in line)
    assert " INFO bot.startup: scheduler started role=scheduler version=" in line and "{" not in line
