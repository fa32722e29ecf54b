"""datetime.query skill, and the day entity other skills show (a reminder's day)."""

from skills.datetime._focus import day_entity
from skills.datetime.skill import SPEC

__all__ = ["SPEC", "day_entity"]
