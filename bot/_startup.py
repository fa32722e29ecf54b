"""The one startup line each process logs: what it is and what it talks to, never a secret."""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy.engine import make_url

from bot.settings import Settings

__all__ = ["describe_database", "describe_redis", "log_startup", "version"]

log = logging.getLogger("bot.startup")


def version() -> str:
    """The installed wxbot's version (``unknown`` when run from a tree that was never installed)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("wxbot")
    except PackageNotFoundError:
        return "unknown"


def describe_redis(settings: Settings) -> str:
    """Where this process's Redis is (``embedded``, the URL or Sentinel's master), never a password."""
    return "embedded" if settings.embedded else str(settings.redis_target().describe())


def describe_database(settings: Settings) -> str:
    """The SQL database without its password: ``postgresql://wxbot@host:5432/wxbot`` or the SQLite file."""
    if not settings.database_url:
        return f"sqlite {settings.data_dir / 'wxbot.db'}"
    return make_url(settings.database_url).render_as_string(hide_password=True)


def log_startup(role: str, settings: Settings, **fields: Any) -> None:
    """``started`` with the role, the version, Redis, the database and ``fields`` (queues, names …)."""
    log.info("%s started", role, extra={"role": role, "version": version(), "redis": describe_redis(settings),
                                        "database": describe_database(settings), **fields})
