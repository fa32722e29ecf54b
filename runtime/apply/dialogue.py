"""Slot filling, confirmation, pausing and resuming — the same for every skill (DESIGN §3.6)."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from runtime import texts
from runtime._spoken import complete_question, spoken_values, waiting_clause
from runtime.apply.slots import plain, to_confirm, with_defaults
from runtime.context import (
    Clarification,
    ClarifyOption,
    ExpectedInput,
    Focus,
    FocusEntity,
    PausedTask,
    PendingConfirmation,
    SkillSession,
)
from runtime.resolve.turn import Turn
from runtime.skill import ActionSpec, SkillRegistry, SkillResult, SlotSpec, missing_slots
from runtime.summary import apply_facts, default_for
from runtime.understand import USE_DEFAULT, Frame, leaning, typed_params
from runtime.views import make_exec_view

SAME_QUERY_TTL = timedelta(minutes=30)  # a query asked again this soon keeps the place it was about

log = logging.getLogger(__name__)

CONFIRM_TTL = timedelta(minutes=10)
MAX_OFFERS = 2  # a paused task is offered again at most this often


class Dialogue:
    """Runs skill actions for the engine: asks for what is missing, confirms writes, runs the rest."""

    def __init__(self, registry: SkillRegistry, services: Any, *, confirm_ttl: timedelta = CONFIRM_TTL) -> None:
        self.registry = registry
        self.services = services
        self.confirm_ttl = confirm_ttl

    # -- starting and continuing -------------------------------------------------------------
    def start(self, turn: Turn, intent: str, frame: Frame, params: dict[str, Any] | None = None, *,
              by_model: bool = False) -> bool:
        """Start ``intent`` from the message ``frame``; False when no skill serves it. ``by_model``: the intent
        or some params came from a model, so anything but a read is confirmed with the user first (DESIGN §5)."""
        found = self.registry.for_intent(intent)
        if found is None:
            return False
        spec, action = found
        params = self._grounded(turn, action, frame, params or {}) if by_model else params or {}
        shown = turn.out.focus
        if shown is not None:  # "那天" said of the one day just shown: that day
            frame = frame.resolved(shown.entities, self.registry)
        collected = frame.slots(action)
        collected.update(typed_params(action, params, turn.now))
        remembered = turn.ctx.summary.constraints
        for slot in action.slots:  # an optional count the conversation already settled (a plan's people)
            if not slot.required and slot.parser == "count" and slot.name not in collected \
                    and isinstance(remembered.get(slot.name), int | float):
                collected[slot.name] = remembered[slot.name]
        shown = turn.ctx.focus
        if shown is not None and shown.intent == intent and turn.now - shown.at <= SAME_QUERY_TTL:
            for slot in action.slots:  # "要穿羽绒服吗" right after 北京's weather: still 北京
                if slot.standalone and not slot.required and slot.name not in collected \
                        and isinstance(shown.params.get(slot.name), str):
                    collected[slot.name] = shown.params[slot.name]
        paused = next((p for p in reversed(turn.ctx.paused) if p.session.intent == intent), None)
        if paused is not None:  # the same task again: carry on with the paused one, the new words win
            turn.ctx.paused.remove(paused)
            collected = {**paused.session.params, **collected}
        session = SkillSession(skill=spec.name, action=action.name, intent=intent, params=collected,
                               asked_optional=list(paused.session.asked_optional) if paused else [],
                               topic_version=turn.ctx.topic_version, started_at=turn.now, by_model=by_model)
        turn.trace.skill, turn.trace.action = spec.name, action.name
        self.advance(turn, session, action)
        return True

    @staticmethod
    def _grounded(turn: Turn, action: ActionSpec, frame: Frame, params: dict[str, Any]) -> dict[str, Any]:
        """A model's values for anything but a read, kept only where the user said them (in the message or
        in what was last shown); a value nobody said is dropped, so its slot is asked for, never confirmed."""
        if action.read_only or not params:
            return params
        kept, dropped = frame.grounded(params, turn.out.focus)
        if dropped:
            turn.trace.detail += f"; model values not said, asked instead: {', '.join(sorted(dropped))}"
        return kept

    def answer(self, turn: Turn, value: Any, frame: Frame) -> None:
        """Store the answer to the expected field (and any other slot the message says) and move on."""
        session = turn.ctx.active
        assert session is not None and session.expected_input is not None
        field = session.expected_input.field
        if value is USE_DEFAULT:
            remembered = default_for(turn.ctx.summary, field)
            value = remembered[0] if remembered else None
        session.params[field] = value
        if field not in session.asked_optional:
            session.asked_optional.append(field)
        session.expected_input = None
        action = self.registry.action(session.skill, session.action)
        if action is None:
            turn.ctx.active = None
            return
        for name, extra in frame.slots(action).items():
            session.params.setdefault(name, extra)
        turn.trace.skill, turn.trace.action = session.skill, session.action
        self.advance(turn, session, action)

    def advance(self, turn: Turn, session: SkillSession, action: ActionSpec) -> None:
        """Ask the next missing field, or ask for confirmation, or run the action."""
        for slot in action.slots:
            if slot.check is not None and session.params.get(slot.name) is not None:
                question = slot.check(session.params[slot.name])
                if question:  # a value the skill cannot act on safely: ask rather than guess
                    value = session.params.pop(slot.name)
                    session.missing = missing_slots(action, session.params, session.asked_optional)
                    self._ask(turn, session, action, slot.name, question=question, partial=_partial(value),
                              established=value if isinstance(value, dict) and value.get("dated") else None)
                    return
        missing = missing_slots(action, session.params, session.asked_optional)
        session.missing = missing
        looked = [s for s in action.slots if s.lookup is not None
                  and (s.name == missing[0] if missing else s.name in session.params)]
        for slot in looked:
            found = self._look_up(turn, session, slot)
            if found is None:
                continue
            if not found.ok:  # nothing to act on: say so, no question and no yes/no
                turn.ctx.active = None
                turn.say(found.reply)
                self.offer_resume(turn)
                return
            session.params.pop(slot.name, None)
            session.missing = missing_slots(action, session.params, session.asked_optional)
            self._ask(turn, session, action, slot.name, question=found.reply)
            return
        if missing:
            self._ask(turn, session, action, missing[0])
            return
        turn.ctx.active = None
        params = with_defaults(action, session.params)
        if action.writes or (session.by_model and not action.read_only):
            self._ask_confirmation(turn, session, action, params)
            return
        self.run(turn, session.skill, action, params, turn.inbound.msg_id)
        self.offer_resume(turn)

    def _look_up(self, turn: Turn, session: SkillSession, slot: SlotSpec) -> SkillResult | None:
        """The slot's ``lookup`` in the skill's data; a failing lookup lets the engine go on as before."""
        assert slot.lookup is not None
        view = make_exec_view(user=turn.inbound.user, msg_id=turn.inbound.msg_id, now=turn.now, tz=turn.tz,
                              params=session.params)
        try:
            found = slot.lookup(view, view.params, self.services)
        except Exception as exc:  # a lookup is a courtesy: its failure must not lose the turn
            log.exception("lookup of %s.%s failed", session.skill, slot.name)
            turn.trace.errors.append(f"lookup {session.skill}.{slot.name}: {type(exc).__name__}: {exc}"[:300])
            return None
        if found is not None and found.entities:  # the list to pick from is what the answer refers to
            self._show(turn, session.skill, session.action, session.intent, session.params, found)
        return found

    def _ask(self, turn: Turn, session: SkillSession, action: ActionSpec, field: str,
             question: str | None = None, partial: str = "", established: dict[str, Any] | None = None) -> None:
        slot = action.slot(field)
        assert slot is not None
        options: list[str] = []
        default = default_for(turn.ctx.summary, field)
        if question is None:
            question = slot.question
        elif default is not None:
            default = None  # a clarifying question stands as asked
        if default is not None and slot.required:
            question = f"还是{default[1]}吗？（是的话回复“是”，不是就直接告诉我）"
            options = [default[1]]  # marks that a remembered value was offered
        if slot.ask_once and field not in session.asked_optional:
            session.asked_optional.append(field)
        session.expected_input = ExpectedInput(field=field, type=str(slot.parser), question=question,
                                               asked_at=turn.now, options=options, partial=partial,
                                               established=established)
        turn.ctx.active = session
        turn.say(question)

    def ask_amend(self, turn: Turn, skill: str, action: ActionSpec, params: dict[str, Any]) -> None:
        """A correction of a write the last run made: its own yes/no first, then the action's amend."""
        session = SkillSession(skill=skill, action=action.name, intent=action.intent, params=params,
                               topic_version=turn.ctx.topic_version, started_at=turn.now)
        self._ask_confirmation(turn, session, action, params, amend=True)

    def _ask_confirmation(self, turn: Turn, session: SkillSession, action: ActionSpec,
                          params: dict[str, Any], *, amend: bool = False) -> None:
        question = self.confirm_question(turn, session.intent, action, params, by_model=session.by_model)
        held = turn.ctx.pending_confirmation
        asked = PendingConfirmation(
            skill=session.skill, action=action.name, intent=session.intent, params=params,
            question=question, msg_id=turn.inbound.msg_id, expires_at=turn.now + self.confirm_ttl,
            topic_version=turn.ctx.topic_version, amend=amend)
        waiting = [] if held is None or amend or held.amend or held.expires_at <= turn.now \
            else [p for p in (held.model_copy(update={"also": []}), *held.also)
                  if (p.intent, p.params) != (asked.intent, asked.params)]
        asked.also = waiting  # a write said while another waits joins it: one yes for all, nothing dropped
        turn.ctx.pending_confirmation = asked
        turn.say(question + (texts.ALSO_WAITING.format(questions="；".join(map(waiting_clause, (p.question for p in waiting))))
                             if waiting else "") + texts.CONFIRM_SUFFIX)

    def confirm_question(self, turn: Turn, intent: str, action: ActionSpec, params: dict[str, Any], *,
                         by_model: bool = False) -> str:
        """The yes/no question a write asks for ``params`` (said again after a correction)."""
        names = [s.name for s in action.slots]
        question = to_confirm(action, params, turn.now, turn.tz)
        if question is None:
            return self._generic_question(intent, params, names) + (texts.MODEL_READ if by_model else "")
        if not by_model:  # the skill's own question, in the user's words
            return question
        # a model chose the action or a value: every value that would be written is shown, whatever the
        # skill's own question says
        return complete_question(question, params, names) + texts.MODEL_READ

    def _generic_question(self, intent: str, params: dict[str, Any], names: list[str]) -> str:
        said = spoken_values({k: params[k] for k in names if k in params})
        task = self.registry.task_name(intent)
        return f"确认{task}：{said}吗？" if said else f"确认要{task}吗？"

    # -- running -----------------------------------------------------------------------------
    def run(self, turn: Turn, skill: str, action: ActionSpec, params: dict[str, Any],
            msg_id: str, *, amend: bool = False) -> SkillResult | None:
        """Run one action (its ``amend`` runner with ``amend``); a failing skill becomes a polite reply
        and a trace error, never a crash."""
        view = make_exec_view(user=turn.inbound.user, msg_id=msg_id, now=turn.now, tz=turn.tz, params=params)
        runner = action.amend if amend and action.amend is not None else action.run
        try:
            result = runner(view, view.params, self.services)
        except Exception as exc:  # a skill bug or a dependency failure must not lose the turn
            log.exception("skill %s.%s failed", skill, action.name)
            turn.trace.errors.append(f"skill {skill}.{action.name}: {type(exc).__name__}: {exc}"[:300])
            turn.say(texts.SKILL_FAILED.format(task=self.registry.task_name(action.intent)))
            return None
        turn.say(result.reply)
        turn.data.update({"result": dict(result.data)} if result.data else {})
        apply_facts(turn.ctx.summary, result.facts)
        if result.choices:
            turn.ctx.clarification = Clarification(
                text=turn.frame.keep(), question=result.reply, asked_at=turn.now,
                options=[ClarifyOption(label=c.label, intent=c.intent, params=dict(c.params)) for c in result.choices])
        if (result.ok or result.asks) and not action.fallback:  # small talk leaves the focus where it was
            self._show(turn, skill, action.name, action.intent, params, result)
            if not (action.read_only or action.repeatable):
                turn.ctx.earlier.clear()  # a record changed: what was shown before it may no longer hold
        return result

    @staticmethod
    def _show(turn: Turn, skill: str, action: str, intent: str, params: dict[str, Any],
              result: SkillResult) -> None:
        """``result`` becomes the focus: what ran, with which params, and what it showed. Two requests of
        one message that did the same thing ("2点提醒我取快递，2点半提醒我给老王回电话") show together."""
        entities = [FocusEntity(kind=e.kind, name=e.name, ref=e.ref, attrs=dict(e.attrs)) for e in result.entities]
        before = turn.ctx.focus
        if turn.out.showed and before is not None and (before.skill, before.action) == (skill, action):
            turn.ctx.focus = before.model_copy(update={"entities": [*before.entities, *entities],
                                                       "params": plain(params), "at": turn.now})
        else:
            turn.ctx.show(Focus(
                skill=skill, action=action, intent=intent, params=plain(params), at=turn.now,
                ref=result.data.get("ref"), topic_version=turn.ctx.topic_version, shown=plain(result.shown),
                entities=entities))
        turn.out.focus = turn.ctx.focus
        turn.out.showed = True

    def run_read_only(self, turn: Turn, intent: str, frame: Frame) -> bool:
        """Answer a read-only intent in passing, without touching the active task. False if not possible."""
        found = self.registry.for_intent(intent)
        if found is None or found[1].writes:
            return False
        spec, action = found
        params = frame.slots(action)
        if missing_slots(action, params, [s.name for s in action.slots]):
            return False
        self.run(turn, spec.name, action, with_defaults(action, params), turn.inbound.msg_id)
        return True

    # -- control -----------------------------------------------------------------------------
    def confirm(self, turn: Turn) -> None:
        """Run the pending write if it is still valid."""
        first = turn.ctx.pending_confirmation
        turn.ctx.pending_confirmation = None
        if first is None:
            return
        turn.trace.skill, turn.trace.action = first.skill, first.action
        if turn.now > first.expires_at:
            turn.say(texts.CONFIRM_EXPIRED)
            return
        if first.topic_version != turn.ctx.topic_version:
            turn.say(texts.CONFIRM_STALE)
            return
        for pending in (first, *first.also):  # writes asked together are carried out together
            action = self.registry.action(pending.skill, pending.action)
            if action is None:
                turn.say(texts.CONFIRM_STALE)
                continue
            if self.run(turn, pending.skill, action, pending.params, pending.msg_id, amend=pending.amend) is not None:
                apply_facts(turn.ctx.summary, {"confirmed": pending.question.removeprefix("确认").rstrip("吗？?")})
        self.offer_resume(turn)

    def pause_active(self, turn: Turn) -> None:
        """Put the active task on the paused stack and switch topic."""
        session = turn.ctx.active
        if session is None:
            return
        question = session.expected_input.question if session.expected_input else ""
        field = session.expected_input.field if session.expected_input else None
        if field in session.asked_optional and field not in session.params:
            session.asked_optional.remove(field)  # unanswered: asked again when the task goes on
        turn.ctx.push_paused(PausedTask(session=session, resume_question=question, paused_at=turn.now))
        turn.ctx.active = None

    def resume(self, turn: Turn) -> bool:
        """Resume the most recent paused task and repeat its question."""
        if not turn.ctx.paused:
            return False
        task = turn.ctx.paused.pop()
        turn.ctx.topic_version += 1
        session = task.session
        session.topic_version = turn.ctx.topic_version
        action = self.registry.action(session.skill, session.action)
        if action is None:
            return False
        turn.trace.skill, turn.trace.action, turn.trace.intent = session.skill, session.action, session.intent
        turn.say(f"好的，我们接着{self.registry.task_name(session.intent)}。")
        session.expected_input = None
        self.advance(turn, session, action)
        return True

    def offer_resume(self, turn: Turn) -> None:
        """After a task ends, offer to go back to the most recent paused one — at most twice; then it stays
        paused quietly ("继续" still brings it back)."""
        if turn.ctx.active is None and turn.ctx.pending_confirmation is None and turn.ctx.paused:
            paused = turn.ctx.paused[-1]
            if paused.offered < MAX_OFFERS:
                paused.offered += 1
                turn.say(texts.RESUME_OFFER.format(task=self.registry.task_name(paused.session.intent)))


def _partial(value: Any) -> str:
    """The words understood of a time that could not be used as it was, with the part of the day its
    other words lean to ("下周三" + 下班后 → "下周三晚上"), for reading an answer that gives only the rest;
    when two names of the day disagreed, what holds for either (晚上8点)."""
    said = (value.get("shared") or value.get("said")) if isinstance(value, dict) else None  # two days disagreed
    if not isinstance(said, str):
        return ""
    return said + leaning(tuple(map(str, value.get("unexplained") or ())))

