"""Every (object × operation) the skills declare has a path (issue: follow-ups by construction).

The cases are generated from the declarations, never written sentence by sentence: for each action
that shows a result, each of its modifiers and derived questions, each question its objects declare,
each slot it may be re-run with, its undo, and each operation of an object whose shown items can be
picked (第一个 + the operation's own words), a message is drawn from the declaration's own pattern (or
the shared lexicon's) and said right after a seed result; the turn must be decided as that follow-up.
A seed is the only hand-written part: one request per action that shows something, and a new action
that declares follow-ups without a seed fails here until it has one.
"""

from __future__ import annotations

import random
import re
import re._parser as sre
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.compose import core
from bot.script import ScriptRunner
from bot.settings import Settings
from runtime.skill import ActionSpec, DomainObject, Modifier, Operation, Question, SlotType
from runtime.turn import Inbound, TurnResult
from runtime.understand.lexicon import OPERATION_PATTERNS
from skills import all_skills

AT = "2027-05-10T10:00:00+08:00"  # a Monday morning

# one request that shows a result of each action with follow-ups (the only hand-written part)
SEEDS: dict[str, list[str | dict[str, str]]] = {
    "dinner.plan": ["4个人预算200安排晚饭", "没有忌口"],
    "recipe.query": ["推荐几个鸡肉做的家常菜"],
    "reminder.create": ["明天下午3点提醒我交电费"],
    "reminder.list": ["明天下午3点提醒我交电费", "后天上午10点提醒我去银行", "我有哪些提醒"],
    "reminder.snooze": ["1分钟后提醒我关火", {"advance_to": "2027-05-10T10:01:30+08:00"}],
    "exercise.plan": ["帮我做个运动计划 目标减脂 新手"],
    "exercise.log": ["今天跑了5公里", "确认"],
    "exercise.history": ["今天跑了5公里", "确认", "昨天游泳40分钟", "确认", "最近一周的运动记录"],
    "profile.view": ["我体重65公斤", "确认", "我的BMI正常吗"],
    "pantry.update": ["冰箱里有鸡蛋6个 西红柿4个", "确认"],
    "pantry.view": ["冰箱里有鸡蛋6个 西红柿4个", "确认", "冰箱里还有什么"],
    "datetime.query": ["端午节是哪天"],
}

# where an object's things are shown by a result other than its actions' own (activities: a summary by activity)
OBJECT_SEEDS: dict[str, list[str | dict[str, str]]] = {
    "activity": ["今天跑了5公里", "确认", "昨天跑了3公里", "确认", "昨天游泳40分钟", "确认", "最近一周的运动记录"],
}
SEEDS.update({f"object:{name}": steps for name, steps in OBJECT_SEEDS.items()})

# a value said alone, by the slot's type, for "re-run with this slot changed"
# (free-text slots read by a skill's own extractor have no value of a type to draw: not generated here)
VALUES: dict[SlotType, list[str]] = {
    SlotType.COUNT: ["6个人的话", "那五个人呢"],
    SlotType.MONEY: ["预算三百的话", "控制在150以内"],
    SlotType.TEXT_LIST: ["不吃辣的话", "换成不吃香菜的"],
    SlotType.TIME: ["明天下午四点", "改到后天上午10点"],
}


@dataclass(frozen=True)
class Case:
    seed: str  # the intent whose result is followed up
    what: str  # the declaration tried
    samples: tuple[str, ...]
    wants: tuple[str, ...]  # pieces of the trace detail, one of which names the declaration


def _sample(node: Any, rng: random.Random) -> str:
    out = []
    for op, av in node:
        name = str(op)
        if name == "LITERAL":
            out.append(chr(av))
        elif name == "NOT_LITERAL" or name == "ANY":
            out.append("的")
        elif name == "IN":
            out.append(_one_of(av, rng))
        elif name == "BRANCH":
            out.append(_sample(rng.choice(av[1]), rng))
        elif name == "SUBPATTERN":
            out.append(_sample(av[-1], rng))
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, high, body = av
            n = rng.randint(low, min(high, low + 1))
            if "DIGIT" in str(body):  # a number said: two or three figures
                n = max(n, min(high, rng.randint(2, 3)))
            out.extend(_sample(body, rng) for _ in range(n))
        elif name == "ATOMIC_GROUP":
            out.append(_sample(av, rng))
        # AT, ASSERT, ASSERT_NOT, GROUPREF: nothing to say
    return "".join(out)


def _one_of(items: Any, rng: random.Random) -> str:
    if any("DIGIT" in str(av) for _, av in items):
        return rng.choice("1765")  # a class that takes digits: a number as people write it
    picks: list[str] = []
    for op, av in items:
        name = str(op)
        if name == "LITERAL":
            picks.append(chr(av))
        elif name == "RANGE":
            low, high = av
            if low <= ord("一") <= high:
                picks += list("鸡蛋牛肉鱼虾")
            else:
                picks.append(chr(low + min(2, high - low)))
        elif name == "CATEGORY":
            picks.append("2" if "DIGIT" in str(av) else "的")
        elif name == "NEGATE":
            return "的"
    return rng.choice(picks) if picks else "的"


def samples(pattern: str, n: int = 40, keep: int = 8) -> tuple[str, ...]:
    """Short strings drawn from ``pattern`` that it matches (deterministic)."""
    rng, tree, found = random.Random(pattern), sre.parse(pattern), set()
    compiled = re.compile(pattern)
    for _ in range(n):
        said = _sample(tree, rng).strip()
        if said and len(said) <= 16 and compiled.search(said):
            found.add(said)
    return tuple(sorted(found, key=lambda s: (len(s), s))[:keep])


def _actions() -> Iterator[tuple[DomainObject | None, ActionSpec]]:
    for spec in all_skills():
        for action in spec.actions:
            yield None, action


def _action(intent: str) -> ActionSpec | None:
    return next((a for _, a in _actions() if a.intent == intent), None)


def _objects() -> list[DomainObject]:
    return [o for spec in all_skills() for o in spec.objects]


def cases() -> list[Case]:
    out: list[Case] = []
    for _, action in _actions():
        follow = action.follow
        rules: list[Modifier | Question] = [*follow.modifiers, *follow.questions]
        for rule in rules:
            out.append(Case(action.intent, f"{action.intent}: {rule.name}", samples(rule.pattern), (rule.name,)))
        for name in follow.slots:
            slot = action.slot(name)
            if slot is not None and slot.parser in VALUES:
                out.append(Case(action.intent, f"{action.intent}: slot {name}", tuple(VALUES[slot.parser]),
                                ("said again", "focus:")))
        if action.undo is not None:
            out.append(Case(action.intent, f"{action.intent}: undo", ("撤销刚才那个", "刚才那个取消"), ("takes back",)))
    seen_by = {o.name: sorted((i for i in SEEDS if i in _showing(o)), key=lambda i: i != o.intent_for(Operation.SEE))
               for o in _objects()}  # a list of them first: what 第一个 picks from
    seen_by.update({name: [f"object:{name}"] for name in OBJECT_SEEDS})
    for obj in _objects():
        for question in obj.questions:
            for seed in seen_by[obj.name][:1]:
                out.append(Case(seed, f"{obj.name}: {question.name}", samples(question.pattern), (question.name,)))
        if obj.pick is None:
            continue
        for op, intent in obj.ops:
            taker = _action(intent)
            if op is Operation.CREATE or taker is None or taker.slot(obj.pick) is None:
                continue  # a new one is a request of its own; an intent that takes no one item (a list of all)
            words = samples(OPERATION_PATTERNS[op], n=80, keep=12)
            value = "明天下午四点" if op in (Operation.CHANGE, Operation.SNOOZE) else ""
            for seed in seen_by[obj.name][:1]:
                out.append(Case(seed, f"{obj.name} × {op.value} ({intent})",
                                tuple(f"第一个{w}{value}" for w in words), ("pick ",)))
    return out


def _showing(obj: DomainObject) -> set[str]:
    """The seeds whose results show entities of ``obj`` (read from the declarations: the object's own
    intents, and those of an object it is derived from)."""
    own = {i for _, i in obj.ops}
    return own | {"reminder.list"} if obj.name == "reminder" else own | {"dinner.plan"} if obj.name == "dish" \
        else own | {"exercise.history"} if obj.name in ("workout", "activity") else own


class _Recorded:
    """The engine, keeping the last turn's result (for its trace)."""

    def __init__(self, engine: Any) -> None:
        self.engine: Any = engine
        self.last: TurnResult | None = None

    def handle(self, inbound: Inbound) -> TurnResult:
        result: TurnResult = self.engine.handle(inbound)
        self.last = result
        return result

    def show(self, user: str, intent: str, result: Any, *, at: Any) -> None:
        self.engine.show(user, intent, result, at=at)


@pytest.fixture(scope="module")
def world() -> Iterator[tuple[_Recorded, Any]]:

    with tempfile.TemporaryDirectory() as tmp:
        built = core(Settings.from_env({"DATA_DIR": str(Path(tmp)), "WEATHER_FAKE": "true"}))
        try:
            yield _Recorded(built.engine), built
        finally:
            built.services.db.dispose()


def _followed(world: tuple[_Recorded, Any], case: Case, said: str, user: str) -> str:
    import json

    from skills.reminders import run_due

    recorded, built = world
    runner = ScriptRunner(recorded, due_pushes=lambda now: run_due(built.services, now))
    lines = []
    for step in SEEDS[case.seed]:
        if isinstance(step, dict):
            lines.append(json.dumps(step))
        else:
            lines.append(json.dumps({"user": user, "text": step, **({} if lines else {"at": AT})}, ensure_ascii=False))
    lines.append(json.dumps({"user": user, "text": said}, ensure_ascii=False))
    list(runner.run_lines(lines))
    trace = recorded.last.trace if recorded.last is not None else None
    return f"{trace.stage}: {trace.detail}" if trace is not None else ""


def test_every_action_with_follow_ups_has_a_seed() -> None:
    declared = {a.intent for _, a in _actions() if a.follow.modifiers or a.follow.questions or a.follow.slots}
    assert declared <= set(SEEDS), f"declare a seed for {sorted(declared - set(SEEDS))}"
    for obj in _objects():
        assert obj.pick is None or any(i in _showing(obj) for i in SEEDS), f"no seed shows a {obj.name}"


CASES = cases()


@pytest.mark.parametrize("case", CASES, ids=[c.what for c in CASES])
def test_each_declared_follow_up_has_a_path(world: tuple[_Recorded, Any], case: Case) -> None:
    assert case.samples, f"nothing could be drawn from {case.what}"
    shown = _shown_names(world, case)
    tried = []
    for n, drawn in enumerate(case.samples):
        for lead in ("", "第一个", *shown[:1], "明天"):  # alone, of the first thing shown, or of another day
            said = f"{lead}{drawn}" if not drawn.startswith("第一个") or not lead else drawn
            got = _followed(world, case, said, user=f"m{abs(hash((case.what, n, lead))) % 10**8}")
            if any(w in got for w in case.wants):
                return
            tried.append(f"{said!r} → {got}")
    pytest.fail(f"{case.what}: no drawn message reached it:\n" + "\n".join(tried))


def _shown_names(world: tuple[_Recorded, Any], case: Case) -> list[str]:
    user = f"s{abs(hash(case.what)) % 10**8}"
    _followed(world, case, "嗯", user=user)
    focus = world[0].engine.peek(user).focus
    return [e.name for e in focus.entities] if focus is not None else []
