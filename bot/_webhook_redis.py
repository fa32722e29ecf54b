"""Typing helpers for the edge's Redis calls (redis-py's ``eval`` is untyped in the stubs)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from redis import Redis

    RedisClient: TypeAlias = Redis[Any]
else:
    RedisClient: TypeAlias = Any


def run_script(redis: RedisClient, script: str, keys: list[str], args: list[Any]) -> Any:
    """``EVAL`` ``script`` with ``keys`` and ``args``."""
    client: Any = redis
    return client.eval(script, len(keys), *keys, *args)


def text(value: bytes | str | None) -> str:
    """A Redis reply as ``str`` (``""`` for nil)."""
    if value is None:
        return ""
    return value.decode() if isinstance(value, bytes) else value
