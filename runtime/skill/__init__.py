"""The skill protocol (DESIGN §3.6): what a skill declares, and what its actions return.

A skill is one declarative :class:`SkillSpec` — its actions and slots, the objects it owns with the
words for them and the operations on them, how its results are followed up — plus plain functions.
The engine, not the skill, fills slots, confirms writes and follows results up. Every table of intent
facts is derived from the specs by :class:`SkillRegistry`. The parsers skills use are in
:mod:`runtime.skill.parsers`.
"""

from runtime.skill._domain import DomainObject, Entity, FollowUps, Modifier, Operation, Question, Refine
from runtime.skill._registry import UNKNOWN, SkillRegistry
from runtime.skill._spec import (
    ActionSpec,
    Choice,
    FollowUp,
    ShownAs,
    SkillResult,
    SkillSpec,
    SlotCheck,
    SlotLookup,
    SlotSpec,
    SlotType,
    Trigger,
    missing_slots,
)

__all__ = [
    "ActionSpec", "Choice", "DomainObject", "Entity", "FollowUp", "FollowUps", "Modifier", "Operation", "Question",
    "Refine", "ShownAs", "SkillRegistry", "SkillResult", "SkillSpec", "SlotCheck", "SlotLookup", "SlotSpec", "SlotType",
    "Trigger", "UNKNOWN", "missing_slots",
]
