"""What a skill declares (slots, actions, triggers) and what its actions return (DESIGN §3.6)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from runtime.skill._domain import DomainObject, Entity, FollowUps
from runtime.views import ExecView


class SlotType(StrEnum):
    """How the engine parses a slot's value out of a message."""

    COUNT = "count"            # 三个 / 3个人 / 两位 / 俩
    MONEY = "money"            # 80元 / 一百块 / ¥80 / 预算一百左右
    YES_NO = "yes_no"
    CHOICE = "choice"          # 1 / 第二个 / 后面那个
    TIME = "time"              # Chinese time phrases (shared with reminders)
    TEXT = "text"              # free text
    TEXT_LIST = "text_list"    # 不吃香菜, 不要辣, 素食 / 都行 / 没有
    NUMBER = "number"
    DURATION = "duration"      # minutes: 30分钟 / 半小时 / 1个半小时
    DISTANCE = "distance"      # km: 5公里 / 3千米 / 800米
    HEIGHT = "height"          # cm: 180 / 1米8 / 一米七五
    WEIGHT = "weight"          # kg: 70公斤 / 140斤


Extractor = Callable[[str], Any]
SlotCheck = Callable[[Any], "str | None"]
# (exec view, params so far, services) → None, or what to say instead of going on (see SlotSpec.lookup)
SlotLookup = Callable[[ExecView, Mapping[str, Any], Any], "SkillResult | None"]


@dataclass(frozen=True, slots=True)
class SlotSpec:
    """One parameter of an action: its parser, the question that asks for it, its default.

    ``extract`` optionally pulls the value out of a whole first message (skill-specific
    wording such as a reminder's content); otherwise the engine extracts by ``parser``.
    ``ask_once`` marks an optional slot asked for once after the required ones. ``standalone``: its
    ``extract`` recognises the value said alone (a known city), so "杭州" right after a weather answer
    changes the city; typed slots (a time, a count) are recognisable anyway, free text never.
    ``within`` gives the words of a whole first message the value is said in (the new time of a move
    is said after its verb: "早上那个改到晚上"), when not all of it.
    ``lookup`` looks the slot up in the skill's own data (the router never reads lists, DESIGN §6.2)
    when it is about to be asked and when its value is set, before a confirmation: None lets the
    engine go on; a result that is ``ok`` is the question to ask instead (the numbered list to pick
    from, the value dropped); a result that is not ``ok`` ends the task with its reply (nothing to
    pick from: "你现在没有待提醒的事项").
    """

    name: str
    parser: SlotType
    question: str
    required: bool = True
    default: Any = None
    ask_once: bool = False
    minimum: float | None = None
    maximum: float | None = None
    hint: str = ""
    extract: Extractor | None = None
    check: SlotCheck | None = None
    lookup: SlotLookup | None = None
    standalone: bool = False  # a free-text slot whose value said alone is recognisable (a city, a day)
    within: Extractor | None = None


@dataclass(frozen=True, slots=True)
class Trigger:
    """A wording that means ``intent``: a routing rule a skill declares (DESIGN §6.2: wording only).

    ``unless`` vetoes the match; ``order`` sorts the rules of all skills (lower is tried first).
    """

    intent: str
    name: str
    pattern: str
    unless: str | None = None
    order: int = 50


@dataclass(frozen=True, slots=True)
class Choice:
    """One numbered item of a reply: answering its number starts ``intent`` with ``params``."""

    label: str
    intent: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SkillResult:
    """What an action returns: the reply, structured data, the model-facing DTO, summary facts.

    ``choices``: the reply lists numbered items; a bare number next ("3") picks one. ``asks``: the reply
    asks for what the query lacks (which city?): its frame is kept, so the answer said next completes it.
    ``entities``: what the reply showed, in order — the focus a follow-up refers to ("第二道怎么做");
    ``shown``: small facts of the result a follow-up may need (a plan's total for "再便宜点").
    """

    reply: str
    data: Mapping[str, Any] = field(default_factory=dict)
    dto: Mapping[str, Any] = field(default_factory=dict)
    facts: Mapping[str, Any] = field(default_factory=dict)
    ok: bool = True
    choices: tuple[Choice, ...] = ()
    asks: bool = False
    entities: tuple[Entity, ...] = ()
    shown: Mapping[str, Any] = field(default_factory=dict)


Runner = Callable[[ExecView, Mapping[str, Any], Any], SkillResult]
ConfirmText = Callable[[Mapping[str, Any]], str]
# (previous params, elliptical fragment such as "那广州呢" → "广州") → the new params, or None
FollowUp = Callable[[Mapping[str, Any], str], "Mapping[str, Any] | None"]
# what a result showed, said for the model summary: a format string, or a function of the same facts
ShownAs = str | Callable[[Mapping[str, Any]], "str | None"]


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One action of a skill. ``any_of`` lists slot groups of which one value is enough.

    ``confirm_text`` reads the params plus ``_now`` (the turn's local time: a day said relatively can be
    named by its date). ``read_only`` actions answer in passing while a task waits; the last read-only or ``repeatable``
    action is the focus an elliptical follow-up or a correction re-runs ("那广州呢", "不对，是6个人").
    ``amend`` takes a correction of the record the last run made ("不对，改成9点" right after a
    reminder was set): its params are the corrected slots plus ``replaces`` (the last result's
    ``data["ref"]``) and ``previous`` (the last params) — typed values only, never the message's words.
    ``task`` is how the bot names the task in Chinese ("设提醒"); ``reports_as`` the public intent
    label (DESIGN §3.2) a skill-specific intent is reported under; ``follow`` how its results are
    followed up (see :class:`FollowUps`). A ``fallback`` action (small talk) answers a message that no
    stage routed, when one of its slots recognises it. A ``crisis`` action answers a crisis the engine
    detected (DESIGN §3.4 "Crisis first"): never routed to, never a menu key or a model label.
    """

    name: str
    intent: str
    run: Runner
    slots: tuple[SlotSpec, ...] = ()
    writes: bool = False
    confirm_text: ConfirmText | None = None
    any_of: tuple[tuple[str, ...], ...] = ()
    description: str = ""
    read_only: bool = False
    follow_up: FollowUp | None = None
    repeatable: bool = False  # re-running with a changed slot is harmless (a plan, not a record)
    amend: Runner | None = None  # replaces the record the last run made (its result's data["ref"])
    undo: str | None = None  # the intent that takes the last run back ("取消刚才那个")
    undo_with: tuple[tuple[str, str], ...] = ()  # its slot values naming the one just made
    task: str = ""
    reports_as: str | None = None
    follow: FollowUps = field(default_factory=FollowUps)
    fallback: bool = False  # answers a message no other action explains, when its slots recognise it
    crisis: bool = False  # answers a crisis the engine detected, with params kind / sub / also
    shown_as: ShownAs | None = None

    @property
    def keeps(self) -> bool:
        """Whether a run leaves something stored that the user did not have before (a record, a reminder):
        a write, or an action that can be amended or taken back."""
        return self.writes or self.amend is not None or self.undo is not None

    def slot(self, name: str) -> SlotSpec | None:
        """The slot called ``name``, if this action has one."""
        return next((s for s in self.slots if s.name == name), None)


@dataclass(frozen=True, slots=True)
class SkillSpec:
    """A skill: its name, its actions, the objects it owns and the words for them, its routing rules.

    ``help`` is its line in the help text ("设提醒：比如…"), in the order skills are registered.
    ``vocabulary`` gives the closed vocabulary of its domain (dish names, activities…): the words a
    pinyin-keyboard slip is repaired towards (its objects' words count too).
    """

    name: str
    actions: tuple[ActionSpec, ...]
    description: str = ""
    triggers: tuple[Trigger, ...] = ()
    objects: tuple[DomainObject, ...] = ()
    help: str = ""
    vocabulary: Callable[[], Iterable[str]] | None = None


def missing_slots(action: ActionSpec, params: Mapping[str, Any], asked_optional: list[str]) -> list[str]:
    """Slots still to ask for, in order: required ones, one per ``any_of`` group, then ask-once ones."""
    grouped = {name for group in action.any_of for name in group}
    missing = [s.name for s in action.slots
               if s.required and s.name not in grouped and s.name not in params and s.default is None]
    for group in action.any_of:
        if not any(name in params for name in group):
            missing.append(group[0])
    for slot in action.slots:
        if slot.ask_once and slot.name not in params and slot.name not in asked_optional:
            missing.append(slot.name)
    return missing
