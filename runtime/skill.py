"""The skill protocol (DESIGN §3.6): what a skill declares, and what its actions return.

A skill is one declarative :class:`SkillSpec` plus plain functions. The engine — not the
skill — fills slots, parses answers by :class:`SlotType` and asks for confirmation before
any action that writes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from runtime.views import ExecView

__all__ = [
    "ActionSpec", "Choice", "FollowUp", "SkillRegistry", "SkillResult", "SkillSpec", "SlotCheck", "SlotLookup", "SlotSpec", "SlotType",
    "Trigger", "READ_ONLY_INTENTS", "INTENTS", "WRITE_INTENTS",
]

INTENTS = (
    "weather.query", "datetime.query", "reminder.create", "reminder.list", "reminder.cancel",
    "dinner.plan", "recipe.query", "exercise.plan", "exercise.log", "exercise.history",
    "profile.view", "profile.update", "pantry.update", "chitchat", "unknown",
)
# The intent facts below are the defaults of DESIGN §3.2; the engine derives its own sets from the
# registered specs (``SkillRegistry.read_only_intents`` / ``write_intents`` / ``task_intents``).
READ_ONLY_INTENTS = frozenset({
    "weather.query", "datetime.query", "recipe.query", "reminder.list", "exercise.history",
    "profile.view", "chitchat", "pantry.view",
})
WRITE_INTENTS = frozenset({"reminder.cancel", "exercise.log", "profile.update", "pantry.update"})


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
    """

    reply: str
    data: Mapping[str, Any] = field(default_factory=dict)
    dto: Mapping[str, Any] = field(default_factory=dict)
    facts: Mapping[str, Any] = field(default_factory=dict)
    ok: bool = True
    choices: tuple[Choice, ...] = ()
    asks: bool = False


Runner = Callable[[ExecView, Mapping[str, Any], Any], SkillResult]
ConfirmText = Callable[[Mapping[str, Any]], str]
# (previous params, elliptical fragment such as "那广州呢" → "广州") → the new params, or None
FollowUp = Callable[[Mapping[str, Any], str], "Mapping[str, Any] | None"]


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One action of a skill. ``any_of`` lists slot groups of which one value is enough.

    ``read_only`` actions answer in passing while a task waits; the last read-only or ``repeatable``
    action is the frame an elliptical follow-up or a correction re-runs ("那广州呢", "不对，是6个人").
    ``amend`` takes a correction of the record the last run made ("不对，改成9点" right after a
    reminder was set): its params are the corrected slots plus ``replaces`` (the last result's
    ``data["ref"]``), ``previous`` (the last params) and ``said`` (the correction's words).
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

    def slot(self, name: str) -> SlotSpec | None:
        """The slot called ``name``, if this action has one."""
        return next((s for s in self.slots if s.name == name), None)


@dataclass(frozen=True, slots=True)
class SkillSpec:
    """A skill: a name and its actions."""

    name: str
    actions: tuple[ActionSpec, ...]
    description: str = ""
    triggers: tuple[Trigger, ...] = ()


class SkillRegistry:
    """Finds the skill and action behind an intent or a (skill, action) pair. Frozen once built."""

    def __init__(self, skills: Iterable[SkillSpec]) -> None:
        self._skills = {s.name: s for s in skills}
        self._by_intent: dict[str, tuple[SkillSpec, ActionSpec]] = {}
        for spec in self._skills.values():
            for action in spec.actions:
                self._by_intent.setdefault(action.intent, (spec, action))

    def for_intent(self, intent: str) -> tuple[SkillSpec, ActionSpec] | None:
        """The skill and action that serve ``intent``."""
        return self._by_intent.get(intent)

    def action(self, skill: str, action: str) -> ActionSpec | None:
        """The action ``action`` of skill ``skill``."""
        spec = self._skills.get(skill)
        if spec is None:
            return None
        return next((a for a in spec.actions if a.name == action), None)

    @property
    def skills(self) -> tuple[SkillSpec, ...]:
        """All registered skills."""
        return tuple(self._skills.values())

    def intents(self) -> frozenset[str]:
        """Every intent some skill serves."""
        return frozenset(self._by_intent)

    def read_only_intents(self) -> frozenset[str]:
        """Intents of actions that only read (answered in passing while a task waits), plus chit-chat."""
        return frozenset(i for i, (_, a) in self._by_intent.items() if a.read_only) | {"chitchat"}

    def write_intents(self) -> frozenset[str]:
        """Intents of actions that write and need a yes/no first."""
        return frozenset(i for i, (_, a) in self._by_intent.items() if a.writes)

    def task_intents(self) -> frozenset[str]:
        """Intents that start a task (everything that is not read-only)."""
        return frozenset(i for i, (_, a) in self._by_intent.items() if not a.read_only)

    def triggers(self) -> tuple[Trigger, ...]:
        """Every skill's routing rules, in the order they are tried."""
        found = [(t.order, n, t) for n, t in enumerate(t for s in self._skills.values() for t in s.triggers)]
        return tuple(t for _, _, t in sorted(found, key=lambda x: (x[0], x[1])))


# Values of TIME slots are handed to skills as ``TimeExpr.to_param()`` dicts; the time-phrase type and
# its formatting are part of the skill-facing protocol so skills need nothing else from runtime/.
from runtime.keys import skill_cache  # noqa: E402

# The calendar facts skills answer from (festivals, lunar dates, solar terms) come the same way, and so
# does reading restrictions said in words (不吃香菜和葱 → [香菜, 葱]).
from runtime.parsers import festivals  # noqa: E402
from runtime.parsers._time_merge import corrected_time  # noqa: E402
from runtime.parsers.dietary import parse_restrictions  # noqa: E402
from runtime.parsers.lunar import next_solar_term, solar_term_on, solar_to_lunar  # noqa: E402
from runtime.parsers.recurrence import next_occurrence  # noqa: E402
from runtime.parsers.timephrase import (  # noqa: E402
    TimeExpr,
    describe_rrule,
    format_when,
    parse_time_phrase,
    time_spans,
)

__all__ += ["TimeExpr", "corrected_time", "parse_restrictions", "describe_rrule", "festivals", "format_when", "next_occurrence",
            "next_solar_term", "parse_time_phrase", "skill_cache", "solar_term_on", "solar_to_lunar", "time_spans"]
