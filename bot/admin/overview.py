"""Plain-data views the admin page and ``wxbot stats`` share."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from bot.admin._labels import STAGE_NAMES, counted_deliveries
from bot.admin.rerun import Sandbox
from bot.queue.depths import queue_report
from bot.settings import Settings
from bot.wechat.crypto import WebhookSecrets
from runtime import keys
from runtime.store import ContextStore
from runtime.transcript import Transcript, stream_id_at

HOURS = 24
HOURLY_USERS, HOURLY_ENTRIES_PER_USER = 500, 400


@dataclass(frozen=True)
class AdminDeps:
    """What the admin surface reads and uses: settings, the bot's Redis, its context store and
    transcript, the webhook's secrets (the simulator signs as WeChat does) and the re-run sandbox
    (built by :func:`bot.compose.webhook`)."""

    settings: Settings
    redis: Any
    store: ContextStore
    transcript: Transcript
    secrets: WebhookSecrets
    sandbox: Sandbox


def collect_stats(redis: Any) -> dict[str, Any]:
    """Turn counters, latency, deliveries and queue depths as JSON-ready data."""
    stats = Transcript(redis).stats()
    # sends whose outcome was unknown (the user may have the text twice; each is in the outcome records)
    uncertain = sum(n for field, n in stats.deliveries.items() if field.endswith("uncertain"))
    return {"turns": stats.model_dump(mode="json") | {"zero_model_share": round(stats.zero_model_share, 4),
                                                      "uncertain_deliveries": uncertain},
            "queues": queue_report(redis).model_dump(mode="json")}


def hourly_turns(redis: Any, tz: str, *, now: datetime | None = None, hours: int = HOURS) -> list[dict[str, Any]]:
    """Turns per hour of the last ``hours`` (in ``tz``), by deciding stage, read from the transcripts of
    the most recently active users (up to ``HOURLY_USERS``, ``HOURLY_ENTRIES_PER_USER`` entries each)."""
    zone = ZoneInfo(tz)
    end = (now or datetime.now(UTC)).astimezone(zone).replace(minute=0, second=0, microsecond=0)
    start = end - timedelta(hours=hours - 1)
    slots = {(start + timedelta(hours=i)).strftime("%m-%d %H:00"): dict.fromkeys(STAGE_NAMES, 0)
             for i in range(hours)}
    users = redis.zrangebyscore(keys.active_users(), start.timestamp(), "+inf", start=0, num=HOURLY_USERS)
    pipe = redis.pipeline(transaction=False)
    for user in users:
        pipe.xrange(keys.transcript(_s(user)), min=stream_id_at(start), count=HOURLY_ENTRIES_PER_USER)
    for rows in (pipe.execute() if users else []):
        for entry_id, fields in rows:
            if _s(fields.get(b"kind", fields.get("kind", ""))) != "turn":
                continue
            millis = int(_s(entry_id).split("-", 1)[0])
            hour = datetime.fromtimestamp(millis / 1000, tz=zone).strftime("%m-%d %H:00")
            try:
                stage = json.loads(fields.get(b"data", fields.get("data", b"{}")))["trace"]["stage"]
            except (ValueError, KeyError, TypeError):
                continue
            if hour in slots and stage in slots[hour]:
                slots[hour][stage] += 1
    return [{"hour": hour, "stages": counts} for hour, counts in slots.items()]


def page_stats(redis: Any, tz: str) -> dict[str, Any]:
    """:func:`collect_stats` plus what the page's charts draw: turns per hour, outcomes by name."""
    data = collect_stats(redis)
    data["hourly"] = hourly_turns(redis, tz)
    data["deliveries_by_label"] = counted_deliveries(data["turns"]["deliveries"])
    data["stage_names"] = STAGE_NAMES
    data["tz"] = tz
    return data


def _s(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


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
