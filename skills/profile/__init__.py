"""Health profile skill (``skills.profile.skill.SPEC``); :func:`parse_goal` reads a fitness goal for other skills."""

from skills.profile._parse import parse_goal

__all__ = ["parse_goal"]
