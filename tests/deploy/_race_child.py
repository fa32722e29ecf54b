"""One of several processes that bring the same empty database to head at the same moment.

``python -m tests.deploy._race_child URL SLOW_S [--no-lock]``: prints ``ready`` once imported, waits
for a line on stdin (the common start), then runs ``skills.db.init_db``, with the first CREATE TABLE
held back by SLOW_S seconds so that the processes' schema work overlaps. ``--no-lock`` takes the schema lock away (the control case).
Prints ``ok`` or ``error <Type>: <first line>``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

import skills.migrate
from skills.db import import_models, make_sql_engine
from skills.migrate import init_db


@contextmanager
def _no_lock(engine: Engine) -> Iterator[Connection]:
    with engine.begin() as connection:
        yield connection


def main(argv: list[str]) -> int:
    url, slow = argv[0], float(argv[1])
    if "--no-lock" in argv:
        skills.migrate._schema_lock = _no_lock  # type: ignore[assignment]
    import_models()
    engine = make_sql_engine(url)
    held = []

    @event.listens_for(engine, "before_cursor_execute")
    def _hold_first_create(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if not held and statement.lstrip().upper().startswith("CREATE TABLE"):
            held.append(statement)
            time.sleep(slow)

    skills.migrate.head()  # load the migration scripts before the start, not after it
    print("ready", flush=True)
    sys.stdin.readline()
    try:
        init_db(engine)
    except Exception as exc:
        print(f"error {type(exc).__name__}: {str(exc).strip().splitlines()[0]}", flush=True)
        return 1
    finally:
        engine.dispose()
    print("ok", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
