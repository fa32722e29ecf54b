"""A context saved by one process is read by another through ``REDIS_URL`` (real Redis, DB 1)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from runtime.store import ContextConflict, RedisContextStore
from tests.runtime.contexts import rich_context

ROOT = Path(__file__).resolve().parents[2]

_CHILD = """
import json, os, sys
import redis
from runtime.store import RedisContextStore
store = RedisContextStore(redis.Redis.from_url(os.environ["REDIS_URL"]))
ctx = store.load(sys.argv[2])
if sys.argv[1] == "write":
    ctx.summary.goal = "增肌"
    ctx.summary.constraints["people"] = 4
    ctx = store.save(ctx)
print(json.dumps({"version": ctx.version, "goal": ctx.summary.goal,
                  "active": ctx.active.params if ctx.active else None}, ensure_ascii=False))
"""


def _child(redis_url: str, mode: str, user: str) -> dict[str, object]:
    env = {**os.environ, "REDIS_URL": redis_url, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", _CHILD, mode, user], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.mark.redis
def test_context_written_by_one_process_is_read_by_another(redis_url: str, real_redis_client: object) -> None:
    store = RedisContextStore(real_redis_client)
    stale = store.load("u-xproc")
    store.save(rich_context("u-xproc"))

    seen = _child(redis_url, "read", "u-xproc")
    assert seen["version"] == 1 and seen["goal"] == "减脂"
    assert seen["active"] == rich_context().active.params  # type: ignore[union-attr]

    written = _child(redis_url, "write", "u-xproc")
    assert written["version"] == 2
    back = store.load("u-xproc")
    assert back.version == 2 and back.summary.goal == "增肌" and back.summary.constraints["people"] == 4
    assert back.active is not None and back.active.params["people"] == 3

    with pytest.raises(ContextConflict) as info:  # a stale version from before the other process wrote
        store.save(stale)
    assert (info.value.expected, info.value.actual) == (0, 2)
