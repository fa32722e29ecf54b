"""Carrying out small talk and the fallback: the small-talk skill when it recognises the message, the
agent when a model is configured, else an honest "not yet" (the feature list offered once)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from runtime import texts
from runtime.apply._common import Carrier, repeat_pending
from runtime.resolve import Kind, Match
from runtime.resolve.fallback import bundle_of, tools_for_turn
from runtime.resolve.turn import Turn
from runtime.skill import UNKNOWN
from runtime.turn import Stage
from runtime.views import make_exec_view

__all__ = ["unknown"]


def unknown(engine: Carrier, turn: Turn, match: Match) -> None:
    """Small talk in kind, the agent, or "not yet" — never a stack trace, never silence."""
    talk = engine.registry.fallback()
    chat = match.kind is Kind.CHITCHAT
    frame = turn.frame
    recognised = bool(talk and frame.slots(talk[1]))
    model = turn.llm is not None and (turn.llm.is_configured("chat") or turn.llm.is_configured("tool_agent"))
    if talk is not None and (recognised or (chat and not model)):  # small talk the skill covers: no model
        spec, action = talk
        turn.trace.skill, turn.trace.action = spec.name, action.name
        said = engine.dialogue.run(turn, spec.name, action, frame.slots(action), turn.inbound.msg_id)
        # a request it cannot do stays "unknown", told so in kind
        turn.trace.intent = action.intent if said is not None and said.ok else UNKNOWN
        repeat_pending(turn)
        return
    if not model:
        turn.say(_offline_reply(engine, turn))
        repeat_pending(turn)
        return
    turn.trace.stage = Stage.FALLBACK
    # what the turn says without a model: given on any model failure, and when the model's text is refused
    offline = _talked(engine, turn, talk[1]) if chat and talk is not None else _offline_text(engine, turn)
    tools = tools_for_turn(engine.registry.skills, _runner(engine, turn), engine.read_only, lambda: turn.now)
    choice = bundle_of([o for o in engine.registry.objects if frame.hints(o)])
    outcome = engine.resolver.fallback.handle(turn.view, turn.summary, tools, llm=turn.llm, choice=choice,
                                             offline=offline)
    turn.trace.detail = f"fallback {outcome.bundle.value}: {outcome.stopped.value}"
    turn.trace.errors.extend(outcome.errors)
    if outcome.pending is not None and outcome.pending.intent in engine.writes:
        turn.trace.intent = outcome.pending.intent
        engine.dialogue.pause_active(turn)
        if engine.dialogue.start(turn, outcome.pending.intent, frame, dict(outcome.pending.params), by_model=True):
            return
    reply = outcome.reply or offline
    if reply == offline and not chat:
        reply = _offline_reply(engine, turn)  # the feature list offered once, as without a model
    turn.say(reply)
    repeat_pending(turn)


def _talked(engine: Carrier, turn: Turn, action: Any) -> str:
    """The small-talk skill's own reply to the message (no state changes)."""
    view = make_exec_view(user=turn.inbound.user, msg_id=turn.inbound.msg_id, now=turn.now, tz=turn.tz,
                          params=turn.frame.slots(action))
    return str(action.run(view, view.params, engine.dialogue.services).reply)


def _offline_text(engine: Carrier, turn: Turn) -> str:
    """What :func:`_offline_reply` would say, without noting that the feature list was offered."""
    if turn.frame.foreign:
        return texts.ONLY_CHINESE
    return texts.UNKNOWN_SHORT if turn.ctx.summary.help_offered else texts.unknown(engine.registry)


def _offline_reply(engine: Carrier, turn: Turn) -> str:
    """A message nothing explained: the feature list offered once, not on every miss."""
    if turn.frame.foreign:
        return texts.ONLY_CHINESE  # "remind me to call mom tomorrow"
    summary = turn.ctx.summary
    if not summary.help_offered:
        summary.help_offered = True
        return texts.unknown(engine.registry)
    return texts.UNKNOWN_SHORT


def _runner(engine: Carrier, turn: Turn) -> Any:
    def run_action(action: Any, params: Mapping[str, Any]) -> Any:
        view = make_exec_view(user=turn.inbound.user, msg_id=turn.inbound.msg_id, now=turn.now, tz=turn.tz,
                              params=params)
        return action.run(view, view.params, engine.dialogue.services)

    return run_action
