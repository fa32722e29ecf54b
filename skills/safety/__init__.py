"""The crisis answer: what to do now, and who can help (120, 110, the help lines in docs/safety.md)."""

from skills.safety.skill import SPEC
from skills.safety.texts import reply

__all__ = ["SPEC", "reply"]
