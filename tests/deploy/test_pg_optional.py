"""Without TEST_DATABASE_URL the PostgreSQL tests are skipped with a one-line note, and nothing
connects to a PostgreSQL server (no fallback to a local one); in CI they fail instead."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PG_TESTS = ["tests/deploy/test_migrations.py", "tests/deploy/test_schema_race.py",
            "tests/skills/test_skills_persistence.py"]


def _run(**env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("TEST_DATABASE_URL", "CI", "PYTEST_XDIST_WORKER")}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "tests.deploy._forbid_pg", "-m", "postgres",
                           "-p", "no:xdist", *PG_TESTS], cwd=ROOT, env=base | env, capture_output=True, text=True,
                          timeout=300, check=False)


def test_without_test_database_url_postgres_tests_skip_and_connect_nowhere() -> None:
    out = _run()
    text = out.stdout + out.stderr
    assert out.returncode == 0, text
    assert re.search(r"^\d+ skipped, \d+ deselected", text, re.M), text
    assert "POSTGRES CONNECTION ATTEMPTS" not in text and "error" not in text.lower(), text
    notes = [line for line in text.splitlines() if line.startswith("SKIPPED")]
    assert notes and all("TEST_DATABASE_URL is not set" in line for line in notes), notes


def test_in_ci_a_missing_test_database_url_fails_the_postgres_tests() -> None:
    out = _run(CI="1")
    text = out.stdout + out.stderr
    assert out.returncode == 1 and "CI needs PostgreSQL" in text, text
    assert "POSTGRES CONNECTION ATTEMPTS" not in text, text
