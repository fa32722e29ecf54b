"""Carry out a crisis (DESIGN §3.4 "Crisis first"): what to do now, before anything else; the waiting
task paused, not lost; a pending yes/no left for an explicit answer; a request said beside the crisis
carried out after the reply."""

from __future__ import annotations

import logging

from runtime import texts
from runtime.apply._common import Carrier
from runtime.context import Focus
from runtime.resolve._match import Match
from runtime.resolve.turn import Turn
from runtime.understand import Frame
from runtime.views import make_exec_view

__all__ = ["crisis"]

log = logging.getLogger(__name__)


def crisis(engine: Carrier, turn: Turn, match: Match) -> None:
    """The crisis answer first, then the request said with it (``rest``), if any."""
    ctx, params = turn.ctx, match.params
    kind, sub = str(params.get("kind") or ""), str(params.get("sub") or "")
    turn.data["crisis"] = {"kind": kind, "sub": sub}
    turn.say(_answer(engine, turn, match))
    turn.ctx.show(Focus(skill="safety", action="crisis", intent=match.intent, params={"kind": kind, "sub": sub},
                        at=turn.now, topic_version=turn.ctx.topic_version))  # what follows it is read against it
    turn.out.focus = turn.ctx.focus
    if ctx.active is not None:
        engine.dialogue.pause_active(turn)  # kept: "继续" brings it back
    rest = params.get("rest")
    if not isinstance(rest, Frame):
        return
    if ctx.pending_confirmation is not None:
        ctx.queued.insert(0, rest.keep())  # carried out once the waiting yes/no is answered, never by this message
        return
    trace = turn.trace
    said = (trace.intent, trace.skill, trace.action)
    paused = list(ctx.paused)
    ctx.paused.clear()  # the request's own reply offers no resuming in a crisis turn
    try:
        engine.run_part(turn, rest, 1)
    finally:
        ctx.paused[:0] = paused
        trace.intent, trace.skill, trace.action = said  # the turn stays a crisis turn for admins


def _answer(engine: Carrier, turn: Turn, match: Match) -> str:
    """The crisis skill's reply for the kind read (the fail-safe line if it cannot give one)."""
    found = engine.registry.for_intent(match.intent)
    if found is None:
        return texts.CRISIS_FAILSAFE
    spec, action = found
    turn.trace.skill, turn.trace.action = spec.name, action.name
    params = {k: match.params.get(k) for k in ("kind", "sub", "also", "again")}
    view = make_exec_view(user=turn.inbound.user, msg_id=turn.inbound.msg_id, now=turn.now, tz=turn.tz, params=params)
    try:
        return action.run(view, view.params, engine.dialogue.services).reply
    except Exception as exc:  # the answer must reach the user whatever failed
        log.exception("crisis answer failed")
        turn.trace.errors.append(f"skill {spec.name}.{action.name}: {type(exc).__name__}: {exc}"[:300])
        return texts.CRISIS_FAILSAFE
