"""One delivery as stored in Redis: its pieces, fixed when it starts, and the state of each.

A delivery packs the parked texts it carries and its own texts into pieces (at most one message
each) and stores them before it sends anything. A re-run (the worker died, the job was retried)
reads them back and sends exactly the pieces not settled yet, so it never packs differently, never
sends a settled piece twice and never forgets a carried one. Once every piece is settled the stored
pieces are replaced by a ``done`` marker (only the per-piece states stay, for the dedupe).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

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
