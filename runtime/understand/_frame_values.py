"""The frame's readings of values: an action's slots, edits, answers, corrections, picks, and the local
model's reading — each computed once per frame (a part of :class:`~runtime.understand.frame.Frame`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from runtime.parsers.slots import parse_choice
from runtime.skill import ActionSpec, SlotSpec, SlotType
from runtime.understand import slots, spans
from runtime.understand.language import Language
from runtime.understand.pick import Picked, pick

Span = tuple[int, int]
T = TypeVar("T")


class FrameValues:
    """What a frame says of values (mixed into :class:`~runtime.understand.frame.Frame`, which holds the text)."""

    __slots__ = ()
    text: str
    now: datetime
    lang: Language

    if TYPE_CHECKING:
        def _once(self, key: Any, make: Callable[[], T]) -> T: ...

        def without_reasons(self) -> FrameValues: ...

        @property
        def rule(self) -> tuple[str, str] | None: ...

        @property
        def empty(self) -> bool: ...

    # -- values ------------------------------------------------------------------------------
    def slots(self, action: ActionSpec) -> dict[str, Any]:
        """Every value of ``action``'s slots the message says — none from a clause that only says why,
        unless that clause holds what a required free-text slot would otherwise lack ("明天提醒我，孩子要带作业":
        the second clause is what to be reminded of)."""
        return self._once(("slots", action.intent, action.name), lambda: self._slots(action))

    def _slots(self, action: ActionSpec) -> dict[str, Any]:
        full = slots.extract_all(action, self.text, self.now)
        lean = self.without_reasons()
        if lean is self:
            return full
        found = slots.extract_all(action, lean.text, self.now)
        lost = [s for s in action.slots if s.required and s.parser == "text" and s.name in full and s.name not in found]
        if lost:
            return full
        return {**{k: v for k, v in full.items() if k not in found}, **found}  # what only such a clause says stays

    def edited(self, action: ActionSpec) -> dict[str, Any]:
        """The slots this message changes when it is said as an edit of what ``action`` made: every slot it
        names in its own form (a time, a count, a restriction, a known city); a free-text slot only when it
        names nothing else ("不对，是取快递") or says the whole request again ("改成明天提醒我取快递"). An
        operation word ("挪到十一点") or a reason never becomes content."""
        found = self.slots(action)
        free = {s.name for s in action.slots if s.parser is SlotType.TEXT and not s.standalone}
        if not any(k not in free for k in found):
            return found
        if self.rule is not None and self.rule[0] == action.intent:
            return found
        return {k: v for k, v in found.items() if k not in free}

    def answer(self, slot: SlotSpec) -> Any:
        """``slot``'s value read leniently, as the answer to its question (a bare "3")."""
        return self._once(("answer", slot.name, slot.parser),
                          lambda: slots.parse_slot(slot, self.text, answer=True, now=self.now))

    def changed(self, action: ActionSpec, params: Mapping[str, Any], *, expected: str | None = None,
                corrections: bool = True) -> dict[str, Any]:
        """Slots of ``action`` the message names by their own words with a value other than in ``params``
        (never read from a clause that only says why)."""
        text = self.without_reasons().text
        return slots.changed_slots(action, params, text, self.now, expected=expected, corrections=corrections)

    def another_thing(self, action: ActionSpec, params: Mapping[str, Any], *, asked: str | None = None) -> bool:
        """Whether it asks for the same action about something else (a free-text slot said anew)."""
        return slots.another_thing(action, params, self.text, self.now, asked=asked)

    def nearest_number(self, action: ActionSpec, params: dict[str, Any]) -> dict[str, Any]:
        """A bare corrected number, as the numeric slot it is clearly nearest to."""
        return slots.nearest_number_slot(action, params, self.text, self.now)

    def number_readings(self, action: ActionSpec, params: dict[str, Any]) -> list[tuple[float, str, Any]]:
        """Each numeric slot a bare corrected number could change."""
        return slots.number_readings(action, params, self.text, self.now)

    def follow_up(self, action: ActionSpec, params: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """``params`` as the action's own follow-up hook reads this message against them."""
        return action.follow_up(params, self.text) if action.follow_up is not None else None

    def choice(self, options: tuple[str, ...]) -> int | None:
        """The 1-based option it picks from a numbered question."""
        return parse_choice(self.text, True, options)

    def pick(self, entities: Sequence[Any], *, taken: Sequence[Span] = ()) -> Picked | None:
        """The one shown entity it points at (by position, name, or 这个 when one was shown)."""
        return pick(self.text, list(entities), taken=list(taken))

    def said_spans(self, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[Span]:
        """Where it says the values a follow-up changed."""
        return spans.said(self.text, before, after)

    # -- the local model ---------------------------------------------------------------------
    def model_reading(self) -> Any:
        """The local intent model's prediction (label, confidence, alternatives), or None."""
        model = self.lang.model
        if model is None or self.empty:
            return None
        return self._once("model", lambda: model.predict(self.text))

    def model_unsure(self) -> bool:
        """Whether the calibrated reading of the local model is unsure."""
        read = getattr(self.lang.model, "read", None)
        return read is not None and not self.empty and bool(self._once("unsure", lambda: read(self.text).unsure))
