"""Carrying out a follow-up of the focus (DESIGN §3.4): the same action with something changed, or the
action a pick, a modifier or a derived question worked out."""

from __future__ import annotations

from runtime.apply._common import Carrier, repeat_pending
from runtime.apply._fallback import unknown
from runtime.apply.slots import moved_earlier, time_slots, with_defaults
from runtime.context import SkillSession
from runtime.resolve import Match
from runtime.resolve.turn import Turn
from runtime.skill import SlotType
from runtime.understand.frame import Frame

__all__ = ["follow_up", "refer"]


def follow_up(engine: Carrier, turn: Turn, match: Match) -> None:
    """Re-run the last query with the changed slot ("杭州明天天气" → "那广州呢")."""
    ctx, fragment = turn.ctx, match.params.get("fragment")
    earlier = match.params.get("earlier")
    if isinstance(earlier, list):  # the write before a side answer: it becomes the focus again
        back = next((f for f in ctx.earlier if [f.intent, f.at.isoformat()] == earlier), None)
        if back is not None:
            ctx.earlier.remove(back)
            ctx.show(back)
    frame = ctx.focus
    found = engine.registry.for_intent(frame.intent) if frame else None
    if frame is None or found is None:
        unknown(engine, turn, match)
        return
    spec, action = found
    if not isinstance(fragment, Frame):
        unknown(engine, turn, match)
        return
    ahead = match.params.get("ahead")
    if isinstance(ahead, int | float):  # "提前半小时提醒我": the same task, its time moved earlier
        names = time_slots(engine.registry, frame.intent, frame.params)
        params = moved_earlier(frame.params, names, float(ahead)) if names else None
    elif action.follow_up is not None:
        changed = fragment.follow_up(action, frame.params)
        params = dict(changed) if changed else None
    else:
        edit = bool(match.params.get("correction")) or not (action.read_only or action.repeatable)
        extra = fragment.edited(action) if edit else fragment.slots(action)
        for slot in action.slots:  # "不要羊肉" after a plan adds to what was ruled out before
            before = frame.params.get(slot.name)
            if slot.parser is SlotType.TEXT_LIST and isinstance(before, list) and isinstance(extra.get(slot.name), list):
                extra[slot.name] = [*before, *(x for x in extra[slot.name] if x not in before)]
        params = {**frame.params, **extra} if extra else None
    if params is None:
        unknown(engine, turn, match)
        return
    turn.trace.intent, turn.trace.skill, turn.trace.action = action.intent, spec.name, action.name
    if not (action.read_only or action.repeatable):
        if action.amend is None or not match.params.get("correction"):
            unknown(engine, turn, match)
            return
        amended = {**params, "replaces": frame.ref, "previous": frame.params}
        if action.writes:  # a write's correction is a write too: yes/no first
            engine.dialogue.ask_amend(turn, spec.name, action, amended)
            return
        engine.dialogue.run(turn, spec.name, action, amended, turn.inbound.msg_id, amend=True)
        repeat_pending(turn)
        return
    if action.read_only:
        engine.dialogue.run(turn, spec.name, action, with_defaults(action, params), turn.inbound.msg_id)
        repeat_pending(turn)
        return
    if ctx.active is not None or ctx.pending_confirmation is not None:
        engine.dialogue.pause_active(turn)
        ctx.topic_version += 1
    session = SkillSession(skill=spec.name, action=action.name, intent=action.intent, params=params,
                           asked_optional=[s.name for s in action.slots], topic_version=ctx.topic_version,
                           started_at=turn.now)
    engine.dialogue.advance(turn, session, action)


def refer(engine: Carrier, turn: Turn, match: Match) -> None:
    """Run the intent a follow-up of the focus worked out ("第二道怎么做" → that recipe; "便宜点" → the
    plan again with a lower budget), with params the skill's own declarations built from the focus."""
    ctx = turn.ctx
    found = engine.registry.for_intent(match.intent)
    if found is None:
        unknown(engine, turn, match)
        return
    spec, action = found
    params = dict(match.params.get("params") or {})
    if not action.read_only:  # what else the message says for it ("第二个改到后天": the new time)
        for name, value in (match.frame or turn.frame).slots(action).items():
            params.setdefault(name, value)
    turn.trace.skill, turn.trace.action = spec.name, action.name
    if ctx.active is not None or ctx.pending_confirmation is not None:
        if action.read_only:  # answered in passing: the waiting question stands
            engine.dialogue.run(turn, spec.name, action, with_defaults(action, params), turn.inbound.msg_id)
            repeat_pending(turn)
            return
        engine.dialogue.pause_active(turn)
        ctx.topic_version += 1
    session = SkillSession(skill=spec.name, action=action.name, intent=action.intent, params=params,
                           asked_optional=[s.name for s in action.slots if not s.required],
                           topic_version=ctx.topic_version, started_at=turn.now)
    engine.dialogue.advance(turn, session, action)
