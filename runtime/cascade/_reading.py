"""Reading a message against the active task's slots (pure; used by the pending-input stages)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from runtime._slots import USE_DEFAULT, changed_slots, parse_slot
from runtime.context import SkillSession
from runtime.parsers.slots import parse_yes_no
from runtime.skill import SkillRegistry

__all__ = ["answer_value", "named_slots", "spare_text"]


def answer_value(registry: SkillRegistry, session: SkillSession | None, text: str, now: datetime) -> Any:
    """The expected field's value in ``text``: the typed value, :data:`USE_DEFAULT`, or None."""
    if session is None or session.expected_input is None:
        return None
    action = registry.action(session.skill, session.action)
    slot = action.slot(session.expected_input.field) if action else None
    if slot is None:
        return None
    partial = session.expected_input.partial
    if partial and partial not in text:  # "7点" after "那天早上": read with what was understood of it
        joined = parse_slot(slot, f"{partial} {text}", answer=True, now=now)
        if joined is not None and (slot.check is None or slot.check(joined) is None):
            return joined
    value = parse_slot(slot, text, answer=True, now=now)
    if value is None and session.expected_input.options and parse_yes_no(text, True) is True:
        return USE_DEFAULT
    return value


def named_slots(registry: SkillRegistry, session: SkillSession | None, text: str, now: datetime) -> dict[str, Any]:
    """Slots of the active action that ``text`` names by their own units or keywords."""
    action = registry.action(session.skill, session.action) if session else None
    if session is None or action is None:
        return {}
    expected = session.expected_input.field if session.expected_input else None
    return changed_slots(action, session.params, text, now, expected=expected)


def spare_text(registry: SkillRegistry, session: SkillSession | None, text: str) -> dict[str, Any]:
    """An otherwise unexplained message while a non-text slot is asked: the value of the one
    free-text slot still empty ("去取快递" while the time is asked is the reminder's content)."""
    action = registry.action(session.skill, session.action) if session else None
    if session is None or action is None or session.expected_input is None:
        return {}
    empty = [s for s in action.slots if s.parser == "text" and s.required and s.name not in session.params
             and s.name != session.expected_input.field]
    value = text.strip().strip("。.!！")
    return {empty[0].name: value} if len(empty) == 1 and value else {}
