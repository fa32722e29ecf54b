"""datetime.query skill."""

from skills.datetime.skill import SPEC

__all__ = ["SPEC"]
