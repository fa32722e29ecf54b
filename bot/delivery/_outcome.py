"""What a delivery reports: the outcome of each piece, and what its start found."""

from __future__ import annotations

from dataclasses import dataclass

from bot.delivery._store import UserSnapshot
from bot.delivery.policy import Channel


@dataclass(frozen=True)
class Outcome:
    """What happened to one piece of text (one attempt, for ``uncertain``). ``status``: sent, offered
    (a passive piece handed to the waiting request), parked, dropped, refused, blocked, uncertain,
    resent_uncertain or duplicate."""

    channel: Channel
    status: str
    text: str
    code: int = 0


@dataclass(frozen=True)
class Started:
    """The start of a delivery done in the caller's round trip: a passive piece settled there
    (``outcome``), or the snapshot to plan from (None when it has to be read again)."""

    outcome: Outcome | None = None
    snapshot: UserSnapshot | None = None


def channel_of(value: str) -> Channel:
    """The channel a piece settled on, as its record keeps it."""
    try:
        return Channel(value)
    except ValueError:  # a record written before channels were kept
        return Channel.PASSIVE
