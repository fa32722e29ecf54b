"""Typing helpers for the edge's Redis calls (redis-py's ``eval`` is untyped in the stubs)."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

from redis.exceptions import NoScriptError

if TYPE_CHECKING:
    from redis import Redis

    RedisClient: TypeAlias = Redis[Any]
else:
    RedisClient: TypeAlias = Any

_SHAS: dict[str, str] = {}


class Call(NamedTuple):
    """One Lua script call: the script text, its keys and its arguments (``run_script(r, *call)``)."""

    script: str
    keys: list[str]
    args: list[Any]


def script_sha(script: str) -> str:
    """The SHA1 ``EVALSHA`` names ``script`` by (computed once per script)."""
    sha = _SHAS.get(script)
    if sha is None:
        sha = _SHAS.setdefault(script, hashlib.sha1(script.encode()).hexdigest())
    return sha


def run_script(redis: RedisClient, script: str, keys: list[str], args: list[Any]) -> Any:
    """Run ``script`` with ``keys`` and ``args`` by its SHA (``EVALSHA``: the body is sent only the
    first time a server sees it, e.g. after a restart)."""
    client: Any = redis
    sha = script_sha(script)
    try:
        return client.evalsha(sha, len(keys), *keys, *args)
    except NoScriptError:
        return client.eval(script, len(keys), *keys, *args)


def text(value: bytes | str | None) -> str:
    """A Redis reply as ``str`` (``""`` for nil)."""
    if value is None:
        return ""
    return value.decode() if isinstance(value, bytes) else value
