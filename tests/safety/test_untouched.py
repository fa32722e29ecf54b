"""The check behind "the test suite leaves the developer's Redis alone" (``tests/safety/untouched.py``)
notices every kind of touch, and the suite's own fixtures never name the developer's server."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.bench import free_port

ROOT = Path(__file__).resolve().parents[2]


def _untouched(port: int, *command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tests.safety.untouched", "--port", str(port), "--", *command],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_a_command_that_leaves_redis_alone_passes_with_its_own_status() -> None:
    port = free_port()
    ok = _untouched(port, "true")
    assert ok.returncode == 0, ok.stderr
    assert "kept all 64 markers in DBs 0–15, no key added or removed, no connection" in ok.stdout
    assert _untouched(port, "false").returncode == 1  # the command's own failure is passed on


@pytest.mark.parametrize(("touch", "says"), [
    (["-n", "3", "FLUSHDB"], "DB 3: string marker is None"),
    (["FLUSHALL"], "DB 15: list marker is []"),
    (["-n", "7", "SET", "a-test-key", "x"], "DB 7: 5 keys instead of 4"),
    (["PING"], "1 connection(s) to it during the command"),
])
def test_every_kind_of_touch_is_reported(touch: list[str], says: str) -> None:
    port = free_port()
    got = _untouched(port, "redis-cli", "-p", str(port), *touch)
    assert got.returncode == 3, (got.stdout, got.stderr)
    assert says in got.stderr


def test_a_marker_rewritten_in_place_is_reported() -> None:
    port = free_port()
    script = (f"import redis; c = redis.Redis(port={port}, db=12); "
              "[c.set(k, b'changed') for k in c.keys('wxbot-safety:*:string')]")
    got = _untouched(port, sys.executable, "-c", script)
    assert got.returncode == 3 and "DB 12: string marker is b'changed'" in got.stderr, got.stderr


# a URL or client on the default address (an in-process fakeredis.FakeRedis() is fine)
_DEVELOPERS_REDIS = re.compile(r"""["']redis://(127\.0\.0\.1|localhost)(:6379)?[/"']|port=6379\b|(?<!Fake)Redis\(\s*\)""")


def test_no_test_names_the_developers_redis() -> None:
    """Tests get Redis from ``tests/_redisdb.private_url``; naming 6379 would reach the developer's."""
    offenders = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
                 for path in sorted((ROOT / "tests").rglob("*.py")) if path.parent.name != "safety"
                 for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if _DEVELOPERS_REDIS.search(line)]
    assert not offenders, "\n".join(offenders)
