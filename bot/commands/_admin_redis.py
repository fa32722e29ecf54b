"""The Redis an admin command (replay, inspect, reset, stats) reads: the bot's, or a saved local chat."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from bot import compose
from bot.settings import Settings

__all__ = ["connect"]

EMBEDDED_HINT = (
    "wxbot {command}: no REDIS_URL is set and no local chat is saved in {directory} — `wxbot chat` keeps "
    "its conversation there (or pass --state DIR); a `wxbot serve` without REDIS_URL keeps transcripts "
    "and contexts inside its own process (browse them at http://127.0.0.1:8000/admin with ADMIN_TOKEN "
    "set). Point this command at the bot's Redis with --redis-url URL or REDIS_URL=…"
)


def connect(args: argparse.Namespace, settings: Settings, command: str, *, writes: bool = False) -> Any | None:
    """A Redis client, or None after telling the user why there is nothing to inspect.

    Without a Redis URL, the local conversation of ``wxbot chat`` (``--state DIR``, default
    ``DATA_DIR/chat``) is read from its snapshot; with ``writes`` it is saved back when the command ends.
    """
    url = args.redis_url
    if not url and settings.embedded:
        return _local(args, settings, command, writes=writes)
    import redis

    from bot.redis_client import RedisTarget

    target = RedisTarget(url=url) if url else settings.redis_target()  # Sentinel's master when configured
    client = compose.redis_at(target)
    try:
        client.ping()
    except redis.RedisError as exc:
        print(f"wxbot {command}: cannot reach Redis ({target.describe()}): {exc}", file=sys.stderr)
        return None
    return client


def _local(args: argparse.Namespace, settings: Settings, command: str, *, writes: bool) -> Any | None:
    import atexit
    from pathlib import Path

    from bot.localstate import LocalState

    directory = Path(args.state or settings.data_dir / "chat")
    if not LocalState.exists(directory):
        print(EMBEDDED_HINT.format(command=command, directory=directory.resolve()), file=sys.stderr)
        return None
    state = LocalState.open(directory, compose.embedded_redis())
    if writes:
        atexit.register(state.save)
    return state.redis
