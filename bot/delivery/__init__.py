"""Delivery: one place for every outgoing message (passive, customer-service, template, parked)."""

from bot.delivery._fence import Fence, LeaseLost
from bot.delivery._outcome import Outcome, Started
from bot.delivery._pieces import SEPARATOR, pack, split_text
from bot.delivery._replicas import NotReplicated
from bot.delivery._store import DeliveryStore
from bot.delivery._uncertain import outcome_unknown
from bot.delivery.handoff import OFFER_OR_READ, Handoff, Opened
from bot.delivery.policy import (
    Allowance,
    Channel,
    DeliveryFacts,
    DeliveryPlan,
    QuotaState,
    Step,
    decide,
)
from bot.delivery.service import DeliveryService, TemplateConfig
from bot.delivery.turn import TurnDelivery

__all__ = [
    "OFFER_OR_READ", "SEPARATOR", "Allowance", "Channel", "DeliveryFacts", "DeliveryPlan", "DeliveryService", "DeliveryStore", "Fence",
    "Handoff", "LeaseLost", "NotReplicated", "Opened", "Outcome", "QuotaState", "Started", "Step", "TemplateConfig",
    "TurnDelivery", "decide",
    "outcome_unknown", "pack", "split_text",
]
