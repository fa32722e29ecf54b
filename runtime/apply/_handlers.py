"""Apply a cascade decision to the turn: the interruption rules of DESIGN §3.4 live here."""

from __future__ import annotations

from runtime import texts
from runtime.apply._common import Carrier, rebind, repeat_pending
from runtime.apply._crisis import crisis
from runtime.apply._fallback import unknown
from runtime.apply._focus import follow_up, refer
from runtime.apply.slots import amended, completes
from runtime.context import Clarification, ClarifyOption
from runtime.resolve._match import Kind, Match
from runtime.resolve.turn import Turn
from runtime.skill import UNKNOWN
from runtime.summary import describe_params
from runtime.turn import Stage
from runtime.understand import Frame


def apply_match(engine: Carrier, turn: Turn, match: Match) -> None:
    """Carry out ``match``: reply, change the context, run skills."""
    handler = _HANDLERS.get(match.kind, unknown)
    handler(engine, turn, match)


def _welcome(engine: Carrier, turn: Turn, match: Match) -> None:
    turn.data["subscribed"] = True
    turn.say(texts.welcome(engine.registry))


def _goodbye(engine: Carrier, turn: Turn, match: Match) -> None:
    if (turn.view.event or "").lower() == "unsubscribe":
        turn.data["unsubscribed"] = True


def _unsupported(engine: Carrier, turn: Turn, match: Match) -> None:
    turn.say(texts.VOICE_UNREADABLE if match.detail == "voice" else texts.UNSUPPORTED)
    repeat_pending(turn)


def _help(engine: Carrier, turn: Turn, match: Match) -> None:
    talk = engine.registry.fallback()  # what-can-you-do is small talk about the bot itself
    turn.trace.intent = talk[1].intent if talk is not None else turn.trace.intent
    turn.say(texts.help_text(engine.registry))
    repeat_pending(turn)


def _cancel(engine: Carrier, turn: Turn, match: Match) -> None:
    ctx = turn.ctx
    if ctx.pending_confirmation is not None:
        ctx.pending_confirmation = None
        turn.say(texts.CANCELLED_CONFIRMATION)
        if match.params.get("then") is not None:
            _then(engine, turn, match)
            return
    elif ctx.active is not None:
        turn.say(texts.CANCELLED_TASK.format(task=engine.registry.task_name(ctx.active.intent)))
        ctx.active = None
    elif ctx.clarification is not None:
        ctx.clarification = None
        turn.say("好的，那先不管它。")
    elif ctx.paused:
        dropped = ctx.paused.pop()
        turn.say(texts.DROPPED_PAUSED.format(task=engine.registry.task_name(dropped.session.intent)))
        return
    else:
        turn.say(texts.NOTHING_TO_CANCEL)
        return
    engine.dialogue.offer_resume(turn)


def _continue(engine: Carrier, turn: Turn, match: Match) -> None:
    ctx = turn.ctx
    if ctx.active is None and engine.dialogue.resume(turn):
        return
    if ctx.active is not None:
        turn.trace.intent, turn.trace.skill = ctx.active.intent, ctx.active.skill
    if ctx.active is not None and ctx.active.expected_input is not None:
        turn.say(ctx.active.expected_input.question)
    elif ctx.pending_confirmation is not None:
        turn.say(ctx.pending_confirmation.questions + texts.CONFIRM_SUFFIX)
    else:
        turn.say(texts.NOTHING_TO_CONTINUE)


def _confirm(engine: Carrier, turn: Turn, match: Match) -> None:
    pending = turn.ctx.pending_confirmation
    if pending is None:
        turn.say(texts.NOTHING_TO_CONFIRM)
        repeat_pending(turn)
        return
    turn.trace.intent = pending.intent
    engine.dialogue.confirm(turn)
    _then(engine, turn, match)
    repeat_pending(turn)


def _then(engine: Carrier, turn: Turn, match: Match) -> None:
    """What a yes or a no went on to ask ("对，另外周四是什么节"): carried out after it, as a part of the message."""
    then = match.params.get("then")
    if isinstance(then, Frame):
        said = (turn.trace.intent, turn.trace.skill, turn.trace.action)
        engine.run_part(turn, then, 1)
        turn.trace.intent, turn.trace.skill, turn.trace.action = said  # the turn answered the yes/no


def _reset(engine: Carrier, turn: Turn, match: Match) -> None:
    ctx = turn.ctx
    ctx.active, ctx.pending_confirmation, ctx.clarification = None, None, None
    ctx.paused.clear()
    ctx.recent.clear()
    ctx.topic_version += 1
    turn.say(texts.RESET_DONE)


def _answer(engine: Carrier, turn: Turn, match: Match) -> None:
    if match.also and match.also_frame is not None:
        engine.dialogue.run_read_only(turn, match.also, match.also_frame)
    session, value = turn.ctx.active, match.params.get("value")
    said = describe_params({session.expected_input.field: value}) \
        if turn.view.clarifying and session is not None and session.expected_input is not None else ""
    if said:  # a numbered list also stood: say which question the answer went to
        turn.say(texts.NOTED.format(what=said))
    field = session.expected_input.field if session is not None and session.expected_input is not None else None
    before = len(turn.replies)
    engine.dialogue.answer(turn, value, turn.frame)
    now = turn.ctx.active
    if field and not said and now is not None and now.expected_input is not None and now.expected_input.field != field:
        what = describe_params({field: now.params.get(field, value)})  # "5个人" → 好的，5人，记下了。预算…？
        asked = "".join(turn.replies[before:])
        numbers = "".join(ch if ch.isdigit() else " " for ch in what).split()
        if what and not (numbers and all(n in asked for n in numbers)):  # unless the next question says it
            turn.replies.insert(before, texts.NOTED.format(what=what))


def _fill(engine: Carrier, turn: Turn, match: Match) -> None:
    """Slots named by their own words: a correction, others out of order, several at once."""
    ctx = turn.ctx
    slots = dict(match.params.get("slots") or {})
    said = describe_params(slots)
    session = ctx.active
    if session is None:
        pending = ctx.pending_confirmation
        action = engine.registry.action(pending.skill, pending.action) if pending else None
        if pending is None or action is None:
            unknown(engine, turn, match)
            return
        readings = [describe_params({k: v}) for k, v in dict(match.params.get("readings") or {}).items()]
        if not slots and readings:  # "哦不对，171" with 身高 and 体重 both far from it: ask, change nothing
            turn.trace.skill, turn.trace.action, turn.trace.intent = pending.skill, pending.action, pending.intent
            rebind(turn)
            turn.say(texts.WHICH_NUMBER.format(options="，还是".join(readings), example=readings[0]) + pending.question
                     + texts.CONFIRM_SUFFIX)
            return
        pending.params = amended(pending.params, slots)
        said = describe_params({k: pending.params[k] for k in slots if k in pending.params})  # as merged: the day kept
        pending.question = engine.dialogue.confirm_question(turn, pending.intent, action, pending.params,
                                                            by_model=texts.MODEL_READ in pending.question)
        turn.trace.skill, turn.trace.action, turn.trace.intent = pending.skill, pending.action, pending.intent
        rebind(turn)
        lead = texts.CORRECTED.format(what=said) if said else "好的，改了。"
        turn.say(lead + pending.question + texts.CONFIRM_SUFFIX)
        return
    action = engine.registry.action(session.skill, session.action)
    if action is None:
        unknown(engine, turn, match)
        return
    corrected = bool(match.params.get("correction")) or any(
        name in session.params and not completes(session.params[name], value) for name, value in slots.items())
    session.params = amended(session.params, slots)
    said = describe_params({name: session.params[name] for name in slots  # a modifier's own setting is no slot
                            if name in session.params and action.slot(name) is not None})
    expected = session.expected_input
    value = match.params.get("value")
    if expected is not None and value is not None:
        session.params[expected.field] = value
        if expected.field not in session.asked_optional:
            session.asked_optional.append(expected.field)
    elif expected is not None and expected.field in session.asked_optional:
        session.asked_optional.remove(expected.field)  # still unanswered: ask it again
    session.expected_input = None
    turn.trace.skill, turn.trace.action = session.skill, session.action
    before = len(turn.replies)
    engine.dialogue.advance(turn, session, action)
    asking = ctx.active is not None and ctx.active.expected_input is not None
    if corrected or asking:  # a plain "noted" before a confirmation or a result would say nothing
        lead = (texts.CORRECTED if corrected else texts.NOTED).format(what=said) if said else texts.NOTED_PLAIN
        turn.replies.insert(before, lead)


def _invalid(engine: Carrier, turn: Turn, match: Match) -> None:
    session = turn.ctx.active
    if session is None or session.expected_input is None:
        unknown(engine, turn, match)
        return
    expected = session.expected_input
    action = engine.registry.action(session.skill, session.action)
    slot = action.slot(expected.field) if action else None
    if match.params.get("advice"):  # "你推荐多少预算合适": the slot's advice, the question again
        turn.say(texts.ADVICE.format(hint=slot.hint if slot and slot.hint else texts.NO_ADVICE,
                                     question=expected.question))
        return
    expected.attempts += 1
    hint = (slot.hint + "，") if slot and slot.hint else ""
    if expected.attempts <= 2:
        turn.say(texts.INVALID_HINT.format(hint=hint, question=expected.question))
    else:
        turn.say(texts.INVALID_GIVE_UP.format(task=engine.registry.task_name(session.intent), question=expected.question))


def _choice(engine: Carrier, turn: Turn, match: Match) -> None:
    clar = turn.ctx.clarification
    turn.ctx.clarification = None
    index = int(match.params.get("choice", 0)) - 1
    if clar is None or not 0 <= index < len(clar.options):
        unknown(engine, turn, match)
        return
    option = clar.options[index]
    turn.trace.intent = option.intent
    talk = engine.registry.fallback()
    not_a_task = {UNKNOWN, *((talk[1].intent,) if talk else ())}
    if option.intent not in not_a_task and (turn.ctx.active is not None
                                                          or turn.ctx.pending_confirmation is not None):
        engine.dialogue.pause_active(turn)  # the waiting task is kept and offered again afterwards
        turn.ctx.topic_version += 1
    params = {**option.params, **dict(match.params.get("slots") or {})}  # a value said as the answer, kept
    if option.intent in not_a_task or not engine.dialogue.start(turn, option.intent, engine.parser.again(clar.text, turn.now),
                                                                 params):
        turn.say("好的。" + texts.help_text(engine.registry))


def _clarify(engine: Carrier, turn: Turn, match: Match) -> None:
    picks = list(match.params.get("picks") or ())
    if picks:  # which of the things shown ("把那个取消了" after two reminders)
        options = [ClarifyOption(label=str(p["label"]), intent=str(p["intent"]), params=dict(p["params"])) for p in picks]
        head = texts.WHICH_ONE.format(task=engine.registry.task_name(match.intent))
    else:
        options = [ClarifyOption(label=engine.registry.task_name(intent), intent=intent) for intent, _ in match.options]
        head = texts.CLARIFY_HEAD
    options.append(ClarifyOption(label="都不是", intent="unknown"))
    lines = [f"{i}. {o.label}" for i, o in enumerate(options, 1)]
    question = "\n".join([head, *lines, texts.CLARIFY_TAIL])
    turn.ctx.clarification = Clarification(text=turn.frame.keep(), question=question, options=options,
                                           asked_at=turn.now)
    turn.say(question)


def _intent(engine: Carrier, turn: Turn, match: Match) -> None:
    ctx, dialogue, intent, frame = turn.ctx, engine.dialogue, match.intent, turn.frame
    if match.also and match.also_frame is not None and dialogue.run_read_only(turn, match.also, match.also_frame):
        # "周五晚上8点提醒我开会，周五是几号啊": the question answered, the task started from the rest
        frame = match.frame or frame
    active = ctx.active
    action = engine.registry.action(active.skill, active.action) if active is not None else None
    if active is not None and active.intent == intent and action is not None \
            and not frame.another_thing(action, active.params,
                                        asked=active.expected_input.field if active.expected_input else None):
        params = dict(match.params)
        if action is not None:
            active.params.update({**frame.slots(action), **params})
            active.expected_input = None
            dialogue.advance(turn, active, action)
            return
    if active is not None or ctx.pending_confirmation is not None:
        if intent in engine.read_only and dialogue.run_read_only(turn, intent, frame):
            repeat_pending(turn)
            return
        dialogue.pause_active(turn)
        ctx.topic_version += 1
    # a model chose it: nothing but a read runs without a yes; the local model's guess is asked about before
    # anything is kept ("想练出腹肌，每天能抽出二十分钟" read as a daily reminder is never set unasked)
    found = engine.registry.for_intent(intent)
    by_model = match.stage is Stage.LLM_ROUTER or (
        match.stage is Stage.INTENT_MODEL and found is not None and found[1].keeps)
    if not engine.dialogue.start(turn, intent, frame, dict(match.params), by_model=by_model):
        unknown(engine, turn, match)


def _compound(engine: Carrier, turn: Turn, match: Match) -> None:
    """Several requests in one message: each in turn; once one asks something, the rest wait for it."""
    parts = list(match.params.get("parts") or ())
    together = list(match.params.get("together") or ())
    reads = list(match.params.get("reads") or ())
    intents = list(match.params.get("intents") or ())
    for n, part in enumerate(parts):
        said = intents[n] if n < len(intents) else None  # decided once, with the message: what each part asks
        ctx = turn.ctx
        held = ctx.pending_confirmation
        if n and held is not None and ctx.active is None and ctx.clarification is None \
                and n < len(together) and together[n] and together[n - 1]:
            # complete writes side by side: each asked now, one yes for all ("今天称了65公斤 还跑了半小时步")
            ctx.pending_confirmation = None
            engine.run_part(turn, part, n, intent=said)
            if ctx.pending_confirmation is not None and ctx.active is None and ctx.clarification is None:
                held.also.append(ctx.pending_confirmation)
            ctx.pending_confirmation = held
            continue
        if n and (ctx.active is not None or held is not None or ctx.clarification is not None):
            if n < len(reads) and reads[n] and ctx.clarification is None:
                engine.run_part(turn, part, n, intent=said)  # a question beside a waiting task: answered now
                continue
            ctx.queued = [p.keep() for p in parts[n:]] + ctx.queued
            turn.say(texts.queued([p.keep() for p in parts[n:]]))  # none is dropped, and the user sees so
            break
        engine.run_part(turn, part, n, intent=said)
    pending = turn.ctx.pending_confirmation
    if pending is not None and pending.also:
        turn.say(texts.CONFIRM_ALL.format(n=texts.count_word(1 + len(pending.also))))


_HANDLERS = {
    Kind.WELCOME: _welcome, Kind.GOODBYE: _goodbye, Kind.UNSUPPORTED: _unsupported, Kind.HELP: _help,
    Kind.CANCEL: _cancel, Kind.CONTINUE: _continue, Kind.CONFIRM: _confirm, Kind.RESET: _reset,
    Kind.ANSWER: _answer, Kind.FILL: _fill, Kind.FOLLOW_UP: follow_up, Kind.REFER: refer, Kind.INVALID: _invalid,
    Kind.CHOICE: _choice, Kind.CLARIFY: _clarify, Kind.INTENT: _intent, Kind.UNKNOWN: unknown, Kind.CHITCHAT: unknown,
    Kind.COMPOUND: _compound, Kind.CRISIS: crisis,
}
