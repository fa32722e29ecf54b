"""The registry of skills: every table of intent facts is derived here from the specs (DESIGN §3.6)."""

from __future__ import annotations

from collections.abc import Iterable

from runtime.skill._domain import DomainObject
from runtime.skill._spec import ActionSpec, SkillSpec, Trigger

UNKNOWN = "unknown"  # the engine's own label for a message no skill serves


class SkillRegistry:
    """Finds the skill and action behind an intent or a (skill, action) pair, and derives the intent facts.

    Frozen once built: labels, read-only/write/task sets, task names, public labels, menu keys, the
    objects of the domain and the help text are all read from the registered specs.
    """

    def __init__(self, skills: Iterable[SkillSpec]) -> None:
        self._skills = {s.name: s for s in skills}
        self._by_intent: dict[str, tuple[SkillSpec, ActionSpec]] = {}
        for spec in self._skills.values():
            for action in spec.actions:
                self._by_intent.setdefault(action.intent, (spec, action))
        self._objects = {o.name: o for s in self._skills.values() for o in s.objects}
        self._triggers = self._sorted_triggers()

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

    def labels(self) -> tuple[str, ...]:
        """The public intent labels (DESIGN §3.2): each action's, as reported, then ``unknown``."""
        found = dict.fromkeys(self.public(i) for i in self._by_intent)
        return (*found, UNKNOWN)

    def public(self, intent: str) -> str:
        """The public label ``intent`` is reported under (a skill-specific intent maps to its label)."""
        found = self._by_intent.get(intent)
        return found[1].reports_as or intent if found else intent

    def read_only_intents(self) -> frozenset[str]:
        """Intents of actions that only read (answered in passing while a task waits)."""
        return frozenset(i for i, (_, a) in self._by_intent.items() if a.read_only)

    def write_intents(self) -> frozenset[str]:
        """Intents of actions that write and need a yes/no first."""
        return frozenset(i for i, (_, a) in self._by_intent.items() if a.writes)

    def task_intents(self) -> frozenset[str]:
        """Intents that start a task (everything that is not read-only)."""
        return frozenset(i for i, (_, a) in self._by_intent.items() if not a.read_only)

    def task_name(self, intent: str) -> str:
        """How the bot names the task behind ``intent`` in Chinese ("设提醒"); "这件事" when unknown."""
        found = self._by_intent.get(intent)
        return found[1].task if found and found[1].task else "这件事"

    def fallback(self) -> tuple[SkillSpec, ActionSpec] | None:
        """The action that answers what no stage routed, when its slots recognise the message (small talk)."""
        return next(((s, a) for s, a in self._by_intent.values() if a.fallback), None)

    def crisis(self) -> tuple[SkillSpec, ActionSpec] | None:
        """The action that answers a crisis the engine detected (DESIGN §3.4), if a skill declares one."""
        return next(((s, a) for s, a in self._by_intent.values() if a.crisis), None)

    def menu_keys(self) -> tuple[str, ...]:
        """The menu keys a CLICK may carry: every intent a skill serves (small talk and the crisis answer
        are not tasks)."""
        return tuple(i for i, (_, a) in self._by_intent.items() if not (a.fallback or a.crisis))

    def help_lines(self) -> tuple[str, ...]:
        """Each skill's line of the help text, in registration order."""
        return tuple(s.help for s in self._skills.values() if s.help)

    @property
    def objects(self) -> tuple[DomainObject, ...]:
        """Every object of the domain, in registration order."""
        return tuple(self._objects.values())

    def object(self, name: str) -> DomainObject | None:
        """The object called ``name``."""
        return self._objects.get(name)

    def vocabulary(self) -> frozenset[str]:
        """Every word of the domain a slip may be repaired towards: the objects' words (not the ones that
        only point at a shown thing: 那天) and each skill's declared vocabulary."""
        words = {w for o in self._objects.values() for w in o.words if w not in o.refers}
        for spec in self._skills.values():
            if spec.vocabulary is not None:
                words.update(spec.vocabulary())
        return frozenset(words)

    def triggers(self) -> tuple[Trigger, ...]:
        """Every skill's routing rules, in the order they are tried."""
        return self._triggers

    def _sorted_triggers(self) -> tuple[Trigger, ...]:
        found = [(t.order, n, t) for n, t in enumerate(t for s in self._skills.values() for t in s.triggers)]
        return tuple(t for _, _, t in sorted(found, key=lambda x: (x[0], x[1])))
