"""Shared pieces of the admin commands (replay, inspect, reset, stats): options, --since, formatting."""

from __future__ import annotations

import argparse
import re
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from runtime.transcript import DeliveryEntry, TurnEntry, UnreadableEntry

_RELATIVE = re.compile(r"^(\d+)([smhd])$")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}


def add_redis_argument(parser: argparse.ArgumentParser) -> None:
    """The ``--redis-url`` option every admin command takes (defaults to REDIS_URL)."""
    parser.add_argument("--redis-url", metavar="URL", help="the bot's Redis (default: REDIS_URL)")
    parser.add_argument("--state", metavar="DIR",
                        help="without a Redis: the folder of a `wxbot chat` conversation (default DATA_DIR/chat)")


def parse_since(value: str | None, now: datetime | None = None) -> datetime | str | None:
    """``--since``: an ISO time (``2026-12-01T20:00+08:00``), a relative ``30m``/``2h``/``7d``, or a stream id."""
    if not value:
        return None
    now = now or datetime.now(UTC)
    found = _RELATIVE.match(value.strip())
    if found:
        return now - timedelta(**{_UNITS[found.group(2)]: int(found.group(1))})
    if re.fullmatch(r"\d{10,}-\d+", value.strip()):
        return value.strip()
    try:
        moment = datetime.fromisoformat(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"--since: not a time, 30m/2h/7d or stream id: {value!r}") from exc
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _when(moment: datetime, tz: str) -> str:
    return moment.astimezone(ZoneInfo(tz)).strftime("%Y-%m-%d %H:%M:%S")


def _state(snapshot: Any) -> str:
    parts = [snapshot.active_skill or "-"]
    if snapshot.expected_field:
        parts.append(f"awaiting {snapshot.expected_field}")
    if snapshot.pending_confirmation:
        parts.append(f"confirm {snapshot.pending_confirmation}")
    if snapshot.paused:
        parts.append(f"paused {','.join(snapshot.paused)}")
    return " ".join(parts)


def format_entry(entry: TurnEntry | DeliveryEntry | UnreadableEntry, tz: str) -> list[str]:
    """Human lines for one transcript entry (replay without --json)."""
    if isinstance(entry, UnreadableEntry):
        return [f"[{entry.id}] unreadable entry: {entry.reason}"]
    if isinstance(entry, DeliveryEntry):
        what = "push" if entry.push else "reply"
        return [f"{_when(entry.recorded_at, tz)}  [{what} via {entry.channel}: {entry.outcome}] {entry.text}"]
    t = entry.trace
    inbound = entry.inbound
    said = inbound.text if not inbound.event else f"[{inbound.event} {inbound.key or ''}]".replace(" ]", "]")
    lines = [f"{_when(inbound.at, tz)}  user ({inbound.origin}): {said}"]
    model = f"{t.llm_calls} model calls, {t.prompt_tokens}+{t.completion_tokens} tokens" if t.llm_calls else "no model"
    skill = f" · {t.skill}/{t.action}" if t.skill else ""
    lines.append(f"    trace: {t.stage} · {t.intent} ({t.confidence:.2f}){skill} · {model} · {t.latency_ms:.1f} ms"
                 f" · turn {t.turn_id}")
    lines.append(f"    state: {_state(t.state_before)} → {_state(t.state_after)}")
    if t.detail:
        lines.append(f"    why: {t.detail}")
    lines.extend(f"    error: {e}" for e in t.errors)
    lines.extend(f"  bot: {r}" for r in entry.replies)
    return lines
