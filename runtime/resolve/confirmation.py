"""Stage ``expected_input`` (confirmation): "不对，是40分钟" while a write waits for yes/no.

The pending params change and the question stands; a bare number that fits no value clearly asks
which one it changes. Yes and no themselves are the control stage's. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from runtime.resolve._focus_ops import _UNTYPED
from runtime.resolve._match import Kind, Match
from runtime.resolve.turn import Turn
from runtime.skill import ActionSpec, SkillRegistry
from runtime.turn import Stage
from runtime.understand.frame import Frame

__all__ = ["ConfirmationStage"]


class ConfirmationStage:
    """Corrections of a pending confirmation."""

    stage = Stage.EXPECTED_INPUT

    def __init__(self, registry: SkillRegistry) -> None:
        self._registry = registry

    def match(self, turn: Turn) -> Match | None:
        pending, frame = turn.pending, turn.frame.without_reasons()
        if pending is None or turn.view.expected_field is not None:
            return None
        action = self._registry.action(pending.skill, pending.action)
        if action is not None and self._says_the_operation(frame, pending.intent):
            return Match(self.stage, Kind.CONFIRM, intent=pending.intent, detail="yes: the operation asked about")
        if action is None:
            return None
        if not frame.corrects:
            return self._bare(frame, pending.intent, pending.params, action)
        found = frame.changed(action, pending.params, corrections=False)
        fragment = frame.fragment()
        records = [k for k, v in pending.params.items() if isinstance(v, list) and v and all(isinstance(x, dict) for x in v)]
        if found and records and not set(records) & set(found) and action.follow_up is not None and fragment:
            # several records wait (周一游泳、周二跑步) and the words change none of the list: the skill knows
            # which record "周二是5公里" names
            changed = fragment.follow_up(action, pending.params) or {}
            found = {k: v for k, v in changed.items() if pending.params.get(k) != v} or found
        if action.follow_up is not None and fragment:  # "不对，是三个": the skill reads it (and what else it names)
            changed = fragment.follow_up(action, pending.params) or {}
            found = {**{k: v for k, v in changed.items() if pending.params.get(k) != v}, **found}
        if not found:  # "不是5公里是6公里": the words after the last 是 are the correction
            found = frame.changed(action, pending.params)
        if not found:
            found = frame.nearest_number(action, pending.params)
        readings = frame.number_readings(action, pending.params) if not found else []
        if readings:  # a bare number that fits no value clearly: ask which one it changes
            return Match(self.stage, Kind.FILL, intent=pending.intent,
                         params={"slots": {}, "readings": {name: value for _, name, value in readings}},
                         detail=f"bare number: which of {[name for _, name, _ in readings]}")
        if not found:
            return None
        return Match(self.stage, Kind.FILL, intent=pending.intent, params={"slots": found},
                     detail=f"correction {sorted(found)} of the pending confirmation")

    def _bare(self, frame: Frame, intent: str, params: Mapping[str, Any], action: ActionSpec) -> Match | None:
        """"下午吧 四点" while a reminder waits for yes/no: a short message that is nothing but typed values of
        the action waiting changes them (as a correction would), and the yes/no is asked again."""
        bare = frame.bare()
        routed = frame.rule
        if bare.empty or bare.length > 8 or frame.question or (routed is not None and routed[0] != intent):
            return None
        telling = {s.name for s in action.slots if s.parser not in _UNTYPED}
        said = {k: v for k, v in bare.slots(action).items() if k in telling and params.get(k) != v}
        if not said or not bare.explains(bare.value_spans):
            return None
        return Match(self.stage, Kind.FILL, intent=intent, params={"slots": said},
                     detail=f"bare values {sorted(said)} for the pending confirmation")

    def _says_the_operation(self, frame: Frame, intent: str) -> bool:
        """"删吧" while a deletion waits for yes/no: a short message that is only the operation asked about
        (when the pending intent does that one operation only: "删了" is no yes to a pantry change)."""
        ops = frame.operations
        if not ops or frame.length > 6 or frame.corrects or not frame.explains([s for _, s in ops]):
            return False
        reached = {op for o in self._registry.objects for op, i in o.ops if i == intent}
        return len(reached) == 1 and all(op in reached for op, _ in ops)  # one meaning: 删 for a deletion only
