"""More own-example templates, one module per topic: timers (``_templates_timers``), small talk and
out-of-scope look-alikes (``_templates_chat``), everyday questions (``_templates_everyday``); see ``synth``.

Keys are ``label:group``; the label is the part before the colon. Timers are reminders: starting one
is ``reminder.create`` (so is lengthening or shortening one: the closest thing the bot can do is a
new reminder), asking how long is left or pausing/resuming one is ``reminder.list`` (show what is
set), stopping one is ``reminder.cancel``. Chat about food or exercise that asks the bot for nothing
("周末想跟朋友聚聚吃点啥好", "最近动得咋样") is ``chitchat``; a vague request with no object
("帮我把那个事儿取消了吧") is ``unknown``, so the bot asks instead of guessing a task.
"""

from __future__ import annotations

from . import _templates_chat, _templates_everyday, _templates_timers

_TOPICS = (_templates_timers, _templates_chat, _templates_everyday)
MORE_SLOTS: dict[str, tuple[str, ...]] = {k: v for m in _TOPICS for k, v in m.SLOTS.items()}
MORE_TEMPLATES: dict[str, tuple[str, ...]] = {k: v for m in _TOPICS for k, v in m.TEMPLATES.items()}

MORE_TARGETS: dict[str, int] = {
    "reminder.create:timer": 320,
    "reminder.list:timer": 180,
    "reminder.cancel:timer": 150,
    "chitchat:small": 70,
    "chitchat:tasky": 220,
    "recipe.query:colloquial": 120,
    "unknown:vague": 110,
    "unknown:home": 160,
    "weather.query:colloquial": 90,
    "datetime.query:colloquial": 140,
    "reminder.create:note": 150,
    "exercise.log:done": 120,
}
