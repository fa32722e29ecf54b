"""A delivery's pieces: its texts packed into as few messages as fit WeChat's byte limit, each piece's
id, and the delivery as stored in Redis.

A delivery packs the parked texts it carries and its own texts into pieces (at most one message
each, long texts split at natural breaks) and stores them before it sends anything. A re-run (the
worker died, the job was retried) reads them back and sends exactly the pieces not settled yet, so
it never packs differently, never sends a settled piece twice and never forgets a carried one. Once
every piece is settled the stored pieces are replaced by a ``done`` marker (only the per-piece
states stay, for the dedupe).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

CUSTOM_LIMIT_BYTES = 2048
PASSIVE_LIMIT_BYTES = 2048
SEPARATOR = "\n\n"
_BREAKS = ("\n", "。", "！", "？", "；", "!", "?", ";", "，", ",", " ")


def _size(text: str) -> int:
    return len(text.encode("utf-8"))


def split_text(text: str, limit: int = CUSTOM_LIMIT_BYTES) -> list[str]:
    """Split ``text`` into pieces of at most ``limit`` UTF-8 bytes, preferring natural breaks."""
    pieces: list[str] = []
    rest = text
    while _size(rest) > limit:
        cut = _fit(rest, limit)
        window = rest[:cut]
        best = max((window.rfind(b) + len(b) for b in _BREAKS if window.rfind(b) > 0), default=0)
        if best >= cut // 2:
            cut = best
        pieces.append(rest[:cut].rstrip("\n"))
        rest = rest[cut:].lstrip("\n")
    if rest or not pieces:
        pieces.append(rest)
    return pieces


def _fit(text: str, limit: int) -> int:
    """The largest character count whose UTF-8 encoding fits in ``limit`` bytes."""
    total = 0
    for i, ch in enumerate(text):
        total += len(ch.encode("utf-8"))
        if total > limit:
            return i
    return len(text)


def pack(texts: list[str], limit: int = CUSTOM_LIMIT_BYTES) -> list[str]:
    """Join ``texts`` (in order) into the fewest messages of at most ``limit`` bytes each.

    Every message spends quota, so replies are joined first and the result split at natural breaks.
    """
    joined = SEPARATOR.join(t for t in texts if t)
    return [p for p in split_text(joined, limit) if p] if joined else []


def pieces_for(carried: tuple[str, ...] | list[str], texts: tuple[str, ...] | list[str]) -> list[str]:
    """The messages a delivery sends, in order: the parked texts it carries, then its own, packed.

    The pieces are fixed once a delivery starts (it stores them); only their channels are chosen
    as it goes, so a re-run sends exactly what the first attempt would have sent.
    """
    return pack([t for t in (*carried, *texts) if t.strip()], min(PASSIVE_LIMIT_BYTES, CUSTOM_LIMIT_BYTES))


# -- the stored record --------------------------------------------------------------------------
SENT_TTL_S = 7 * 86400  # how long a delivery's record is kept
PLAN = "plan"  # the record's field holding the pieces (JSON) or DONE
DONE = "done"
SENDING = "sending"  # a piece claimed for an API call whose outcome is not recorded yet; once settled,
# a piece's value is the channel it settled on ("1" in records written before channels were kept)


def piece_ids(pieces: tuple[str, ...] | list[str]) -> list[str]:
    """The id each piece is recorded under: a hash of its text (unique within the delivery)."""
    ids: list[str] = []
    for i, piece in enumerate(pieces):
        pid = hashlib.sha1(piece.encode()).hexdigest()[:16]
        ids.append(pid if pid not in ids else f"{pid}:{i}")
    return ids


def plan_json(pieces: list[str], carried: tuple[str, ...]) -> str:
    return json.dumps({"pieces": pieces, "carried": list(carried)}, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class DeliveryRecord:
    """``pieces`` None: the delivery has not started; ``done``: every piece was settled."""

    pieces: tuple[str, ...] | None = None
    carried: tuple[str, ...] = ()
    states: Mapping[str, str] = field(default_factory=dict)
    done: bool = False

    @classmethod
    def from_fields(cls, raw: Mapping[Any, Any]) -> DeliveryRecord:
        """From the record hash (``HGETALL``; bytes or str)."""
        fields = {_s(k): _s(v) for k, v in raw.items()}
        plan = fields.pop(PLAN, None)
        if plan is None:
            return cls(states=fields)
        if plan == DONE:
            return cls(pieces=(), states=fields, done=True)
        data = json.loads(plan)
        return cls(tuple(data["pieces"]), tuple(data.get("carried", ())), fields)

    @classmethod
    def from_plan(cls, plan: str, states: Mapping[str, str]) -> DeliveryRecord:
        return cls.from_fields({**states, PLAN: plan})

    def pending(self) -> list[tuple[str, str]]:
        """``(piece id, text)`` of the pieces not settled yet, in order."""
        if self.pieces is None:
            return []
        return [(pid, text) for pid, text in zip(piece_ids(self.pieces), self.pieces, strict=True)
                if not settled(self.states.get(pid))]

    def settled_channels(self) -> list[str]:
        """The channel of each settled piece (``""`` where the record does not say)."""
        return [state if state != "1" else "" for state in self.states.values() if settled(state)]


def settled(state: str | None) -> bool:
    return state is not None and state != SENDING


def _s(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
