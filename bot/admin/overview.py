"""Plain-data views the admin page and ``wxbot stats`` share."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.admin.queues import queue_report
from runtime.store import ContextStore, RedisContextStore
from runtime.transcript import Transcript


@dataclass(frozen=True)
class AdminDeps:
    """What the admin surface reads: settings, the bot's Redis and its context store."""

    settings: Any
    redis: Any
    store: ContextStore

    @classmethod
    def build(cls, settings: Any, redis: Any, engine: Any = None) -> AdminDeps:
        """For the webhook: the engine's own store in embedded mode, else the Redis store."""
        store = getattr(engine, "store", None)
        return cls(settings=settings, redis=redis, store=store if store is not None else RedisContextStore(redis))


def deps_of(source: Any) -> AdminDeps:
    """Accept a ``bot.app.Runtime``, an ``EdgeRuntime`` plus settings, or an :class:`AdminDeps`."""
    if isinstance(source, AdminDeps):
        return source
    store = getattr(source, "store", None) or getattr(getattr(source, "engine", None), "store", None)
    return AdminDeps(settings=source.settings, redis=source.redis, store=store or RedisContextStore(source.redis))


def collect_stats(redis: Any) -> dict[str, Any]:
    """Turn counters, latency, deliveries and queue depths as JSON-ready data."""
    stats = Transcript(redis).stats()
    return {"turns": stats.model_dump(mode="json") | {"zero_model_share": round(stats.zero_model_share, 4)},
            "queues": queue_report(redis).model_dump(mode="json")}


def context_view(store: ContextStore, user: str) -> dict[str, Any]:
    """The user's stored context (parsed when it parses) and any quarantined blob."""

    def parsed(blob: str | None) -> Any:
        if blob is None:
            return None
        try:
            return json.loads(blob)
        except ValueError:
            return blob

    return {"user": user, "context": parsed(store.raw(user)), "quarantined": parsed(store.quarantined(user))}
