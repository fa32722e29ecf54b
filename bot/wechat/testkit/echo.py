"""A tiny engine for smoke tests: echoes text (``sleep:<seconds> <text>`` waits first)."""

from __future__ import annotations

import time
from typing import Any

from bot.settings import Settings
from runtime.turn import Inbound, StateSnapshot, TurnResult, TurnTrace


class EchoEngine:
    """``handle(inbound) -> TurnResult`` like ``runtime.engine.Engine``, with no state."""

    store: Any = None  # it keeps no contexts

    def handle(self, inbound: Inbound, *, loaded: Any = None) -> TurnResult:
        text = inbound.text
        if text.startswith("sleep:"):
            head, _, text = text.partition(" ")
            time.sleep(float(head.split(":", 1)[1]))
        if inbound.event:
            reply = f"{inbound.event}:{inbound.key or ''}"
        else:
            reply = f"echo:{text}"
        trace = TurnTrace(user=inbound.user, msg_id=inbound.msg_id)
        return TurnResult(replies=[reply], trace=trace, state=StateSnapshot())


def build_engine(settings: Settings, redis: Any) -> EchoEngine:
    """Engine factory for ``wxbot worker --engine bot.wechat.testkit.echo:build_engine``."""
    return EchoEngine()
