"""``wxbot bench reminders``: how long N reminders due in the same minute take to be claimed and enqueued.

Seeds N one-off reminders (SQLite file by default) all due within one minute, then runs the real
scheduler tick (lease, claim by conditional update, push hand-over) until every one is handed to
the sink. ``--sink rq`` enqueues real RQ jobs (into the embedded Redis substitute, or REDIS_URL
with ``--redis``); the default sink only counts, which isolates the SQL side. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.settings import Settings
from runtime import keys as redis_keys

__all__ = ["add_arguments", "bench", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--count``, ``--db`` (SQL URL; default a fresh SQLite file), ``--sink`` (count | rq), ``--batch``."""
    parser.add_argument("--count", type=int, default=100_000, help="reminders due in the same minute")
    parser.add_argument("--db", default=None, help="SQL URL (default: a fresh SQLite file in a temp dir)")
    parser.add_argument("--sink", choices=("count", "rq"), default="count", help="count (default) or rq")
    parser.add_argument("--redis", action="store_true", help="with --sink rq: use REDIS_URL, not embedded")
    parser.add_argument("--batch", type=int, default=5000, help="occurrences claimed per transaction")


def _seed(db: Any, count: int, due: datetime) -> float:
    from sqlalchemy import insert

    from skills.reminders.models import Reminder, ReminderOccurrence

    rem, occ = Reminder.__table__, ReminderOccurrence.__table__  # type: ignore[attr-defined]
    t0 = time.perf_counter()
    with db.begin() as conn:
        for start in range(0, count, 10_000):
            n = min(10_000, count - start)
            conn.execute(insert(rem), [
                {"id": start + i + 1, "user_id": f"u{(start + i) % 5000}", "content": f"事项{start + i}",
                 "first_due": due + timedelta(milliseconds=(start + i) % 60_000), "rrule": None,
                 "tz": "Asia/Shanghai", "status": "active", "source_msg_id": f"bench-{start + i}",
                 "created_at": due - timedelta(days=1)} for i in range(n)])
            conn.execute(insert(occ), [
                {"reminder_id": start + i + 1, "user_id": f"u{(start + i) % 5000}",
                 "due_at": due + timedelta(milliseconds=(start + i) % 60_000), "state": "pending",
                 "snooze": False, "notified": False} for i in range(n)])
    return time.perf_counter() - t0


def bench(count: int, url: str | None = None, *, sink: str = "count", redis: Any = None,
          batch: int = 5000) -> dict[str, Any]:
    """Run the benchmark and return its figures (seconds, rate, duplicates)."""
    from bot import compose
    from skills.reminders.schedule import DuePush

    tmp = None
    if url is None:
        tmp = tempfile.TemporaryDirectory(prefix="wxbot-bench-")
        url = f"sqlite:///{Path(tmp.name) / 'bench.db'}"
    db = compose.sql_engine(url)
    due = datetime(2026, 12, 3, 7, 0, tzinfo=UTC)
    seed_s = _seed(db, count, due)
    client = redis if redis is not None else compose.embedded_redis()
    keys: set[str] = set()
    pushed = 0
    if sink == "rq":
        from bot.scheduler import RQPushSink

        rq_sink = RQPushSink(compose.queue(client, "wxbot-bench"))

        class _Counted:
            def __call__(self, push: DuePush) -> str | None:
                keys.add(push.key)
                return rq_sink(push)

            def many(self, pushes: list[DuePush]) -> None:
                keys.update(p.key for p in pushes)
                rq_sink.many(pushes)

        handed: Any = _Counted()
    else:
        def handed(push: DuePush) -> str | None:
            keys.add(push.key)
            return None

    scheduler = compose.scheduler(db, client, handed, lambda: due + timedelta(minutes=1), ttl_ms=60_000,
                                  name="bench", batch=batch, lease_key=f"{redis_keys.scheduler_leader()}:bench")
    t0 = time.perf_counter()
    while True:
        report = scheduler.tick()
        pushed += report.pushed
        if report.pushed == 0:
            break
    elapsed = time.perf_counter() - t0
    scheduler.lease.release()
    db.dispose()
    if tmp is not None:
        tmp.cleanup()
    return {"reminders": count, "database": url.split(":", 1)[0], "sink": sink, "batch": batch,
            "seed_seconds": round(seed_s, 2), "claim_and_enqueue_seconds": round(elapsed, 2),
            "per_second": round(pushed / elapsed) if elapsed else None, "pushed": pushed,
            "duplicates": pushed - len(keys)}


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Print the JSON report; 0 when every reminder was handed over exactly once."""
    from bot.compose import redis_at

    client = redis_at(settings.redis_url) if args.sink == "rq" and args.redis else None
    report = bench(args.count, args.db, sink=args.sink, redis=client, batch=args.batch)
    print(json.dumps(report, ensure_ascii=False))
    return 0 if report["pushed"] == args.count and report["duplicates"] == 0 else 1
