"""Reading a message against the active task's slots (pure; used by the pending-input stages)."""

from __future__ import annotations

from typing import Any

from runtime.apply.slots import amended, completes
from runtime.context import SkillSession
from runtime.skill import SkillRegistry
from runtime.understand.frame import Frame
from runtime.understand.slots import USE_DEFAULT

__all__ = ["answer_value", "named_slots", "spare_text"]


def answer_value(registry: SkillRegistry, session: SkillSession | None, frame: Frame) -> Any:
    """The expected field's value in the message: the typed value, :data:`USE_DEFAULT`, or None."""
    if session is None or session.expected_input is None:
        return None
    action = registry.action(session.skill, session.action)
    slot = action.slot(session.expected_input.field) if action else None
    if slot is None:
        return None
    partial = session.expected_input.partial
    if partial:  # "7点" after "那天早上": read with what was understood of it
        joined = frame.after(partial)
        if joined is not None:
            value = joined.answer(slot)
            if value is not None and (slot.check is None or slot.check(value) is None):
                return value
    value = frame.answer(slot)
    established = session.expected_input.established
    if established is not None and completes(established, value):  # the day the question was about stays
        merged = amended({slot.name: established}, {slot.name: value})[slot.name]
        if slot.check is None or slot.check(merged) is None:
            return merged
    if value is None and session.expected_input.options and frame.says_yes is True:
        return USE_DEFAULT
    return value


def named_slots(registry: SkillRegistry, session: SkillSession | None, frame: Frame) -> dict[str, Any]:
    """Slots of the active action that the message names by their own units or keywords."""
    action = registry.action(session.skill, session.action) if session else None
    if session is None or action is None:
        return {}
    expected = session.expected_input.field if session.expected_input else None
    return frame.changed(action, session.params, expected=expected)


def spare_text(registry: SkillRegistry, session: SkillSession | None, frame: Frame) -> dict[str, Any]:
    """An otherwise unexplained message while a non-text slot is asked: the value of the one
    free-text slot still empty ("去取快递" while the time is asked is the reminder's content)."""
    action = registry.action(session.skill, session.action) if session else None
    if session is None or action is None or session.expected_input is None:
        return {}
    empty = [s for s in action.slots if s.parser == "text" and s.required and s.name not in session.params
             and s.name != session.expected_input.field]
    value = frame.free_text()
    return {empty[0].name: value} if len(empty) == 1 and value else {}
