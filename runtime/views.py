"""The three frozen views of a turn (DESIGN §3.5), assembled once before the cascade.

* :class:`RouterView` — what routing may look at: the text, its origin, the active skill and
  expected field, the kind of pending confirmation. Never lists, history or profile data.
* :class:`ExecView` — what a skill acts on: user, message id, clock, collected params, entities.
  Never the origin.
* :class:`ModelSummary` — one templated Chinese sentence for any model call; never JSON or ids.

All three are immutable: assigning to a field raises.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any


def _freeze(mapping: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping or {}))


@dataclass(frozen=True, slots=True)
class RouterView:
    """Routing input: the message and the shape of the conversation, nothing more."""

    text: str
    origin: str
    event: str | None = None
    key: str | None = None
    active_skill: str | None = None
    active_intent: str | None = None
    expected_field: str | None = None
    expected_type: str | None = None
    expected_options: tuple[str, ...] = ()
    pending_confirmation: str | None = None
    has_paused: bool = False
    clarifying: bool = False
    now: datetime | None = None
    last_intent: str | None = None  # the intent of the last answered query (for elliptical follow-ups)


@dataclass(frozen=True, slots=True)
class ExecView:
    """Skill input: who, when, and what to act on. Has no idea where the request came from."""

    user: str
    msg_id: str
    now: datetime
    tz: str
    params: Mapping[str, Any] = field(default_factory=lambda: _freeze(None))
    entities: Mapping[str, Any] = field(default_factory=lambda: _freeze(None))

    def with_params(self, params: Mapping[str, Any]) -> ExecView:
        """A copy of this view acting on ``params`` (the original stays as it was)."""
        return ExecView(self.user, self.msg_id, self.now, self.tz, _freeze(params), self.entities)


@dataclass(frozen=True, slots=True)
class ModelSummary:
    """One short Chinese sentence describing the conversation, for prompts."""

    text: str


def make_exec_view(*, user: str, msg_id: str, now: datetime, tz: str,
                   params: Mapping[str, Any] | None = None,
                   entities: Mapping[str, Any] | None = None) -> ExecView:
    """Build an :class:`ExecView` with read-only mappings."""
    return ExecView(user, msg_id, now, tz, _freeze(params), _freeze(entities))
