"""Deterministic business skills. :func:`all_skills` lists every SkillSpec the engine registers."""

from __future__ import annotations

import importlib
from functools import cache

from runtime.skill import SkillRegistry, SkillSpec

__all__ = ["SKILL_MODULES", "all_skills", "registry"]

# module path -> attribute holding its SkillSpec
# (registration order is the order of the help text)
SKILL_MODULES: tuple[tuple[str, str], ...] = (
    ("skills.dinner.skill", "SPEC"),
    ("skills.dinner.recipes", "SPEC"),
    ("skills.reminders.skill", "SPEC"),
    ("skills.exercise.skill", "SPEC"),
    ("skills.profile.skill", "SPEC"),
    ("skills.pantry.skill", "SPEC"),
    ("skills.datetime.skill", "SPEC"),
    ("skills.weather.skill", "SPEC"),
    ("skills.smalltalk.skill", "SPEC"),
    ("skills.safety.skill", "SPEC"),
)


def all_skills() -> list[SkillSpec]:
    """Every registered skill, in declaration order."""
    return [getattr(importlib.import_module(module), attr) for module, attr in SKILL_MODULES]


@cache
def registry() -> SkillRegistry:
    """The registry of every skill (built once per process): the source of every intent table."""
    return SkillRegistry(all_skills())
