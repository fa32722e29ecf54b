"""Re-run a user's recorded inbound messages through the current code, in a sandbox, and diff.

The sandbox is a fresh engine: an in-memory context store, a fakeredis server of its own, a
temporary SQLite file, the weather each turn recorded (``bot.recording.ReplayWeather``: the same
forecast, or the same error; the deterministic fake for turns recorded without one) and (unless
asked) no language model. Each turn runs at its original time (``Inbound.at``); nothing is delivered
and no real data is written. So a turn shows as changed only when the code answers it differently.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field

from bot.settings import Settings
from runtime.transcript import TurnEntry, TurnHandler
from runtime.turn import Inbound, TurnResult

COMPARED = ("stage", "intent", "reply")


class Outcome(BaseModel):
    """The compared part of one turn's result."""

    model_config = ConfigDict(frozen=True)

    stage: str
    intent: str
    reply: str
    llm_calls: int = 0


class TurnDiff(BaseModel):
    """One re-run turn next to its recording; ``changed`` names the compared fields that differ."""

    model_config = ConfigDict(frozen=True)

    index: int
    at: datetime
    said: str
    recorded: Outcome
    rerun: Outcome | None
    error: str | None = None
    changed: list[str] = Field(default_factory=list)


class RerunReport(BaseModel):
    """Every turn's diff plus a count of the changed ones."""

    model_config = ConfigDict(frozen=True)

    user: str
    turns: list[TurnDiff]
    changed: int
    with_llm: bool = False


def said(inbound: Inbound) -> str:
    """A one-line description of what the user sent."""
    if inbound.event:
        return f"[{inbound.event}{' ' + inbound.key if inbound.key else ''}]"
    return inbound.text


def outcome_of(replies: Sequence[str], stage: str, intent: str, llm_calls: int = 0) -> Outcome:
    """The compared fields of a turn."""
    return Outcome(stage=str(stage), intent=intent, reply="\n\n".join(replies), llm_calls=llm_calls)


def diff_turn(index: int, recorded: TurnEntry, result: TurnResult | None, error: str | None = None) -> TurnDiff:
    """Pure: compare a recorded turn with its re-run."""
    before = outcome_of(recorded.replies, recorded.trace.stage, recorded.trace.intent, recorded.trace.llm_calls)
    after = None if result is None else outcome_of(result.replies, result.trace.stage, result.trace.intent,
                                                   result.trace.llm_calls)
    changed = list(COMPARED) if after is None else [f for f in COMPARED if getattr(before, f) != getattr(after, f)]
    return TurnDiff(index=index, at=recorded.inbound.at, said=said(recorded.inbound), recorded=before,
                    rerun=after, error=error, changed=changed)


def sandbox_settings(settings: Settings, directory: Path, *, with_llm: bool = False) -> Any:
    """``settings`` pointed at nothing real: embedded Redis, a scratch SQLite, fake weather."""
    update: dict[str, Any] = {"redis_url": "", "database_url": "", "data_dir": directory, "weather_fake": True}
    if not with_llm:
        update |= {"openai_base_url": "", "openai_api_key": "", "openai_model": "", "openai_extra": {}}
    return settings.model_copy(update=update)


class Sandbox(Protocol):
    """Opens a throw-away engine for a re-run (``with_llm``: the configured model too; ``weather``: the
    port answering as recorded); everything it wrote is gone when the block ends.
    :func:`bot.compose.rerun_sandbox` builds the real one."""

    def __call__(self, *, with_llm: bool, weather: Any) -> AbstractContextManager[TurnHandler]: ...


def rerun(user: str, turns: Sequence[TurnEntry], sandbox: Sandbox, *, with_llm: bool = False) -> RerunReport:
    """Replay ``turns`` (oldest first) through the current engine in a sandbox and diff each one."""
    from bot.recording import ReplayWeather

    diffs: list[TurnDiff] = []
    weather = ReplayWeather()
    with sandbox(with_llm=with_llm, weather=weather) as engine:
        for i, entry in enumerate(turns, start=1):
            weather.load(entry.tools)
            try:
                result = engine.handle(entry.inbound)
            except Exception as exc:  # a crash in new code is exactly what a re-run must show
                diffs.append(diff_turn(i, entry, None, f"{type(exc).__name__}: {exc}"[:300]))
                continue
            diffs.append(diff_turn(i, entry, result))
    return RerunReport(user=user, turns=diffs, changed=sum(1 for d in diffs if d.changed), with_llm=with_llm)
