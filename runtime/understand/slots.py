"""Reading slot values out of a message (or a part of one): a first message's values, an answer to a
question, the slots a correction names, a bare number against the numbers already given. Part of the
parser: only :mod:`runtime.understand` calls these (through the frame)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from runtime.parsers.correction import corrected_time, correction_tail
from runtime.parsers.numbers import normalize_numerals
from runtime.parsers.slots import PARSERS, parse_text_list, parse_time
from runtime.parsers.timephrase import TimeExpr
from runtime.skill import ActionSpec, SlotSpec

__all__ = ["USE_DEFAULT", "another_thing", "changed_slots", "extract_all", "in_range", "nearest_number_slot",
           "number_readings", "parse_slot", "typed"]

_LIST_CLAUSE = re.compile(r"(不吃|不要|不能吃|不想吃|忌口|过敏|素食|吃素|别放)")


def parse_slot(slot: SlotSpec, text: str, *, answer: bool, now: datetime) -> Any:
    """The slot's typed value in ``text``, or None (also None when out of the slot's range)."""
    if not answer and slot.within is not None:
        scope = slot.within(text)
        if not scope:
            return None
        text = scope
    if not answer and slot.extract is not None:
        value = slot.extract(text)
    elif slot.parser == "text_list" and slot.extract is not None and len(re.split(r"[，,。；;！!]", text)) > 1 \
            and (value := slot.extract(text)) is not None:
        pass  # "有两个小孩，不要太辣": the clauses that state a restriction, not the head count beside them
    elif slot.parser == "time":
        value = parse_time(text, answer, now)
    elif slot.parser == "text" and not answer:
        value = None  # free text is only taken as a direct answer
    elif slot.parser == "text_list" and not answer:
        clauses = []
        for clause in re.split(r"[，,。；;！!]", text):
            m = _LIST_CLAUSE.search(clause)
            if m:
                clauses.append(clause[m.start():])
        value = parse_text_list("，".join(clauses), answer) if clauses else None
    elif slot.parser == "choice":
        value = None
    else:
        parser = PARSERS.get(str(slot.parser))
        value = parser(text, answer) if parser else None
    if isinstance(value, int | float) and not isinstance(value, bool) and not in_range(slot, value):
        return None
    return value


def in_range(slot: SlotSpec, value: float) -> bool:
    """Whether a numeric value lies within the slot's bounds."""
    return not ((slot.minimum is not None and value < slot.minimum)
                or (slot.maximum is not None and value > slot.maximum))


def extract_all(action: ActionSpec, text: str, now: datetime) -> dict[str, Any]:
    """Every slot value that can be pulled out of a whole first message."""
    found: dict[str, Any] = {}
    for slot in action.slots:
        value = parse_slot(slot, text, answer=False, now=now)
        if value is not None and value != "":
            found[slot.name] = value
    return found


_BARE_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def number_readings(action: ActionSpec, params: dict[str, Any], text: str, now: datetime) -> list[tuple[float, str, Any]]:
    """A correction that is a bare number ("哦不对，171"): each numeric slot already set that could take it,
    as (relative distance from its value, slot, new value), nearest first."""
    tail = correction_tail(text)
    if tail is None or not _BARE_NUMBER.fullmatch(normalize_numerals(tail)):
        return []
    near: list[tuple[float, str, Any]] = []
    for slot in action.slots:
        old = params.get(slot.name)
        if not isinstance(old, int | float) or isinstance(old, bool):
            continue
        value = parse_slot(slot, tail, answer=True, now=now)
        if isinstance(value, int | float) and not isinstance(value, bool) and value != old:
            near.append((abs(value - old) / max(abs(old), 1.0), slot.name, value))
    return sorted(near, key=lambda n: n[0])


def nearest_number_slot(action: ActionSpec, params: dict[str, Any], text: str, now: datetime) -> dict[str, Any]:
    """"哦不对，171" while 身高170 and 体重65 wait for a yes/no: a bare number corrects the numeric slot
    whose value it is clearly nearest to (relatively); nothing when no slot, or more than one, is."""
    near = number_readings(action, params, text, now)
    if not near or near[0][0] > 0.5 or (len(near) > 1 and near[1][0] < 3 * near[0][0]):
        return {}
    return {near[0][1]: near[0][2]}


def typed(action: ActionSpec, params: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    """Params from outside the message (a model, a menu) go through the slot parsers like any answer."""
    typed: dict[str, Any] = {}
    for name, raw in params.items():
        slot = action.slot(name)
        if slot is None or raw is None or raw == "":
            continue
        value = raw if isinstance(raw, list) else parse_slot(slot, str(raw), answer=True, now=now)
        if value is not None:
            typed[name] = value
    return typed


def changed_slots(action: ActionSpec, params: Mapping[str, Any], text: str, now: datetime, *, expected: str | None = None,
                  corrections: bool = True) -> dict[str, Any]:
    """Slots of ``action`` that ``text`` names by their own units or keywords (strict parsing) with a value
    other than the one in ``params``, leaving out free-text slots (but a ``standalone`` one its skill
    recognises in the words of a correction, "记错了，是周日", and the ``expected`` one, when its skill
    extracts it). With ``corrections``, in a correction ("不是3个，是4个") the words after the last 是/改成
    count, and a corrected time is read against the one it corrects."""
    found = extract_all(action, text, now)
    tail = correction_tail(text) if corrections else None
    told = extract_all(action, tail, now) if tail else {}
    if tail:
        found.update(told)
        for name, value in found.items():  # "是4点" after 明天下午3点 is 明天16:00
            slot = action.slot(name)
            if slot is not None and slot.parser == "time" and isinstance(params.get(name), dict):
                found[name] = corrected_time(TimeExpr.from_param(value), TimeExpr.from_param(params[name]),
                                             tail).to_param()
    return {name: value for name, value in found.items()
            if (slot := action.slot(name)) is not None and params.get(name) != value
            and (slot.parser != "text" or (slot.standalone and name in told)
                 or (name == expected and slot.extract is not None and not tail))}


def another_thing(action: ActionSpec, params: Mapping[str, Any], text: str, now: datetime, *,
                  asked: str | None = None) -> bool:
    """Whether ``text`` asks for the same action about something else: a free-text slot already filled
    ("祭灶") is said again with other words ("开斋节晚上提醒我吃饭") — a new request, not a correction."""
    said = extract_all(action, text, now)
    return any(slot.parser == "text" and slot.name != asked and slot.extract is not None
               and isinstance(params.get(slot.name), str) and isinstance(said.get(slot.name), str)
               and said[slot.name] not in params[slot.name] and params[slot.name] not in said[slot.name]
               for slot in action.slots)


class _UseDefault:
    """The answer \"是\" to \"还是3个人吗？\": take the remembered value."""

    def __repr__(self) -> str:
        return "<use default>"


USE_DEFAULT = _UseDefault()
