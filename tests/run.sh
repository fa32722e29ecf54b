#!/usr/bin/env bash
# The whole test suite, from a fresh clone: set up the virtualenv, lint, type-check, test.
#
# Needs `redis-server` on PATH: the tests start private servers on free ports and never connect to
# a Redis of yours. PostgreSQL tests use a database this run creates and drops on the server named
# by TEST_DATABASE_URL (skipped with a message when it is unset; .ci/run sets it). The browser tests
# need Debian's chromium + chromium-driver: installed system-wide through apt-get in CI, and outside
# CI only if you say yes when asked (WXBOT_INSTALL_CHROMIUM=yes answers for you, =no skips the
# question); without them those tests are skipped.
#
# pytest runs on three workers (pytest-xdist, `-n 3 --dist loadgroup`; WXBOT_TEST_WORKERS=N for another
# count, 0 for one process), two cores or not: the suite waits on processes and servers more than it
# computes. The fault runs form one group that a single worker runs one after another (tests/conftest.py). The long fault runs need WXBOT_LONG=1 (CI sets it). The slowest 20 tests are
# printed at the end (docs/testing.md keeps a measured list).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev]'

in_ci() { case "${CI:-}" in ""|0|false|no) return 1 ;; *) return 0 ;; esac; }

if ! command -v redis-server >/dev/null 2>&1; then
  echo "redis-server is not on PATH: the tests start private Redis servers (Debian: apt-get install redis-server)" >&2
  exit 1
fi

# Browser tests drive Debian's Chromium; install it (system-wide) when missing and allowed to.
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  answer="${WXBOT_INSTALL_CHROMIUM:-}"
  if [ -z "$answer" ] && in_ci; then
    answer=yes
  elif [ -z "$answer" ] && [ -t 0 ]; then
    read -r -p "The browser tests need Debian's chromium and chromium-driver. Install them system-wide with apt-get now? [y/N] " answer
  fi
  case "$answer" in
    y|Y|yes|YES)
      sudo=""
      [ "$(id -u)" = 0 ] || sudo="sudo"
      echo "installing chromium + chromium-driver (Debian packages, system-wide) for the browser tests"
      ($sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver) >/dev/null
      ;;
    *) echo "note: chromium/chromedriver not installed: the browser tests will be skipped" ;;
  esac
fi

if [ -z "${TEST_DATABASE_URL:-}" ]; then
  echo "note: TEST_DATABASE_URL is not set: the PostgreSQL tests will be skipped. To run them, point it at a"
  echo "      server where you may create databases, e.g. TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres"
  echo "      (the run creates its own database there, wxbot_test_<time>_<pid>, and drops it at the end)"
fi

echo "== ruff"
.venv/bin/ruff check bot runtime skills tests
echo "== mypy"
.venv/bin/mypy runtime skills bot
echo "== pytest"
workers="${WXBOT_TEST_WORKERS:-3}"
if [ "$workers" = 0 ]; then
  .venv/bin/python -m pytest -q --durations=20 "$@"
else
  .venv/bin/python -m pytest -q -n "$workers" --dist loadgroup --durations=20 "$@"
fi
