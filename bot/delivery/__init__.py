"""Delivery: one place for every outgoing message (passive, customer-service, template, parked)."""

from bot.delivery._fence import Fence, LeaseLost
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
    "Allowance", "Channel", "DeliveryFacts", "DeliveryPlan", "DeliveryService", "Fence", "Handoff",
    "LeaseLost", "Opened", "Outcome", "QuotaState", "Step", "TemplateConfig", "decide",
]
