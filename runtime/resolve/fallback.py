"""Stage ``fallback``: the last stage, always matches. A small tool agent, chit-chat, or a fixed answer.

With no model configured it answers deterministically (a friendly line and what the bot can do) and
makes no call. A write the model asks for comes back as ``AgentOutcome.pending`` (reply None): the
engine starts that intent's action with those params, so its usual slot filling and "确认…吗？" run.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from runtime.llm import LLM
from runtime.llm.agent import AgentOutcome, FallbackAgent
from runtime.llm.tools import AgentTool, Bundle, BundleChoice, datetime_tool, tools_from_skills
from runtime.resolve._match import Kind, Match
from runtime.skill import DomainObject
from runtime.turn import Stage
from runtime.views import ModelSummary, RouterView

__all__ = ["FallbackStage", "bundle_for", "bundle_of", "tools_for_turn"]


def tools_for_turn(skills: Iterable[Any], run_action: Callable[[Any, Mapping[str, Any]], Any],
                   read_only: Iterable[str], now: Callable[[], datetime]) -> list[AgentTool]:
    """Every tool known this turn: one per skill action, plus the built-in date tool if no skill has one."""
    tools = tools_from_skills(skills, run_action, read_only)
    if not any(t.name == "datetime_query" for t in tools):
        tools.append(datetime_tool(now))
    return tools


def bundle_of(named: Iterable[DomainObject], *, info: Iterable[str] = ()) -> BundleChoice:
    """The agent's tools for a message, from the objects of the domain it names (DESIGN §3.6, §6.6):
    the intents that act on them (reads run, writes only proposed); none named: chat only. ``info``
    are read-only intents earlier stages thought plausible."""
    intents = list(dict.fromkeys([*(i for o in named for _, i in o.ops), *info]))
    return BundleChoice(Bundle.SKILL, tuple(intents)) if intents else BundleChoice(Bundle.CHAT)


def bundle_for(text: str, objects: Iterable[DomainObject], *, info: Iterable[str] = ()) -> BundleChoice:
    """:func:`bundle_of` the objects ``text`` names or hints at (for a caller holding the words: a test)."""
    return bundle_of([o for o in objects if o.hints.search(text)], info=info)


class FallbackStage:
    """The fallback stage."""

    stage = Stage.FALLBACK

    def __init__(self, llm: LLM, *, max_iterations: int = 4) -> None:
        self._agent = FallbackAgent(llm, max_iterations=max_iterations)
        self._max_iterations = max_iterations

    def match(self, view: RouterView) -> Match:
        """Always matches (the cascade's last stage). Pure."""
        return Match(stage=Stage.FALLBACK, kind=Kind.UNKNOWN, intent="unknown", confidence=0.0)

    def handle(self, view: RouterView, summary: ModelSummary, tools: Sequence[AgentTool] = (), *,
               hints: Sequence[str] = (), llm: LLM | None = None, choice: BundleChoice | None = None,
               offline: str | None = None, done: Collection[str] = ()) -> AgentOutcome:
        """Answer the message; ``hints`` are read-only intents earlier stages thought plausible; ``llm``
        is the turn's own (metered) port when given; ``choice`` the tools for the turn; ``offline`` the
        answer the turn gets without a model (given on any model failure or a rejected reply); ``done``
        the intents carried out this turn (the only actions a reply may claim)."""
        agent = self._agent if llm is None else FallbackAgent(llm, max_iterations=self._max_iterations)
        return agent.answer(view.text, summary.text, tools, hints=hints, choice=choice, offline=offline, done=done)
