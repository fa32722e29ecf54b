"""Prove that a command (by default the README's test command) leaves a developer's Redis alone.

    .venv/bin/python -m tests.safety.untouched [--port 6379] [-- COMMAND ...]

Marker data goes into DBs 0–15 of the Redis on 127.0.0.1:PORT (a string, a hash, a list and a key
with a TTL in each); the command runs; then every marker must still be there, unchanged. When nothing
listened on the port, this check starts a server there itself ("decoy") and is stricter: no key may be
added or removed, and no client but this check may have connected. On a server that was already
running, the markers are removed at the end and nothing else is touched.

Exit status: the command's own, or 3 when the Redis was touched (the report says where).
"""

from __future__ import annotations

import argparse
import secrets
import subprocess
import sys
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from bot.bench import PrivateRedis

DBS = range(16)
TTL_S = 24 * 3600


def fill(conn: Any, token: str) -> dict[int, dict[str, Any]]:
    """Write the markers of every DB; return what each DB must still hold afterwards."""
    expected: dict[int, dict[str, Any]] = {}
    for db in DBS:
        conn.execute_command("SELECT", db)
        base = f"wxbot-safety:{token}:{db}"
        value = secrets.token_hex(8).encode()
        conn.set(f"{base}:string", value)
        conn.hset(f"{base}:hash", mapping={"db": str(db), "value": value})
        conn.rpush(f"{base}:list", b"first", value, b"last")
        conn.set(f"{base}:ttl", value, ex=TTL_S)
        expected[db] = {"base": base, "value": value, "dbsize": conn.dbsize()}
    return expected


def check(conn: Any, expected: dict[int, dict[str, Any]], *, strict: bool) -> list[str]:
    """What happened to the markers (empty when nothing); ``strict`` also compares every DB's size."""
    problems: list[str] = []
    for db, want in expected.items():
        conn.execute_command("SELECT", db)
        base, value = want["base"], want["value"]
        got = {"string": conn.get(f"{base}:string"), "hash": conn.hgetall(f"{base}:hash"),
               "list": conn.lrange(f"{base}:list", 0, -1), "ttl": conn.get(f"{base}:ttl")}
        if got["string"] != value:
            problems.append(f"DB {db}: string marker is {got['string']!r}")
        if got["hash"] != {b"db": str(db).encode(), b"value": value}:
            problems.append(f"DB {db}: hash marker is {got['hash']!r}")
        if got["list"] != [b"first", value, b"last"]:
            problems.append(f"DB {db}: list marker is {got['list']!r}")
        if got["ttl"] != value or not 0 < conn.ttl(f"{base}:ttl") <= TTL_S:
            problems.append(f"DB {db}: TTL marker is {got['ttl']!r} with TTL {conn.ttl(f'{base}:ttl')}")
        if strict and conn.dbsize() != want["dbsize"]:
            problems.append(f"DB {db}: {conn.dbsize()} keys instead of {want['dbsize']}")
    return problems


def remove(conn: Any, expected: dict[int, dict[str, Any]]) -> None:
    for db, want in expected.items():
        conn.execute_command("SELECT", db)
        conn.delete(*(f"{want['base']}:{kind}" for kind in ("string", "hash", "list", "ttl")))


def _connections(conn: Any) -> int:
    return int(conn.info("stats")["total_connections_received"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=6379, help="the developer's Redis port (default 6379)")
    parser.add_argument("command", nargs="*", default=["bash", "tests/run.sh"],
                        help="what to run (default: bash tests/run.sh)")
    args = parser.parse_args(argv)

    decoy: PrivateRedis | None = None
    probe = redis.Redis(port=args.port, socket_connect_timeout=1, retry=Retry(NoBackoff(), 0))
    try:
        probe.ping()
    except redis.ConnectionError:
        decoy = PrivateRedis(aof=False, port=args.port, die_with_parent=True).start()
    finally:
        probe.close()
    where = f"127.0.0.1:{args.port} ({'started by this check' if decoy else 'already running'})"
    # one connection for the whole check, so that in a decoy every other connection is the command's
    conn = redis.Redis(port=args.port, single_connection_client=True)
    try:
        expected = fill(conn, secrets.token_hex(6))
        connections = _connections(conn)
        status = subprocess.call(args.command)
        problems = check(conn, expected, strict=decoy is not None)
        others = _connections(conn) - connections
        if decoy is not None and others:
            problems.append(f"{others} connection(s) to it during the command")
        if decoy is None:
            remove(conn, expected)
    finally:
        conn.close()
        if decoy is not None:
            decoy.stop()
    if problems:
        print(f"untouched: FAILED — the Redis at {where} was touched:", *problems, sep="\n  ", file=sys.stderr)
        return 3
    extra = ", no key added or removed, no connection from the command" if decoy else ""
    print(f"untouched: the Redis at {where} kept all {4 * len(DBS)} markers in DBs 0–15{extra} "
          f"(command exit status {status})")
    return status


if __name__ == "__main__":
    sys.exit(main())
