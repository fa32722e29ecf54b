"""Delivery that also writes every outcome into the user's transcript (replies and pushes alike)."""

from __future__ import annotations

import logging
from typing import Any

from bot.delivery._fence import Fence
from bot.delivery._outcome import Outcome, Started
from bot.delivery._store import UserSnapshot
from bot.delivery.service import DeliveryService

log = logging.getLogger("bot._delivery_transcript")  # its name before the move: operators filter on it

PUSH_PREFIXES = ("reminder:",)


class TranscribedDelivery(DeliveryService):
    """A :class:`DeliveryService` that records each outcome; recording never fails a delivery."""

    transcript: Any = None

    def deliver(self, user: str, message_key: str, texts: list[str], *, passive: bool | None = None,
                snapshot: UserSnapshot | None = None, started: Started | None = None,
                fence: Fence | None = None, carry_parked: bool = True, record_on: Any = None) -> list[Outcome]:
        """Deliver, then record each outcome. ``record_on``: a pipeline the caller executes with its
        next round trip — the records are queued on it instead of costing one of their own."""
        outcomes = super().deliver(user, message_key, texts, passive=passive, snapshot=snapshot, started=started,
                                   fence=fence, carry_parked=carry_parked)
        if self.transcript is not None:
            push = message_key.startswith(PUSH_PREFIXES)
            for outcome in outcomes:
                if outcome.status == "duplicate":
                    continue
                try:
                    if record_on is not None:
                        self.transcript.queue_delivery(record_on, user, outcome.text, str(outcome.channel),
                                                       outcome.status, ref=message_key, push=push)
                    else:
                        self.transcript.record_delivery(user, outcome.text, str(outcome.channel), outcome.status,
                                                        ref=message_key, push=push)
                except Exception as exc:  # observability must not lose a delivery
                    log.warning("transcript delivery record failed: %s", type(exc).__name__)
        return outcomes
