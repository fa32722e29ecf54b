"""Deterministic business skills. :func:`all_skills` lists every SkillSpec the engine registers."""

from __future__ import annotations

import importlib

from runtime.skill import SkillSpec

__all__ = ["SKILL_MODULES", "all_skills"]

# module path -> attribute holding its SkillSpec
SKILL_MODULES: tuple[tuple[str, str], ...] = (
    ("skills.datetime.skill", "SPEC"),
    ("skills.reminders.skill", "SPEC"),
    ("skills.dinner.skill", "SPEC"),
    ("skills.dinner.recipes", "SPEC"),
    ("skills.exercise.skill", "SPEC"),
    ("skills.profile.skill", "SPEC"),
    ("skills.pantry.skill", "SPEC"),
    ("skills.weather.skill", "SPEC"),
)


def all_skills() -> list[SkillSpec]:
    """Every registered skill, in declaration order."""
    return [getattr(importlib.import_module(module), attr) for module, attr in SKILL_MODULES]
