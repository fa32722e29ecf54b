"""Stage ``rules``: precise, high-confidence patterns for the intents of DESIGN §3.2.

Each skill declares its own rules (``SkillSpec.triggers``); the engine compiles them once, in their
``order``. Only wording is looked at — never the user's lists or business data (DESIGN §6.2). The
first rule that matches and is not vetoed by its ``unless`` pattern wins. Parameters are extracted
afterwards by the engine from the skill's slot specs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from runtime.cascade._match import Kind, Match
from runtime.parsers.numbers import normalize_numerals
from runtime.parsers.slots import parse_duration
from runtime.skill import Trigger
from runtime.turn import Stage
from runtime.views import RouterView

CONFIDENCE = 0.95


@dataclass(frozen=True, slots=True)
class Rule:
    """One pattern for one intent."""

    name: str
    intent: str
    pattern: re.Pattern[str]
    unless: re.Pattern[str] | None = None

    def matches(self, text: str) -> bool:
        """True when the pattern is found and the veto is not."""
        return bool(self.pattern.search(text)) and not (self.unless and self.unless.search(text))


def _r(name: str, intent: str, pattern: str, unless: str | None = None) -> Rule:
    return Rule(name, intent, re.compile(pattern, re.I), re.compile(unless, re.I) if unless else None)


# Small talk is the engine's own (no skill serves it); every other rule is a skill's Trigger.
CHITCHAT_RULE = _r(
    "chitchat", "chitchat",
    r"^(你好|您好|hi|hello|嗨|哈喽|在吗|在不在|早上好|早安|中午好|下午好|晚上好|晚安|谢谢|谢啦|多谢|感谢|辛苦了|再见|拜拜|哈哈+|嘿嘿|你是谁|你叫什么|你是机器人吗)"
    r"[！!。.～~？?]*$")


# "那广州呢" / "明天呢" / "那要是周四呢" / "换成上海" / "不对，是6个人": a message that only makes sense
# against the last query's frame. The fragment is handed to that query's slot extraction.
_LEAD = r"^(?:哦|噢|啊|呃|额|嗯|不用了|算了|还是|要不)?[，,]?"  # "不用了，改成9点半"
_FOLLOW_UP = re.compile(
    _LEAD + r"(?:(?:那要是|那换成|那么|如果是|要是|换成|改成|那)\s*(?P<a>.{1,16}?)(?:的话)?(?:呢|怎么样|咋样|如何)?"
    r"|(?P<b>.{1,12}?)(?:的话)?(?:呢|怎么样呢|又怎么样))[?？。!！~～]*$")
_CORRECTED = re.compile(_LEAD + r"(?:不对|不是|错了|说错了)[，,、。\s]*(?:是|应该是|改成|其实是)?\s*(?P<c>.{1,20}?)[。!！~～]*$")


# "提前半小时提醒我" right after a reminder was set: the time of the last task, moved earlier
_AHEAD = re.compile(_LEAD + r"(?:那|那就|就|再|请|麻烦你?)?提前\s*(?P<d>[^，,。!！?？\s]{1,8}?)"
                    r"(?:再?(?:提醒|叫|通知|告诉|喊)我?)?(?:一下|一声)?(?:吧|啊|哈|呀|就行|就好)?[。!！~～]*$")
_AHEAD_DAYS = re.compile(r"(\d+)\s*(?:天|日)")


def ahead_minutes(text: str) -> float | None:
    """Minutes of "提前半小时(提醒我)" / "提前一天" (a message that only says how much earlier), else None."""
    m = _AHEAD.match(text.strip())
    if m is None:
        return None
    said = normalize_numerals(m.group("d"))
    days = _AHEAD_DAYS.fullmatch(said)
    minutes = float(days.group(1)) * 1440 if days else parse_duration(said, False)
    return minutes if minutes and 0 < minutes <= 60 * 24 * 31 else None


def follow_up_fragment(text: str) -> str | None:
    """The changed part of an elliptical follow-up or a correction, or None when ``text`` is not one."""
    t = text.strip()
    m = _FOLLOW_UP.match(t) or _CORRECTED.match(t)
    if m is None:
        return None
    fragment = next((g for g in m.groups() if g), "").strip("，, ")
    return fragment or None


def is_elliptical_question(text: str) -> bool:
    """"那广州呢", "那要是周四呢": a question that only makes sense against the last query's frame
    (a correction such as "不对，是6个人" is not one)."""
    return _FOLLOW_UP.match(text.strip()) is not None


def rules_from(triggers: Iterable[Trigger]) -> tuple[Rule, ...]:
    """Compiled rules for skill triggers (in the order given), then the small-talk rule."""
    return (*(_r(t.name, t.intent, t.pattern, t.unless) for t in triggers), CHITCHAT_RULE)


class RuleRouter:
    """Pure pattern matching over the router view's text."""

    stage = Stage.RULES

    def __init__(self, rules: tuple[Rule, ...], known_intents: frozenset[str] | None = None) -> None:
        self._rules = rules
        self._known = known_intents

    def classify(self, text: str) -> tuple[str, str] | None:
        """(intent, rule name) for ``text``, or None."""
        for rule in self._rules:
            if (self._known is None or rule.intent in self._known or rule.intent == "chitchat") \
                    and rule.matches(text):
                return rule.intent, rule.name
        return None

    def match_follow_up(self, view: RouterView) -> Match | None:
        """An elliptical follow-up of the last query ("那广州呢"), when there is a last query."""
        if not view.last_intent or view.origin not in ("text", "voice"):
            return None
        ahead = ahead_minutes(view.text)
        if ahead is not None:
            return Match(self.stage, Kind.FOLLOW_UP, intent=view.last_intent, confidence=CONFIDENCE,
                         params={"fragment": view.text.strip(), "correction": True, "ahead": ahead},
                         detail=f"{view.last_intent} moved {ahead:g} minutes earlier")
        fragment = follow_up_fragment(view.text)
        if fragment is None or self.classify(view.text.strip()) is not None:
            return None
        corrected = _CORRECTED.match(view.text.strip()) is not None or \
            re.sub(_LEAD, "", view.text.strip()).startswith(("改成", "改为", "换成", "改到"))
        return Match(self.stage, Kind.FOLLOW_UP, intent=view.last_intent, confidence=CONFIDENCE,
                     params={"fragment": fragment, "correction": corrected},
                     detail=f"{'correction' if corrected else 'follow-up'} of {view.last_intent}: {fragment}")

    def match(self, view: RouterView) -> Match | None:
        if view.origin not in ("text", "voice", "menu") or not view.text.strip():
            return None
        found = self.classify(view.text.strip())
        if found is None:
            return None
        intent, name = found
        kind = Kind.CHITCHAT if intent == "chitchat" else Kind.INTENT
        return Match(self.stage, kind, intent=intent, confidence=CONFIDENCE, detail=f"rule {name}")
