#!/usr/bin/env bash
# The whole test suite, from a fresh clone: set up the virtualenv, lint, type-check, test.
# Needs Redis on 127.0.0.1:6379 and PostgreSQL on 127.0.0.1:5432 (see .ci/run, which starts them).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev]'

# Browser tests drive Debian's Chromium; install it when missing and we are allowed to.
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing chromium + chromium-driver (Debian packages) for the browser tests"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver) >/dev/null
  fi
fi

echo "== ruff"
.venv/bin/ruff check bot runtime skills tests
echo "== mypy"
.venv/bin/mypy runtime skills bot
echo "== pytest"
.venv/bin/python -m pytest -q "$@"
