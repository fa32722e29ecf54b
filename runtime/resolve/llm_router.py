"""Stage ``llm_router``: asks the ``intent_routing`` model when rules and the local model were unsure.

``applies`` is pure (is a model configured, is there text to route); ``decide`` makes the call and
returns a ``Match`` when the model chose a real intent confidently, else None so the cascade moves on
to ``fallback``. The prompt holds the label list, the model summary sentence and the message only.
"""

from __future__ import annotations

from collections.abc import Sequence

from runtime.llm import LLM
from runtime.llm.routing import RouteLabel, RouteOutcome, Router
from runtime.resolve._match import Kind, Match
from runtime.turn import Origin, Stage
from runtime.views import ModelSummary, RouterView

__all__ = ["DEFAULT_THRESHOLD", "LLMRouterStage"]

DEFAULT_THRESHOLD = 0.6


class LLMRouterStage:
    """The LLM routing stage."""

    stage = Stage.LLM_ROUTER

    def __init__(self, llm: LLM, labels: Sequence[RouteLabel], *, threshold: float = DEFAULT_THRESHOLD) -> None:
        self._router = Router(llm, labels)
        self.threshold = threshold

    def applies(self, view: RouterView) -> bool:
        """True when a routing model is configured and the turn is typed or spoken text. Pure."""
        return (self._router.available and bool(view.text.strip())
                and view.origin in (Origin.TEXT.value, Origin.VOICE.value))

    def decide(self, view: RouterView, summary: ModelSummary, *,
               llm: LLM | None = None) -> tuple[Match | None, RouteOutcome]:
        """Route the message; the outcome goes to the trace even when there is no match.

        Build the stage once per engine and pass the turn's metered port as ``llm``: the stage then
        remembers which structured-output mode the provider accepts across turns.
        """
        outcome = self._router.route(view.text, summary.text, llm=llm)
        if not outcome.decided(self.threshold):
            return None, outcome
        kind = Kind.CHITCHAT if outcome.intent == "chitchat" else Kind.INTENT
        detail = f"mode={outcome.mode.value if outcome.mode else '-'}{' repaired' if outcome.repaired else ''}"
        return Match(stage=Stage.LLM_ROUTER, kind=kind, intent=outcome.intent, confidence=outcome.confidence,
                     params=dict(outcome.params), detail=detail), outcome
