"""One-line Chinese descriptions of the intent labels, for the routing prompt."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["RouteLabel", "labels_from_registry"]

UNKNOWN = "unknown"  # the engine's own label: none of the skills' intents
UNKNOWN_DESCRIPTION = "都不是"


@dataclass(frozen=True, slots=True)
class RouteLabel:
    """One intent the router may choose, with its one-line description and the params it accepts."""

    intent: str
    description: str
    params: tuple[str, ...] = ()


def labels_from_registry(skills: Iterable[object]) -> tuple[RouteLabel, ...]:
    """Labels for the actions of ``SkillSpec``-like objects (their intents and descriptions), plus ``unknown``.

    Duck-typed (``.actions`` with ``.intent``, ``.description``, ``.slots[].name``) so this module
    does not import the skill protocol.
    """
    seen: dict[str, RouteLabel] = {}
    for skill in skills:
        for action in getattr(skill, "actions", ()):
            intent = str(action.intent)
            if intent in seen or getattr(action, "crisis", False):  # reached by detection, never by a model
                continue
            description = str(getattr(action, "description", "") or getattr(action, "task", "") or intent)
            params = tuple(str(s.name) for s in getattr(action, "slots", ()))
            seen[intent] = RouteLabel(intent, description, params)
    seen.setdefault(UNKNOWN, RouteLabel(UNKNOWN, UNKNOWN_DESCRIPTION))
    return tuple(seen.values())
