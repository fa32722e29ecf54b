"""``wxbot db upgrade|status``: the business tables' schema, through the Alembic migrations only.

Every long-running process (``serve``, ``worker``, ``scheduler``) passes :func:`schema_gate` before
it starts: with ``DB_UPGRADE_ON_START=true`` (the default) it upgrades the database under the
schema lock, so processes started together on an empty database never race; with ``false`` it
refuses to start, with one line on stderr, while the schema is behind (run ``wxbot db upgrade``
as a deploy step first).
"""

from __future__ import annotations

import argparse
import re
import sys

from bot.settings import Settings

__all__ = ["add_arguments", "run", "schema_gate"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    up = sub.add_parser("upgrade", help="run the migrations up to the newest revision (or --revision)")
    up.add_argument("--revision", default="head", help="target revision (default: head)")
    sub.add_parser("status", help="the database's revision and the newest one; exit 1 when behind")
    for each in sub.choices.values():
        each.add_argument("--database-url", metavar="URL", help="default: DATABASE_URL (or the embedded SQLite)")


def safe_url(url: str) -> str:
    """``url`` without its password."""
    return re.sub(r"//([^:/@]*):[^@/]*@", r"//\1:***@", url)


def _url(args: argparse.Namespace, settings: Settings) -> str:
    return str(args.database_url or settings.database())


def run(args: argparse.Namespace, settings: Settings) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from bot.compose import sql_engine
    from skills.db import import_models
    from skills.migrate import SchemaError, status, upgrade_engine

    url = _url(args, settings)
    sql = sql_engine(url, create_tables=False)
    try:
        if args.action == "status":
            found = status(sql)
            print(f"database {safe_url(url)}: revision {found.current or 'none'}"
                  f"{' (tables of an old release, adopted on upgrade)' if found.legacy else ''}, "
                  f"newest {found.head}: {'up to date' if found.at_head else 'behind: run `wxbot db upgrade`'}")
            return 0 if found.at_head else 1
        import_models()
        before = upgrade_engine(sql, args.revision)
        after = status(sql)
        if before.current == after.current and not before.legacy:
            print(f"database {safe_url(url)}: already at {after.current}")
        else:
            print(f"database {safe_url(url)}: upgraded {before.current or 'empty'} → {after.current}")
        return 0
    except SchemaError as exc:
        print(f"wxbot db: {exc}", file=sys.stderr)
        return 2
    except SQLAlchemyError as exc:
        print(f"wxbot db: cannot use the database at {safe_url(url)}: {_first_line(exc)}", file=sys.stderr)
        return 2
    finally:
        sql.dispose()


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def schema_gate(settings: Settings, command: str) -> str | None:
    """Make the schema ready for a process that starts, or say in one line why it cannot start.

    Returns None when the database is at the newest revision (after upgrading it, if allowed).
    """
    from sqlalchemy.exc import SQLAlchemyError

    from bot.compose import sql_engine
    from skills.db import import_models
    from skills.migrate import SchemaError, status, upgrade_engine

    url = settings.database()
    sql = sql_engine(url, create_tables=False)
    try:
        if settings.db_upgrade_on_start:
            import_models()
            upgrade_engine(sql)
            return None
        found = status(sql)
        if found.at_head:
            return None
        if not found.known:
            return (f"wxbot {command}: the database is at revision {found.current}, newer than this release "
                    f"knows ({found.head}): deploy the release that migrated it")
        return (f"wxbot {command}: the database schema is behind ({found.current or 'empty'}, this release "
                f"needs {found.head}): run `wxbot db upgrade` first, or set DB_UPGRADE_ON_START=true")
    except SchemaError as exc:
        return f"wxbot {command}: {exc}"
    except SQLAlchemyError as exc:
        return f"wxbot {command}: cannot use the database at {safe_url(url)}: {_first_line(exc)}"
    finally:
        sql.dispose()
