"""The structured summary (long-term facts) and the one-sentence model summary (DESIGN §3.5).

The model summary is what a model is told of the conversation: what the bot is asking (the field it
asked for, a yes/no, a numbered choice), what it last showed — in the words of the action's
``shown_as``, so a follow-up code cannot place ("后天的呢" after a plan) can be read — the paused
tasks and the known facts. Templated, short, no JSON and no ids; the kind and size of what was shown,
never the user's own records.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from runtime._spoken import describe_params, spoken_values
from runtime.context import ConversationRuntimeContext, Focus, Summary
from runtime.skill import ActionSpec
from runtime.views import ModelSummary

__all__ = ["apply_facts", "build_model_summary", "default_for", "describe_params", "focus_facts", "shown_words",
           "spoken_values"]

MAX_CONFIRMED = 5
MAX_SUMMARY_CHARS = 200
_ID = re.compile(r"#\d+\s*|[A-Za-z0-9_\-]{8,}")  # a record picked by its id, id-like runs
_JSONISH = re.compile(r"[{}\[\]\"'<>=\n\r\t]")

# constraint name -> how a default is spoken ("还是3个人吗？")
_SPOKEN = {
    "people": lambda v: f"{int(v)}个人",
    "budget": lambda v: f"预算{_num(v)}元",
    "city": lambda v: str(v),
}


def _num(value: Any) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def apply_facts(summary: Summary, facts: Mapping[str, Any]) -> None:
    """Fold a skill result's facts into the summary (goal, constraints, confirmed, open items)."""
    for key, value in facts.items():
        if key == "goal" and value:
            summary.goal = str(value)[:20]
        elif key == "confirmed" and value:
            summary.confirmed.append(str(value)[:60])
            del summary.confirmed[:-MAX_CONFIRMED]
        elif key == "open_item" and value:
            summary.open_items = [str(value)[:60], *summary.open_items][:3]
        elif value is not None and value != "" and value != []:
            summary.constraints[key] = value


def default_for(summary: Summary, field: str) -> tuple[Any, str] | None:
    """A remembered value for ``field`` and how to say it, or None."""
    if field not in _SPOKEN or field not in summary.constraints:
        return None
    value = summary.constraints[field]
    return value, _SPOKEN[field](value)


def _fact(value: Any) -> Any:
    """A fact of a result as a template may say it: a time spoken, a whole float as an int, a list
    joined, text cleaned and short; None for what a sentence cannot carry."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, float):
        return int(value) if value.is_integer() else round(value, 1)
    if isinstance(value, int):
        return value
    if isinstance(value, Mapping) and "at" in value:
        return spoken_values({"when": value})
    if isinstance(value, str):
        return _clean(value, 16) or None
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return "、".join(_clean(v, 8) for v in value[:3]) + ("等" if len(value) > 3 else "")
    return None


def _clean(text: str, most: int) -> str:
    """``text`` safe inside the summary: no id, no JSON punctuation, one line, at most ``most`` chars."""
    flat = _JSONISH.sub("", _ID.sub("", text)).strip()
    return flat if len(flat) <= most else flat[: most - 1] + "…"


def focus_facts(focus: Focus) -> dict[str, Any]:
    """What a template may say of a result: its params and shown facts (see :func:`_fact`), and
    ``count``, ``names``, ``first`` of the things it showed (a plan's side dishes leave out the rice)."""
    facts = {k: f for k, v in {**focus.params, **focus.shown}.items() if (f := _fact(v)) is not None}
    names = [_clean(e.name, 10) for e in focus.entities if e.name and not e.attrs.get("minor")]
    names = [n for n in names if n]
    facts.update(count=len(names), first=names[0] if names else "",
                 names="、".join(names[:3]) + ("等" if len(names) > 3 else ""))
    return facts


def shown_words(focus: Focus, action: ActionSpec | None, task: str) -> str:
    """What ``focus`` showed, in the words of its action's ``shown_as`` (the task's name when it has none,
    or when its template needs a fact this result lacks)."""
    template = action.shown_as if action is not None else None
    facts = focus_facts(focus)
    said: str | None = None
    try:
        said = template.format_map(facts) if isinstance(template, str) else template(facts) if template else None
    except (KeyError, ValueError, TypeError, IndexError):
        said = None
    return _clean(str(said), 60) if said else f"做了“{task}”"


def _asked(ctx: ConversationRuntimeContext, task_name: Callable[[str], str]) -> str:
    """What the bot is waiting for: the field it asked, a yes/no, a numbered choice; "" for nothing."""
    if ctx.pending_confirmation is not None:  # the task, not the values: they may be the user's own data
        return f"在等用户回答是否确认{task_name(ctx.pending_confirmation.intent)}（是/否）"
    if ctx.active is not None and ctx.active.expected_input is not None:
        known = describe_params(ctx.active.params)
        said = f"（已知：{known}）" if known else ""
        question = _clean(ctx.active.expected_input.question, 30)
        return f"用户正在{task_name(ctx.active.intent)}{said}，机器人刚问了“{question}”"
    if ctx.active is not None:
        return f"用户正在{task_name(ctx.active.intent)}"
    clar = ctx.clarification
    if clar is not None:
        options = [o for o in clar.options if o.intent != "unknown"]
        if len({o.intent for o in options}) == 1:  # one of the things just listed: pick by number
            return f"在等用户回复序号，从{len(options)}个里挑一个"
        return f"机器人刚问用户想做哪件事（{_clean('、'.join(o.label for o in options), 30)}），在等用户回复序号"
    return ""


def build_model_summary(ctx: ConversationRuntimeContext, task_name: Callable[[str], str], *,
                        focus: Focus | None = None,
                        actions: Callable[[str, str], ActionSpec | None] | None = None) -> ModelSummary:
    """One templated Chinese sentence (≤ 200 chars, no JSON, no ids): what the bot is asking, what it last
    showed (``focus``, said by its action's ``shown_as`` found with ``actions``), the paused tasks and the
    known facts — most useful first, since a prompt that is too long cuts the sentence from its end."""
    parts: list[str] = []
    asked = _asked(ctx, task_name)
    if asked:
        parts.append(asked)
    if focus is not None:
        action = actions(focus.skill, focus.action) if actions is not None else None
        parts.append("机器人刚" + shown_words(focus, action, task_name(focus.intent)))
    if ctx.paused:
        parts.append("暂停的事：" + "、".join(task_name(p.session.intent) for p in ctx.paused))
    facts = []
    if ctx.summary.goal:
        facts.append(f"目标{_clean(ctx.summary.goal, 10)}")
    described = describe_params({k: v for k, v in ctx.summary.constraints.items()
                                  if k in ("people", "budget", "dislikes", "city")})
    if described:
        facts.append(described)
    if facts:
        parts.append("已知用户信息：" + "，".join(facts))
    text = "；".join(parts) + "。" if parts else "这是一段新的对话，没有进行中的事情。"
    return ModelSummary(text=text[:MAX_SUMMARY_CHARS])
