"""Health profile skill (``skills.profile.skill.SPEC``); :func:`parse_goal` reads a fitness goal for other
skills, the ``extract_*`` readers the profile fields a message names, :func:`extract_aspect` which part
of the profile a question asks about."""

from skills.profile._parse import (
    extract_bare_value,
    extract_conditions,
    extract_dislikes,
    extract_field,
    extract_height,
    extract_target_weight,
    extract_weight,
    parse_goal,
)
from skills.profile._view import extract_aspect

__all__ = ["extract_aspect", "extract_bare_value", "extract_conditions", "extract_dislikes", "extract_field", "extract_height",
           "extract_target_weight", "extract_weight", "parse_goal"]
