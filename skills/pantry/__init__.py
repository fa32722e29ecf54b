"""Pantry skill: what the user has at home (``skills.pantry.skill.SPEC``)."""
