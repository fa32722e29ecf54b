"""The domain a skill declares once (DESIGN §3.6): the objects it owns, the words people use for them,
the operations it supports on them, and how its results can be followed up.

The engine reads these declarations; it never learns a skill's phrasings one sentence at a time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Operation(StrEnum):
    """What a message asks to do to an object (the shared lexicon in :mod:`runtime.understand.lexicon` says how)."""

    SEE = "see"        # look at it, list it, ask about it
    CREATE = "create"  # set it up, record it, add it
    CHANGE = "change"  # change it
    DELETE = "delete"  # remove it, cancel it
    SNOOZE = "snooze"  # again, later
    DONE = "done"      # it is done


@dataclass(frozen=True, slots=True)
class DomainObject:
    """A thing a skill owns: its name, the words people use for it, and what can be done to it.

    ``ops`` maps each supported operation to the intent that does it; ``pick`` is the slot of those
    intents that receives one shown entity of this kind (its ``ref``), so "把第二个删了" after a list of
    reminders cancels that reminder; ``default`` is what naming a shown entity alone means ("第二个");
    ``carry`` lists focus params that go along with a picked entity (a plan's people to a recipe);
    ``refers`` are words that point at the one entity of this kind just shown ("那天" after a date answer):
    a new request saying one of them is read with the entity's ``attrs["phrase"]`` in its place;
    ``anchors`` are words that count from that entity ("前一天", "第二天" after a date answer): a new request
    that starts with one is read with the entity's phrase put before it;
    ``questions`` are derived questions about such an entity, whichever result showed it; ``signals`` are
    everyday words that point at the object without naming it (吃 for a dinner, 催 for a reminder, 胖 and
    动 for exercise): a message carrying one is about this domain, worth a model's look when code is unsure.
    """

    name: str
    words: tuple[str, ...]
    ops: tuple[tuple[Operation, str], ...]
    noun: str = ""
    pick: str | None = None
    default: Operation = Operation.SEE
    carry: tuple[str, ...] = ()
    refers: tuple[str, ...] = ()
    questions: tuple[Question, ...] = ()
    signals: tuple[str, ...] = ()
    anchors: tuple[str, ...] = ()

    def intent_for(self, op: Operation) -> str | None:
        """The intent that does ``op`` to this object, or None when it is not supported."""
        return next((intent for o, intent in self.ops if o is op), None)

    @property
    def pattern(self) -> re.Pattern[str]:
        """The object's words as one pattern (longest first)."""
        return _words(self.words)

    @property
    def hints(self) -> re.Pattern[str]:
        """The object's words and signals as one pattern."""
        return _words((*self.words, *self.signals))


@dataclass(frozen=True, slots=True)
class Entity:
    """A thing a result showed (a dish of a plan, a listed reminder, the day answered), in the order shown.

    ``kind`` names one of the skills' :class:`DomainObject` s; ``ref`` is what the owning skill needs to
    act on it again (a record id, a dish name, a date); ``attrs`` are small facts about it.
    """

    kind: str
    name: str
    ref: Any = None
    attrs: Mapping[str, Any] = field(default_factory=dict)


_CACHE: dict[tuple[str, ...], re.Pattern[str]] = {}


def _words(words: tuple[str, ...]) -> re.Pattern[str]:
    found = _CACHE.get(words)
    if found is None:
        found = _CACHE[words] = re.compile("|".join(sorted(map(re.escape, words), key=len, reverse=True)))
    return found


# (the focus's params, the words that matched — ``match.string`` is the whole message —, the shown entity
# the message picks or None, the facts the result kept for follow-ups: SkillResult.shown)
# → the params to run with, or None when the words do not apply to this result
Refine = Callable[[Mapping[str, Any], "re.Match[str]", Entity | None, Mapping[str, Any]],
                  "Mapping[str, Any] | None"]


@dataclass(frozen=True, slots=True)
class Modifier:
    """Words that change a shown result and keep everything else ("便宜点", "再来个汤", "多一个人").

    The action runs again with ``apply``'s params, or ``intent`` runs with them instead ("过十分钟再叫我"
    right after a reminder fired snoozes it). ``entity``: the words must pick a shown entity too.
    """

    name: str
    pattern: str
    apply: Refine
    intent: str | None = None
    entity: bool = False

    @property
    def regex(self) -> re.Pattern[str]:
        """The compiled pattern."""
        return _compiled(self.pattern)


@dataclass(frozen=True, slots=True)
class Question:
    """A question derived from what was shown, answered for it ("还有几天", "那天星期几", "农历几号")."""

    name: str
    pattern: str
    apply: Refine
    intent: str | None = None
    entity: bool = False
    kind: str | None = None  # the kind of entity it asks about, when an object declares it

    @property
    def regex(self) -> re.Pattern[str]:
        """The compiled pattern."""
        return _compiled(self.pattern)


_PATTERNS: dict[str, re.Pattern[str]] = {}


def _compiled(pattern: str) -> re.Pattern[str]:
    found = _PATTERNS.get(pattern)
    if found is None:
        found = _PATTERNS[pattern] = re.compile(pattern)
    return found


@dataclass(frozen=True, slots=True)
class FollowUps:
    """How a result can be followed up (DESIGN §3.4, focus).

    ``slots``: an elliptical follow-up that names only a value of one of these slots ("那广州呢", "后天呢",
    "5个人的话") re-runs the action with that value replaced. ``modifiers`` change the result;
    ``questions`` are derived questions about it.
    """

    slots: tuple[str, ...] = ()
    modifiers: tuple[Modifier, ...] = ()
    questions: tuple[Question, ...] = ()
