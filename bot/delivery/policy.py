"""The delivery decision as a pure function: facts in, a plan of channel steps out."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from bot.delivery._pieces import pieces_for

MESSAGE_WINDOW_S = 48 * 3600
MESSAGE_QUOTA = 5
INTERACTION_WINDOW_S = 60
INTERACTION_QUOTA = 3
UNCERTAIN_RESENDS = 1


class Channel(StrEnum):
    """Where one piece of text goes."""

    PASSIVE = "passive"
    CUSTOM = "custom"
    TEMPLATE = "template"
    SUBSCRIBE = "subscribe"
    PARK = "park"
    DROP = "drop"


class Allowance(StrEnum):
    """Which customer-service quota a custom message spends."""

    INTERACTION = "interaction"
    MESSAGE = "message"


@dataclass(frozen=True)
class QuotaState:
    """The per-user customer-service window as stored in Redis (epoch seconds)."""

    last_message_at: float | None = None
    message_used: int = 0
    last_interaction_at: float | None = None
    interaction_used: int = 0

    def available(self, now: float) -> dict[Allowance, int]:
        """Custom messages still allowed now, per allowance."""
        out = {Allowance.INTERACTION: 0, Allowance.MESSAGE: 0}
        if self.last_interaction_at is not None and now - self.last_interaction_at < INTERACTION_WINDOW_S:
            out[Allowance.INTERACTION] = max(0, INTERACTION_QUOTA - self.interaction_used)
        if self.last_message_at is not None and now - self.last_message_at < MESSAGE_WINDOW_S:
            out[Allowance.MESSAGE] = max(0, MESSAGE_QUOTA - self.message_used)
        return out


@dataclass(frozen=True)
class DeliveryFacts:
    """Everything :func:`decide` needs; built by the delivery service from Redis."""

    texts: tuple[str, ...]
    now: float
    quota: QuotaState = field(default_factory=QuotaState)
    parked: tuple[str, ...] = ()
    passive: bool = False
    template_id: str | None = None
    subscribe_template_id: str | None = None
    unsubscribed: bool = False
    refused: bool = False
    api_blocked: bool = False  # WeChat answered 45015/45047 during this delivery


@dataclass(frozen=True)
class Step:
    """Send ``text`` through ``channel`` (spending ``allowance`` when it is a custom message)."""

    channel: Channel
    text: str
    allowance: Allowance | None = None


@dataclass(frozen=True)
class DeliveryPlan:
    """The ordered steps for one delivery, plus the parked texts it consumed."""

    steps: tuple[Step, ...]
    consumed_parked: bool = False

    def channels(self) -> list[Channel]:
        return [s.channel for s in self.steps]


def decide(facts: DeliveryFacts) -> DeliveryPlan:
    """Choose a channel for every piece of text, in order.

    Passive first (one message, parked texts prepended); then customer-service messages within the
    quota (the 1-minute interaction allowance first, it expires sooner); then a template or subscribe
    message when configured; otherwise park the text for the user's next reply. Users who
    unsubscribed or refused get nothing pushed.
    """
    plan = assign(facts, pieces_for(facts.parked, facts.texts))
    return replace(plan, consumed_parked=bool(facts.parked))


def assign(facts: DeliveryFacts, pieces: list[str]) -> DeliveryPlan:
    """Channels for already packed ``pieces`` (``facts.texts`` and ``facts.parked`` are not read)."""
    if not pieces:
        return DeliveryPlan(())
    if not facts.passive and (facts.unsubscribed or facts.refused):
        return DeliveryPlan(tuple(Step(Channel.DROP, t) for t in pieces))
    steps: list[Step] = []
    rest = pieces
    if facts.passive:
        steps.append(Step(Channel.PASSIVE, pieces[0]))
        rest = pieces[1:]
    left = {} if facts.api_blocked else facts.quota.available(facts.now)
    for piece in rest:
        steps.append(_fallback_step(facts, piece, left))
    return DeliveryPlan(tuple(steps))


def _fallback_step(facts: DeliveryFacts, text: str, left: dict[Allowance, int]) -> Step:
    for allowance in (Allowance.INTERACTION, Allowance.MESSAGE):
        if left.get(allowance, 0) > 0:
            left[allowance] -= 1
            return Step(Channel.CUSTOM, text, allowance)
    if facts.template_id:
        return Step(Channel.TEMPLATE, text)
    if facts.subscribe_template_id:
        return Step(Channel.SUBSCRIBE, text)
    return Step(Channel.PARK, text)


def after_api_block(facts: DeliveryFacts, remaining: list[str]) -> DeliveryPlan:
    """Re-plan the ``remaining`` pieces after WeChat refused a custom message (45015/45047)."""
    return assign(replace(facts, passive=False, api_blocked=True), remaining)


def uncertain_resends(attempts: int) -> bool:
    """Whether a piece whose send had no known outcome (``attempts`` such sends so far) is sent again
    at once. The policy: once. A reply or a reminder the user never gets is worse than one they see
    twice, and every such double is recorded; a second unknown outcome parks the piece for the
    user's next message instead of sending it a third time now."""
    return attempts <= UNCERTAIN_RESENDS
