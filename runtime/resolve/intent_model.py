"""Stage ``intent_model``: the local classifier, trusted only above its measured threshold."""

from __future__ import annotations

from runtime.resolve._match import Kind, Match
from runtime.resolve.turn import Turn
from runtime.turn import Stage

UNKNOWN = "unknown"  # the model's label for a message no skill serves


class IntentModelStage:
    """Confident predictions decide the turn; an unsure pick between two tasks becomes a question."""

    stage = Stage.INTENT_MODEL

    def __init__(self, *, threshold: float = 0.6, clarify_floor: float = 0.3,
                 known_intents: frozenset[str] | None = None, task_intents: frozenset[str] = frozenset(),
                 small_talk: str | None = None) -> None:
        self._threshold = threshold
        self._clarify_floor = clarify_floor
        self._known = known_intents
        self._tasks = task_intents
        self._small_talk = small_talk

    def unsure(self, turn: Turn) -> bool:
        """Whether the calibrated reading of the message is unsure (DESIGN §3.4: ask a model, or the user)."""
        return turn.view.origin in ("text", "voice") and turn.frame.model_unsure()

    def plausible(self, turn: Turn, *, floor: float = 0.1) -> frozenset[str] | None:
        """The labels the model gives at least ``floor`` for the message; None without a model."""
        pred = turn.frame.model_reading()
        if pred is None:
            return None
        return frozenset(lab for lab, p in pred.alternatives if p >= floor) | {pred.label}

    def match(self, turn: Turn) -> Match | None:
        """The model's label when it is sure, a question between two tasks when it is torn."""
        view = turn.view
        pred = turn.frame.model_reading() if view.origin in ("text", "voice") else None
        if pred is None:
            return None
        label, conf = pred.label, float(pred.confidence)
        if conf >= self._threshold:
            if label == UNKNOWN:
                return Match(self.stage, Kind.UNKNOWN, intent="unknown", confidence=conf, detail="model: out of scope")
            if label == self._small_talk:
                return Match(self.stage, Kind.CHITCHAT, intent=label, confidence=conf, detail="model")
            if self._known is None or label in self._known:
                return Match(self.stage, Kind.INTENT, intent=label, confidence=conf, detail="model")
            return None
        top = [(lab, p) for lab, p in pred.alternatives[:2]
               if lab not in (UNKNOWN, self._small_talk) and (self._known is None or lab in self._known)]
        if (view.expected_field is None and len(top) == 2 and top[1][1] >= self._clarify_floor
                and any(lab in self._tasks for lab, _ in top)):
            return Match(self.stage, Kind.CLARIFY, intent=top[0][0], confidence=conf, detail="model: unsure",
                         options=tuple((lab, lab) for lab, _ in top))
        return None
