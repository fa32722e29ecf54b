"""Slot bookkeeping over typed values: what is still missing, defaults, amending, moving a time, the
stored form of params and the action's own yes/no question. Never reads a message."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from runtime.parsers.correction import corrected_time
from runtime.parsers.timephrase import TimeExpr
from runtime.skill import ActionSpec, SkillRegistry


def with_defaults(action: ActionSpec, params: dict[str, Any]) -> dict[str, Any]:
    """``params`` plus every slot default that is not already set."""
    full = dict(params)
    for slot in action.slots:
        if slot.name not in full and slot.default is not None:
            full[slot.name] = slot.default
    return full


def time_slots(registry: SkillRegistry, intent: str, params: dict[str, Any]) -> list[str]:
    """The time slots of ``intent``'s action that ``params`` fill."""
    found = registry.for_intent(intent)
    if found is None:
        return []
    return [s.name for s in found[1].slots if s.parser == "time" and isinstance(params.get(s.name), dict)]


def moved_earlier(params: dict[str, Any], names: list[str], minutes: float) -> dict[str, Any]:
    """``params`` with the times ``names`` moved ``minutes`` earlier ("提前半小时"); the repeat rule stays."""
    moved = dict(params)
    for name in names:
        old = TimeExpr.from_param(params[name])
        moved[name] = TimeExpr(at=old.at - timedelta(minutes=minutes), rrule=old.rrule, has_time=True,
                               span=old.span, said=old.said).to_param()
    return moved


def to_confirm(action: ActionSpec, params: Mapping[str, Any], now: datetime, tz: str) -> str | None:
    """The action's own yes/no question, or None. It reads the params plus ``_now`` (the turn's local time),
    so a day said relatively ("上个月28号") can be named by its date; ``_now`` is never stored."""
    if action.confirm_text is None:
        return None
    return action.confirm_text({**params, "_now": now.astimezone(ZoneInfo(tz))})


def plain(params: Mapping[str, Any]) -> dict[str, Any]:
    """The params that can be kept in the stored frame (JSON values only)."""
    return {k: v for k, v in params.items() if isinstance(v, str | int | float | bool | list | dict)}


def amended(params: Mapping[str, Any], slots: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` with ``slots`` said again — each changed only in what the new value names. A list of named
    items is corrected item by item: the items named again replace theirs, the others stay ("冰箱里有三个土豆
    和一把豆角" then "不对，是两个土豆" keeps the 豆角); a time keeps the day or the clock it does not name
    ("这周六…" then "早上9点半" is that Saturday at 09:30)."""
    out = dict(params)
    for name, value in slots.items():
        old = out.get(name)
        if isinstance(old, list) and _named_items(old) and _named_items(value):
            again = {item["name"]: item for item in value}
            kept = [again.pop(item["name"], item) for item in old]
            out[name] = kept + list(again.values())
        elif isinstance(old, dict) and _a_time(old) and _a_time(value):  # "这周六…" then "早上9点半": that day
            new = TimeExpr.from_param(value)
            out[name] = corrected_time(new, TimeExpr.from_param(old), new.said).to_param()
        else:
            out[name] = value
    return out


def completes(old: Any, new: Any) -> bool:
    """Whether ``new`` only adds what ``old`` left open (a clock time to a day said without one): an answer
    that completes a value, not a correction of it."""
    if not (_a_time(old) and _a_time(new)) or old.get("has_time"):
        return False
    merged = TimeExpr.from_param(amended({"t": old}, {"t": new})["t"])
    return merged.at.date() == TimeExpr.from_param(old).at.date()


def _a_time(value: Any) -> bool:
    return isinstance(value, dict) and "at" in value and "has_time" in value


def _named_items(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) and "name" in v for v in value)
