"""Typing helpers for the edge's Redis calls (redis-py's ``eval`` is untyped in the stubs)."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any, TypeAlias

from redis.exceptions import NoScriptError

if TYPE_CHECKING:
    from redis import Redis

    RedisClient: TypeAlias = Redis[Any]
else:
    RedisClient: TypeAlias = Any

_SHAS: dict[str, str] = {}


def run_script(redis: RedisClient, script: str, keys: list[str], args: list[Any]) -> Any:
    """Run ``script`` with ``keys`` and ``args`` by its SHA (``EVALSHA``: the body is sent only the
    first time a server sees it, e.g. after a restart)."""
    client: Any = redis
    sha = _SHAS.get(script)
    if sha is None:
        sha = _SHAS.setdefault(script, hashlib.sha1(script.encode()).hexdigest())
    try:
        return client.evalsha(sha, len(keys), *keys, *args)
    except NoScriptError:
        return client.eval(script, len(keys), *keys, *args)


def text(value: bytes | str | None) -> str:
    """A Redis reply as ``str`` (``""`` for nil)."""
    if value is None:
        return ""
    return value.decode() if isinstance(value, bytes) else value
