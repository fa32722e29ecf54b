"""Dinner planning under a budget and the recipe catalog (``skills.dinner.skill.SPEC``, ``skills.dinner.recipes.SPEC``).

Besides the specs, the package exports the pieces of a plan that other code reads on their own: the
reading of dietary words (:func:`extract_dietary`), a plan's text and data (:func:`format_plan`,
:func:`plan_dto`, :func:`recipe_name`), the menu shapes a budget allows (:class:`Shape`,
:func:`options_for`), which dishes a swap means (:func:`dishes_meant`), what the pantry can make
(:func:`cookable`, :func:`kind_asked`), which dishes of a menu have a quality (:func:`dishes_with`) and a recipe's answer (:func:`recipe_reply`, one part of it: :func:`recipe_part`, one amount of its
list scaled: :func:`scaled_amount`).
"""

from skills.dinner._at_home import cookable, kind_asked
from skills.dinner._dietary import extract_dietary
from skills.dinner._format import format_plan, plan_dto, recipe_name
from skills.dinner._menu import Shape, options_for
from skills.dinner._recipe_text import recipe_part, recipe_reply, scaled_amount
from skills.dinner._swap import SWAP_FOR_NAMED, dishes_meant
from skills.dinner._which import dishes_with

__all__ = ["SWAP_FOR_NAMED", "Shape", "cookable", "dishes_meant", "dishes_with", "extract_dietary", "format_plan", "kind_asked",
           "options_for", "plan_dto", "recipe_name", "recipe_part", "recipe_reply", "scaled_amount"]
