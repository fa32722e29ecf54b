"""Dinner planning under a budget and the recipe catalog (``skills.dinner.skill.SPEC``, ``skills.dinner.recipes.SPEC``)."""
