"""Exercise skill: plan, log with MET energy, history (``skills.exercise.skill.SPEC``)."""
