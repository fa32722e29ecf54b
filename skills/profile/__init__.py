"""Health profile skill (``skills.profile.skill.SPEC``)."""
