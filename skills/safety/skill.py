"""The crisis answer (DESIGN §3.4 "Crisis first"): reached only when the engine detects a crisis, never
by routing; reported as ``chitchat`` (the §3.2 label list is a contract)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from runtime.skill import ActionSpec, SkillResult, SkillSpec
from runtime.views import ExecView
from skills.safety.texts import again, reply

__all__ = ["SPEC", "answer"]


def answer(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """What to do now for the crisis the engine read: ``kind``, ``sub`` and the other kinds told (``also``)."""
    kind, sub = str(params.get("kind") or "self_harm"), str(params.get("sub") or "")
    also = tuple(str(k) for k in params.get("also") or ())
    if params.get("again"):  # right after the crisis reply, a message that asks for nothing else
        return SkillResult(again(kind), dto={"crisis": kind, "sub": sub, "again": True})
    return SkillResult(reply(kind, sub, also), dto={"crisis": kind, "sub": sub})


SPEC = SkillSpec(
    name="safety",
    description="危机时先说现在该做什么：急救120、报警110、心理援助热线",
    actions=(
        ActionSpec(name="crisis", intent="safety.crisis", run=answer, read_only=True, reports_as="chitchat",
                   task="紧急求助", crisis=True, description="自伤或轻生的念头、急症、家庭暴力：先说现在该做什么"),
    ),
)
