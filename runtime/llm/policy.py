"""When the routing model decides a turn: only where code is unsure, and only when one is configured.

The cascade says what it found (:class:`Doubt`); :func:`model_decides` is the one rule. Without a
model nothing changes: the turn gets what the local stages make of it (a numbered question of the
plausible requests, the fallback). A model's decision is still only a proposal: a write waits for the
user's yes with every value shown, and a failed call gives the answer the turn would have had without it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Doubt", "model_decides"]


@dataclass(frozen=True, slots=True)
class Doubt:
    """What makes code unsure of a message (each found by the cascade, none read from the text here)."""

    unsure: bool = False
    """The calibrated local reading is below its threshold."""
    torn_between_writes: bool = False
    """The local model hesitates between requests, one of which would change something."""
    names_domain: bool = False
    """The message names an object or operation of the skills' domain, but no stage explains it."""
    unplaced_follow_up: bool = False
    """A result is on screen and the message, said right after it, is something no declaration of that
    result places (read as chat, out of scope, or a follow-up that changes nothing of it)."""
    unexplained_span: bool = False
    """A part of the message that carries meaning is explained by no reading (for the frame parser)."""

    def __bool__(self) -> bool:
        return (self.unsure or self.torn_between_writes or self.names_domain or self.unplaced_follow_up
                or self.unexplained_span)


def model_decides(doubt: Doubt, *, configured: bool) -> bool:
    """Whether the routing model is asked: a model is configured and code has a doubt."""
    return configured and bool(doubt)
