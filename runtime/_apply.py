"""Apply a cascade decision to the turn: the interruption rules of DESIGN §3.4 live here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from runtime import texts
from runtime._slots import extract_all
from runtime._turnstate import TurnState
from runtime.cascade._match import Kind, Match
from runtime.context import Clarification, ClarifyOption
from runtime.turn import Stage
from runtime.views import ModelSummary, RouterView, make_exec_view

if TYPE_CHECKING:
    from runtime.engine import Engine


def apply_match(engine: Engine, turn: TurnState, match: Match, view: RouterView, summary: ModelSummary) -> None:
    """Carry out ``match``: reply, change the context, run skills."""
    handler = _HANDLERS.get(match.kind, _unknown)
    handler(engine, turn, match, view, summary)


def _welcome(engine: Engine, turn: TurnState, match: Match, view: RouterView, summary: ModelSummary) -> None:
    turn.data["subscribed"] = True
    turn.say(texts.WELCOME)


def _goodbye(engine: Engine, turn: TurnState, match: Match, view: RouterView, summary: ModelSummary) -> None:
    if (view.event or "").lower() == "unsubscribe":
        turn.data["unsubscribed"] = True


def _unsupported(engine: Engine, turn: TurnState, match: Match, view: RouterView, summary: ModelSummary) -> None:
    turn.say(texts.VOICE_UNREADABLE if match.detail == "voice" else texts.UNSUPPORTED)
    _repeat_pending(turn)


def _help(engine: Engine, turn: TurnState, match: Match, view: RouterView, summary: ModelSummary) -> None:
    turn.say(texts.HELP)
    _repeat_pending(turn)


def _cancel(engine: Engine, turn: TurnState, match: Match, view: RouterView, summary: ModelSummary) -> None:
    ctx = turn.ctx
    if ctx.pending_confirmation is not None:
        ctx.pending_confirmation = None
        turn.say(texts.CANCELLED_CONFIRMATION)
    elif ctx.active is not None:
        turn.say(texts.CANCELLED_TASK.format(task=texts.task_name(ctx.active.intent)))
        ctx.active = None
    elif ctx.clarification is not None:
        ctx.clarification = None
        turn.say("好的，那先不管它。")
    else:
        turn.say(texts.NOTHING_TO_CANCEL)
        return
    engine.dialogue.offer_resume(turn)


def _continue(engine: Engine, turn: TurnState, match: Match, view: RouterView, summary: ModelSummary) -> None:
    ctx = turn.ctx
    if engine.dialogue.resume(turn):
        return
    if ctx.active is not None and ctx.active.expected_input is not None:
        turn.say(ctx.active.expected_input.question)
    elif ctx.pending_confirmation is not None:
        turn.say(ctx.pending_confirmation.question + texts.CONFIRM_SUFFIX)
    else:
        turn.say(texts.NOTHING_TO_CONTINUE)


def _confirm(engine: Engine, turn: TurnState, match: Match, view: RouterView, summary: ModelSummary) -> None:
    pending = turn.ctx.pending_confirmation
    if pending is not None:
        turn.trace.intent = pending.intent
    engine.dialogue.confirm(turn)
    _repeat_pending(turn)


def _reset(engine: Engine, turn: TurnState, match: Match, view: RouterView, summary: ModelSummary) -> None:
    ctx = turn.ctx
    ctx.active, ctx.pending_confirmation, ctx.clarification = None, None, None
    ctx.paused.clear()
    ctx.recent.clear()
    ctx.topic_version += 1
    turn.say(texts.RESET_DONE)


def _answer(engine: Engine, turn: TurnState, match: Match, view: RouterView, summary: ModelSummary) -> None:
    if match.also:
        engine.dialogue.run_read_only(turn, match.also, match.also_text)
    engine.dialogue.answer(turn, match.params.get("value"), text=view.text)


def _invalid(engine: Engine, turn: TurnState, match: Match, view: RouterView, summary: ModelSummary) -> None:
    session = turn.ctx.active
    if session is None or session.expected_input is None:
        _unknown(engine, turn, match, view, summary)
        return
    expected = session.expected_input
    expected.attempts += 1
    action = engine.registry.action(session.skill, session.action)
    slot = action.slot(expected.field) if action else None
    hint = (slot.hint + "，") if slot and slot.hint else ""
    if expected.attempts <= 2:
        turn.say(texts.INVALID_HINT.format(hint=hint, question=expected.question))
    else:
        turn.say(texts.INVALID_GIVE_UP.format(task=texts.task_name(session.intent), question=expected.question))


def _choice(engine: Engine, turn: TurnState, match: Match, view: RouterView, summary: ModelSummary) -> None:
    clar = turn.ctx.clarification
    turn.ctx.clarification = None
    index = int(match.params.get("choice", 0)) - 1
    if clar is None or not 0 <= index < len(clar.options):
        _unknown(engine, turn, match, view, summary)
        return
    option = clar.options[index]
    turn.trace.intent = option.intent
    if option.intent in ("unknown", "chitchat") or not _start(engine, turn, option.intent, clar.text, option.params):
        turn.say("好的。" + texts.HELP)


def _clarify(engine: Engine, turn: TurnState, match: Match, view: RouterView, summary: ModelSummary) -> None:
    options = [ClarifyOption(label=texts.task_name(intent), intent=intent) for intent, _ in match.options]
    options.append(ClarifyOption(label="都不是", intent="unknown"))
    lines = [f"{i}. {o.label}" for i, o in enumerate(options, 1)]
    question = "\n".join([texts.CLARIFY_HEAD, *lines, texts.CLARIFY_TAIL])
    turn.ctx.clarification = Clarification(text=view.text, question=question, options=options, asked_at=turn.now)
    turn.say(question)


def _intent(engine: Engine, turn: TurnState, match: Match, view: RouterView, summary: ModelSummary) -> None:
    ctx, dialogue, intent = turn.ctx, engine.dialogue, match.intent
    active = ctx.active
    if active is not None and active.intent == intent:
        params = dict(match.params)
        action = engine.registry.action(active.skill, active.action)
        if action is not None:
            active.params.update({**extract_all(action, view.text, turn.now), **params})
            active.expected_input = None
            dialogue.advance(turn, active, action)
            return
    if active is not None or ctx.pending_confirmation is not None:
        if intent in engine.read_only and dialogue.run_read_only(turn, intent, view.text):
            _repeat_pending(turn)
            return
        dialogue.pause_active(turn)
        ctx.topic_version += 1
    if not _start(engine, turn, intent, view.text, dict(match.params)):
        _unknown(engine, turn, match, view, summary)


def _start(engine: Engine, turn: TurnState, intent: str, text: str, params: Mapping[str, Any]) -> bool:
    return engine.dialogue.start(turn, intent, text, dict(params))


def _unknown(engine: Engine, turn: TurnState, match: Match, view: RouterView, summary: ModelSummary) -> None:
    from runtime.cascade.fallback import FallbackStage, tools_for_turn

    chitchat = match.kind == Kind.CHITCHAT or match.intent == "chitchat"
    if turn.llm is None or not (turn.llm.is_configured("chat") or turn.llm.is_configured("tool_agent")):
        turn.say(texts.CHITCHAT if chitchat else texts.UNKNOWN)
        _repeat_pending(turn)
        return
    turn.trace.stage = Stage.FALLBACK
    tools = tools_for_turn(engine.registry.skills, _runner(engine, turn), engine.read_only, lambda: turn.now)
    outcome = FallbackStage(turn.llm).handle(view, summary, tools, hints=("chitchat",) if chitchat else ())
    turn.trace.detail = f"fallback {outcome.bundle.value}: {outcome.stopped.value}"
    turn.trace.errors.extend(outcome.errors)
    if outcome.pending is not None and outcome.pending.intent in engine.writes:
        turn.trace.intent = outcome.pending.intent
        engine.dialogue.pause_active(turn)
        if _start(engine, turn, outcome.pending.intent, view.text, dict(outcome.pending.params)):
            return
    turn.say(outcome.reply or (texts.CHITCHAT if chitchat else texts.UNKNOWN))
    _repeat_pending(turn)


def _runner(engine: Engine, turn: TurnState) -> Any:
    def run_action(action: Any, params: Mapping[str, Any]) -> Any:
        view = make_exec_view(user=turn.inbound.user, msg_id=turn.inbound.msg_id, now=turn.now, tz=turn.tz,
                              params=params)
        return action.run(view, view.params, engine.dialogue.services)

    return run_action


def _repeat_pending(turn: TurnState) -> None:
    ctx = turn.ctx
    if ctx.active is not None and ctx.active.expected_input is not None:
        turn.say(texts.REPEAT_PENDING.format(question=ctx.active.expected_input.question))
    elif ctx.pending_confirmation is not None:
        turn.say(texts.REPEAT_PENDING.format(question=ctx.pending_confirmation.question))


_HANDLERS = {
    Kind.WELCOME: _welcome, Kind.GOODBYE: _goodbye, Kind.UNSUPPORTED: _unsupported, Kind.HELP: _help,
    Kind.CANCEL: _cancel, Kind.CONTINUE: _continue, Kind.CONFIRM: _confirm, Kind.RESET: _reset,
    Kind.ANSWER: _answer, Kind.INVALID: _invalid, Kind.CHOICE: _choice, Kind.CLARIFY: _clarify,
    Kind.INTENT: _intent, Kind.UNKNOWN: _unknown, Kind.CHITCHAT: _unknown,
}
