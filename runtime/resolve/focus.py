"""Stage ``rules`` (focus): a message read against the last result (DESIGN §3.4).

After the pending question and before a new request, a message may refer back to what was just shown.
The skill's declarations decide (``ActionSpec.follow``, its ``DomainObject`` s): a modifier changes the
shown result ("便宜点", "再来个汤"), a derived question is answered for the shown entity ("还有几天"),
a pick selects from what was shown ("第二道怎么做", "把第一个删了"), an elliptical follow-up that names
only a slot value re-runs the action with it ("那广州呢", "后天呢"), a correction or "提前半小时" changes
what was just done, "取消刚才那个" takes it back. A candidate must explain the whole message; the first
that does wins. Pure: the focus is read, never changed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from runtime.apply.slots import time_slots
from runtime.context import Focus, FocusEntity
from runtime.resolve._again import asked_again_now
from runtime.resolve._focus_ops import _SAID, _UNTYPED, FocusReader, Span, _Candidate
from runtime.resolve._match import Kind, Match
from runtime.resolve.turn import Turn
from runtime.skill import ActionSpec, DomainObject, Entity, Modifier, Operation, Question
from runtime.turn import Stage
from runtime.understand import Frame
from runtime.understand.pick import Picked

__all__ = ["FocusStage"]

CONFIDENCE = 0.9


class FocusStage(FocusReader):
    """Reads a message against the focus; proposes the follow-up that explains it whole."""

    stage = Stage.RULES

    def match(self, turn: Turn) -> Match | None:
        """The follow-up of the focus this message is, or None. A message that holds clauses that only say
        why ("改到中午吧，早上我在开会") is read for what it asks without them first, then whole."""
        if turn.frame.reasons():
            found = self._read(replace(turn, frame=turn.frame.without_reasons()))
            if found is not None:
                return found
        return self._read(turn)

    def _read(self, turn: Turn) -> Match | None:
        focus, view = turn.focus, turn.view
        if focus is None or view.origin not in ("text", "voice"):
            return None
        found = self._registry.for_intent(focus.intent)
        if found is None:
            return None
        action, frame = found[1], turn.frame
        waits = turn.session is not None or turn.pending is not None
        undone = None if waits else self.undo(turn)
        if undone is not None:
            return undone
        declared = self._declared(turn, focus, action)
        if declared is not None and _SAID in declared.params:  # read from the words, as a new request is
            return Match(self.stage, Kind.INTENT, intent=declared.intent, confidence=CONFIDENCE,
                         detail=f"focus: {declared.detail}")
        for before in turn.earlier if declared is None else ():  # "要买些啥" after a recipe opened from the plan
            earlier = self._registry.for_intent(before.intent)
            declared = self._declared(turn, before, earlier[1]) if earlier is not None else None
            if declared is not None:
                break
        instead = declared is not None and declared.picked and turn.session is not None and turn.pending is None \
            and declared.intent != turn.session.intent  # "第二个改成6点" while asked which one to cancel
        if declared is not None and (not waits or declared.intent in self._read_only or instead):
            return Match(self.stage, Kind.REFER, intent=declared.intent, confidence=CONFIDENCE,
                         params={"params": dict(declared.params)}, detail=f"focus: {declared.detail}")
        if turn.session is not None and focus.intent not in self._read_only:
            return None
        which = None if waits else (self._which(frame, focus) or asked_again_now(turn, self._registry, CONFIDENCE))
        if which is not None:
            return which
        said = self._said_again(turn, focus)
        if said is not None:
            return said
        if turn.pending is not None:
            return None
        return self._bare(turn, focus, action) or self._bare_before(turn, action)

    def _bare_before(self, turn: Turn, action: ActionSpec) -> Match | None:
        """"下午吧 四点" after a side answer ("周四是11月18日") that followed a reminder just set: the values
        correct the write before the side answer (the most recent one), never the answer itself."""
        if not action.read_only or turn.session is not None:
            return None
        for before in turn.earlier:
            found = self._registry.for_intent(before.intent)
            if found is None or found[1].read_only:
                continue
            bare = self._bare(replace(turn, focus=before), before, found[1])
            if bare is None:
                return None
            return replace(bare, params={**bare.params, "earlier": [before.intent, before.at.isoformat()]},
                           detail=f"{bare.detail}, before the side answer")
        return None

    def changes(self, turn: Turn, found: Match) -> bool:
        """Whether a follow-up ``found`` changes something of the focus it was read against, as carrying it
        out would ("后天的呢" changes nothing of a dinner plan: no declaration of it places the words)."""
        focus = turn.focus
        known = self._registry.for_intent(focus.intent) if focus is not None else None
        if focus is None or known is None:
            return False
        action, fragment = known[1], found.params.get("fragment")
        if not (action.read_only or action.repeatable) and (action.amend is None or not found.params.get("correction")):
            return False
        if "ahead" in found.params:
            return True
        if not isinstance(fragment, Frame):
            return False
        if action.follow_up is not None:
            return fragment.follow_up(action, focus.params) is not None
        return bool(fragment.slots(action))

    def undo(self, turn: Turn, *, bare: bool = False) -> Match | None:
        """"取消刚才那个" (or, ``bare``, a plain "算了不用了") right after a write: the intent that takes
        that write back."""
        focus = turn.focus
        found = self._registry.for_intent(focus.intent) if focus is not None else None
        if found is None or found[1].undo is None or not (bare or turn.frame.takes_back):
            return None
        return Match(self.stage, Kind.INTENT, intent=found[1].undo, confidence=CONFIDENCE,
                     params=dict(found[1].undo_with), detail=f"takes back the last {focus.intent if focus else ''}")

    # -- declared follow-ups: modifiers, derived questions, picks ----------------------------
    def _declared(self, turn: Turn, focus: Focus, action: ActionSpec) -> _Candidate | None:
        frame = turn.frame
        entities = [Entity(e.kind, e.name, e.ref, e.attrs) for e in focus.entities]
        values = frame.value_spans
        kinds = dict.fromkeys(e.kind for e in focus.entities)
        about = tuple(q for k in kinds if (o := self._registry.object(k)) is not None for q in o.questions)
        rules: tuple[Modifier | Question, ...] = (*action.follow.questions, *about, *action.follow.modifiers)
        for rule in rules:
            found = frame.finds(rule.regex)
            if not found:
                continue
            m = found[0]
            picked = frame.pick(focus.entities, taken=[f.span() for f in found])
            if rule.entity and picked is None:
                continue
            if isinstance(rule, Question) and picked is not None and picked.by == "name":
                continue  # "今天星期几" names its day: a question of its own, not one about the day shown
            entity = entities[picked.position - 1] if picked else _only(entities, rule)
            built = rule.apply(focus.params, m, entity, focus.shown)
            if built is None:
                continue
            spans = (*(f.span() for f in found), *(picked.spans if picked else ()), *self._object_spans(frame, entity))
            if isinstance(rule, Modifier):
                spans = (*spans, *values, *frame.said_spans(focus.params, built))
                if self._explains(frame, spans) or self._inert(frame.part_of(frame.unexplained(spans))):
                    return _Candidate(rule.intent or focus.intent, built, spans, f"{rule.name}")
                continue  # what else the message says is a request of its own
            elif any(not _inside(v, spans) for v in values) or not self._explains(frame, spans, strict=True):
                continue  # a question about the entity shown names nothing else ("今天农历几号", "今年还剩几天")
            if self._explains(frame, spans):
                return _Candidate(self._intent_of(rule, focus), built, spans, f"{rule.name}")
        picked = frame.pick(focus.entities)
        chosen = self._picked(frame, focus, picked) if picked is not None else None
        return (chosen or self._slots_said(turn, focus, action, values) or self._operation_only(frame, focus)
                or self._seen_with_values(turn, focus) or self._operation_on_words(frame, focus))

    def _slots_said(self, turn: Turn, focus: Focus, action: ActionSpec, values: list[Span]) -> _Candidate | None:
        """A new value of a slot the result may be re-run with ("控制在一百二以内", "5个人的话"), the rest
        of the message explained or asking for nothing: the same action with that value."""
        names = action.follow.slots
        if not names:
            return None
        frame = turn.frame
        said = {k: v for k, v in frame.slots(action).items() if k in names and v != focus.params.get(k)}
        if not said and not frame.asks_another:  # said alone, as an answer would be: exactly one typed
            # slot reads it ("再来一个别的" asks for another thing: its 一个 is no count)
            lenient = {s.name: v for s in action.slots if s.name in names and s.parser not in _UNTYPED
                       and (v := frame.answer(s)) is not None}
            said = lenient if len(lenient) == 1 else {}
        said = {k: v for k, v in said.items() if v != focus.params.get(k)}
        if not said:
            return None
        spans = (*values, *frame.said_spans(focus.params, said))
        if not self._explains(frame, spans):
            return None
        return _Candidate(focus.intent, {**focus.params, **said}, spans, f"slots {sorted(said)} said again")

    def _picked(self, frame: Frame, focus: Focus, picked: Picked) -> _Candidate | None:
        obj = self._registry.object(picked.entity.kind)
        if obj is None or obj.pick is None:
            return None
        taken = list(picked.spans)
        ops = [(op, span) for op, span in frame.operations if not any(s < span[1] and span[0] < e for s, e in taken)]
        takes = self._takes(obj)
        if not any(obj.intent_for(op) in takes for op, _ in ops):  # putting off one picked is changing it
            ops = [(Operation.CHANGE if op is Operation.SNOOZE else op, span) for op, span in ops]  # 把第一个挪到11点半
        intent = next((i for op, _ in ops if (i := obj.intent_for(op)) in takes
                       and not (op is Operation.CHANGE and self._amends(focus))), None)
        if intent is None and not ops:
            intent = obj.intent_for(obj.default)
        if intent is None or intent not in takes:
            return None  # nothing it can do to one shown item (a list of all is not about the one picked)
        entity = picked.entity
        params: dict[str, Any] = {k: focus.params[k] for k in obj.carry if k in focus.params}
        params[obj.pick] = entity.ref if entity.ref is not None else entity.name
        spans = (*taken, *(s for _, s in ops), *self._object_spans(frame, Entity(entity.kind, entity.name)))
        valued = any(op is Operation.CHANGE for op, _ in ops)  # with its new value: 第三个改成7点20
        if valued:  # and then no other name unexplained ("体检那个改到周六" names another one)
            spans = (*spans, *(v for v in frame.value_spans if not any(a < v[1] and v[0] < b for a, b in taken)))
        if not self._explains(frame, spans, strict=valued or picked.by == "deixis"):  # "那个看牙的…" names another
            return None
        return _Candidate(intent, params, spans, f"pick {picked.position} ({entity.name})", picked=True)

    def _intent_of(self, rule: Modifier | Question, focus: Focus) -> str:
        """What a rule runs: its own intent, a question of an object its object's "see", else the focus's."""
        obj = self._registry.object(rule.kind) if isinstance(rule, Question) and rule.kind else None
        seen = obj.intent_for(Operation.SEE) if obj is not None else None
        return rule.intent or seen or focus.intent

    def _which(self, frame: Frame, focus: Focus) -> Match | None:
        """"把那个取消了" while two or more things it could mean were just shown: which one, asked with
        numbered options (a wrong guess would act on the wrong thing)."""
        pointing = frame.deixis()
        ops = frame.operations
        if pointing is None or not ops or not self._explains(frame, (pointing, *(s for _, s in ops)), strict=True):
            return None
        for op, _ in ops:
            for kind in dict.fromkeys(e.kind for e in focus.entities):
                obj = self._registry.object(kind)
                shown = [e for e in focus.entities if e.kind == kind and not e.attrs.get("minor")]
                intent = obj.intent_for(op) if obj is not None else None
                if obj is None or obj.pick is None or intent is None or intent not in self._takes(obj) or len(shown) < 2:
                    continue
                picks = [{"label": _label(e), "intent": intent, "params": {obj.pick: e.ref if e.ref is not None else e.name}}
                         for e in shown]
                return Match(self.stage, Kind.CLARIFY, intent=intent, confidence=0.5,
                             options=tuple((intent, _label(e)) for e in shown), params={"picks": picks},
                             detail=f"focus: which of {len(shown)} {kind}s")
        return None

    def _object_spans(self, frame: Frame, entity: Entity | None) -> list[Span]:
        obj: DomainObject | None = self._registry.object(entity.kind) if entity is not None else None
        return frame.named(obj) if obj is not None else []

    # -- the same action again, with something changed ---------------------------------------
    def _said_again(self, turn: Turn, focus: Focus) -> Match | None:
        """"那广州呢" / "不对，是6个人" / "提前半小时提醒我": the last action with the changed part."""
        frame = turn.frame
        ahead = frame.ahead()
        if ahead is not None:
            if not time_slots(self._registry, focus.intent, focus.params):
                return None  # nothing timed to count back from: a request of its own
            return Match(self.stage, Kind.FOLLOW_UP, intent=focus.intent, confidence=CONFIDENCE,
                         params={"fragment": turn.frame, "correction": True, "ahead": ahead},
                         detail=f"{focus.intent} moved {ahead:g} minutes earlier")
        fragment = frame.fragment()
        if fragment is None or frame.rule is not None:
            return None
        ahead = fragment.ahead()  # "不对，提前两天吧": a correction that moves the time just set
        if ahead is not None and time_slots(self._registry, focus.intent, focus.params):
            return Match(self.stage, Kind.FOLLOW_UP, intent=focus.intent, confidence=CONFIDENCE,
                         params={"fragment": fragment, "correction": True, "ahead": ahead},
                         detail=f"{focus.intent} moved {ahead:g} minutes earlier")
        corrected = frame.correction_only
        return Match(self.stage, Kind.FOLLOW_UP, intent=focus.intent, confidence=CONFIDENCE,
                     params={"fragment": fragment, "correction": corrected},
                     detail=f"{'correction' if corrected else 'follow-up'} of {focus.intent}")

    def _bare(self, turn: Turn, focus: Focus, action: ActionSpec) -> Match | None:
        """"早上8点吧" right after a reminder was set, "明天" right after a weather answer: a short
        message that is nothing but slots of the last action changes them (a correction of a write)."""
        bare = turn.frame.bare()
        intent = focus.intent
        if bare.empty or bare.length > 8 or (not action.read_only and turn.frame.question):
            return None  # a question ("明天有啥安排") does not correct what was just done
        routed = turn.frame.rule
        if routed is not None and not (routed[0] == intent and action.read_only and action.follow_up is not None):
            return None  # a request of its own (a query's own hook may still read it as a follow-up: 那天星期几)
        amend = action.amend is not None and not action.read_only
        # only a slot said in its own form ("早上8点", "杭州") changes it, never free text ("好", "太麻烦了");
        # a query with its own follow-up hook says itself whether the text changes it ("周五")
        telling = {s.name for s in action.slots if s.standalone or s.parser not in _UNTYPED}
        if action.read_only and action.follow_up is not None:
            if bare.follow_up(action, focus.params) is None:
                return None
        elif not (action.read_only or action.repeatable or amend) or not telling & set(bare.slots(action)):
            return None
        return Match(self.stage, Kind.FOLLOW_UP, intent=intent, confidence=CONFIDENCE,
                     params={"fragment": bare, "correction": amend},
                     detail=f"bare {'correction' if amend else 'follow-up'} of {intent}")


def _only(entities: list[Entity], rule: Modifier | Question) -> Entity | None:
    """The entity a rule is about when none was picked: the only one shown (of the kind a question of an
    object asks about, when it belongs to one)."""
    kind = getattr(rule, "kind", None)
    fits = [e for e in entities if kind is None or e.kind == kind]
    return fits[0] if len(fits) == 1 else None


def _inside(span: Span, spans: tuple[Span, ...]) -> bool:
    return any(a <= span[0] and span[1] <= b for a, b in spans)


def _label(entity: FocusEntity) -> str:
    """How a shown thing is named in a question about it: its name, and its time when it has one."""
    due = entity.attrs.get("due")
    return f"{entity.name}（{str(due)[11:16]}）" if isinstance(due, str) and len(due) >= 16 else entity.name

