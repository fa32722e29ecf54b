"""Pantry skill: what the user has at home (``skills.pantry.skill.SPEC``); :func:`parse_pantry` reads the
items and amounts a message names."""

from skills.pantry._follow import extract_item
from skills.pantry._parse import parse_pantry

__all__ = ["extract_item", "parse_pantry"]
