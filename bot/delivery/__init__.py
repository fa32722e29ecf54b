"""Delivery: one place for every outgoing message (passive, customer-service, template, parked)."""

from bot.delivery._fence import Fence, LeaseLost
from bot.delivery._replicas import NotReplicated
from bot.delivery._scripts import OFFER_OR_READ
from bot.delivery._split import SEPARATOR, pack, split_text
from bot.delivery._store import DeliveryStore
from bot.delivery._uncertain import outcome_unknown
from bot.delivery.handoff import Handoff, Opened
from bot.delivery.policy import (
    Allowance,
    Channel,
    DeliveryFacts,
    DeliveryPlan,
    QuotaState,
    Step,
    decide,
)
from bot.delivery.service import DeliveryService, Outcome, TemplateConfig

__all__ = [
    "OFFER_OR_READ", "SEPARATOR", "Allowance", "Channel", "DeliveryFacts", "DeliveryPlan", "DeliveryService", "DeliveryStore", "Fence",
    "Handoff", "LeaseLost", "NotReplicated", "Opened", "Outcome", "QuotaState", "Step", "TemplateConfig", "decide",
    "outcome_unknown", "pack", "split_text",
]
