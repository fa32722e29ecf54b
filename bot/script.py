"""Dialogue scripts (DESIGN §3.7): JSON Lines in, one contract-shaped JSON object out per line.

Used by ``wxbot chat --script`` and by the dialogue tests, so both take the same code path.
The script clock starts at the first ``at`` (or ``advance_to``) of the script, whatever the date, so a
script gives the same output on any day; after that time only moves forward. Every output carries
``line``, the 1-based input line it answers (blank lines and ``#`` comments count but yield nothing).
A bad line yields ``{"line": n, "error": …, "input": …}`` and the run goes on.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from bot.delivery.policy import Channel, DeliveryFacts, QuotaState, decide
from runtime.clock import ClockWentBack, SettableClock
from runtime.turn import Inbound, Origin, TurnResult

DuePushes = Callable[[datetime], list[Any]]


class _Conversation(Protocol):
    """What a script talks to: the engine, or the engine with its turns recorded."""

    def handle(self, inbound: Inbound) -> TurnResult: ...

    def show(self, user: str, intent: str, result: Any, *, at: datetime) -> None: ...

ECHO_CHARS = 60


class ScriptLine(BaseModel):
    """One input line: a user message, a WeChat event, or a clock move."""

    model_config = ConfigDict(extra="forbid")

    user: str | None = None
    text: str | None = None
    event: str | None = None
    key: str | None = None
    at: datetime | None = None
    advance_to: datetime | None = None
    origin: str | None = None

    @model_validator(mode="after")
    def _shape(self) -> ScriptLine:
        for moment in (self.at, self.advance_to):
            if moment is not None and moment.tzinfo is None:
                raise ValueError("times need a UTC offset, e.g. 2026-12-01T20:00:00+08:00")
        if self.advance_to is not None:
            if self.user or self.text is not None or self.event:
                raise ValueError("advance_to stands on a line of its own")
            return self
        if not self.user:
            raise ValueError("a line needs 'user' (or 'advance_to')")
        if (self.text is None) == (self.event is None):
            raise ValueError("a user line needs exactly one of 'text' or 'event'")
        return self


@dataclass
class _UserChannel:
    quota: QuotaState = field(default_factory=QuotaState)
    parked: list[str] = field(default_factory=list)
    unsubscribed: bool = False


@dataclass
class ScriptRunner:
    """Runs script lines against one engine on a settable clock.

    ``clock``: the script clock; None (the usual case) starts it at ``start`` if given (``--now``),
    else at the script's first ``at``/``advance_to``, else at the wall clock.
    """

    engine: _Conversation
    clock: SettableClock | None = None
    due_pushes: DuePushes | None = None
    touch_notice: Callable[[str], str | None] | None = None
    template_id: str | None = None
    start: datetime | None = None
    run_id: str = field(default_factory=lambda: uuid.uuid4().hex[:8])
    _users: dict[str, _UserChannel] = field(default_factory=dict)
    _count: int = 0

    def run_lines(self, lines: Iterable[str]) -> Iterator[dict[str, Any]]:
        """One output object per input line that is neither blank nor a ``#`` comment."""
        numbered = [(n, raw) for n, raw in enumerate(lines, 1) if _meaningful(raw)]
        if self.clock is None:
            self.clock = SettableClock(self.start or _first_moment(raw for _, raw in numbered)
                                       or datetime.now(UTC))
        for number, raw in numbered:
            yield self.run_line(raw, number=number)

    def run_line(self, raw: str, *, number: int | None = None) -> dict[str, Any]:
        """Process one JSON line; never raises for bad input."""
        self._count += 1
        number = self._count if number is None else number
        out = self._process(raw)
        if "error" in out:
            out["input"] = _echo(raw)
        return {"line": number, **out}

    def _process(self, raw: str) -> dict[str, Any]:
        try:
            line = ScriptLine.model_validate_json(raw)
        except ValidationError as exc:
            return {"error": _one_line(exc)}
        except ValueError as exc:  # pragma: no cover - pydantic wraps JSON errors in ValidationError
            return {"error": str(exc)[:200]}
        if self.clock is None:
            self.clock = SettableClock(self.start or line.at or line.advance_to or datetime.now(UTC))
        clock = self.clock
        moment = line.advance_to or line.at
        if moment is not None:
            try:
                clock.set(moment)
            except ClockWentBack as exc:
                field_name = "advance_to" if line.advance_to is not None else "at"
                return {"error": f"{field_name}: {exc.requested.isoformat()} is before the script clock "
                                 f"({exc.current.isoformat()}); time only moves forward"}
        if line.advance_to is not None:
            return _advance_line(line.advance_to, self._pushes())
        assert line.user is not None
        try:
            inbound = self._inbound(line)
        except ValidationError as exc:
            return {"error": _one_line(exc)}
        pushes = self._pushes()
        result = self.engine.handle(inbound)
        channel = self._users.setdefault(line.user, _UserChannel())
        replies = list(result.replies)
        notice = self.touch_notice(line.user) if self.touch_notice and line.event is None else None
        if notice:
            replies = ["\n\n".join([notice, *replies])] if replies else [notice]
        if line.event is None or (line.event or "").lower() in ("subscribe", "click", "scan"):
            if channel.parked and replies:
                replies[0] = "\n\n".join([*channel.parked, replies[0]])
                channel.parked.clear()
            self._touch(channel, line)
        if result.data.get("unsubscribed"):
            channel.unsubscribed = True
        if result.data.get("subscribed"):
            channel.unsubscribed = False
        trace = result.trace
        return {
            "user": line.user, "replies": replies, "stage": str(trace.stage), "intent": trace.intent,
            "skill": trace.skill, "llm_calls": trace.llm_calls, "prompt_tokens": trace.prompt_tokens,
            "completion_tokens": trace.completion_tokens, "state": result.state.model_dump(),
            "pushes": pushes,
        }

    def now(self) -> datetime:
        """The script clock's time (the wall clock before the script has started it)."""
        return self.clock.now() if self.clock is not None else datetime.now(UTC)

    def _inbound(self, line: ScriptLine) -> Inbound:
        msg_id = f"script-{self.run_id}-{self._count}"
        if line.event is not None:
            event = "CLICK" if line.event.lower() == "click" else line.event.lower()
            return Inbound(user=line.user or "", event=event, key=line.key, origin=Origin.EVENT,
                           msg_id=msg_id, at=self.now())
        origin = Origin(line.origin) if line.origin in {o.value for o in Origin} else Origin.TEXT
        return Inbound(user=line.user or "", text=line.text or "", origin=origin, msg_id=msg_id, at=self.now())

    def _touch(self, channel: _UserChannel, line: ScriptLine) -> None:
        now = self.now().timestamp()
        q = channel.quota
        if line.event is None:
            channel.quota = QuotaState(now, 0, q.last_interaction_at, q.interaction_used)
        else:
            channel.quota = QuotaState(q.last_message_at, q.message_used, now, 0)

    def _pushes(self) -> list[dict[str, Any]]:
        if self.due_pushes is None:
            return []
        out: list[dict[str, Any]] = []
        now = self.now()
        for push in self.due_pushes(now):
            if hasattr(push, "shown"):  # what fired is what the user's next words refer to
                self.engine.show(push.user, *push.shown(), at=now)
            channel = self._users.setdefault(push.user, _UserChannel())
            plan = decide(DeliveryFacts(texts=(push.text,), now=now.timestamp(), quota=channel.quota,
                                        template_id=self.template_id, unsubscribed=channel.unsubscribed))
            for step in plan.steps:
                if step.channel is Channel.CUSTOM:
                    q = channel.quota
                    channel.quota = (QuotaState(q.last_message_at, q.message_used, q.last_interaction_at,
                                                q.interaction_used + 1) if str(step.allowance) == "interaction"
                                     else QuotaState(q.last_message_at, q.message_used + 1,
                                                     q.last_interaction_at, q.interaction_used))
                elif step.channel is Channel.PARK:
                    channel.parked.append(step.text)
                out.append({"user": push.user, "text": step.text, "channel": str(step.channel)})
        return out


def _meaningful(raw: str) -> bool:
    """A line that is neither blank nor a comment."""
    stripped = raw.strip()
    return bool(stripped) and not stripped.startswith("#")


def _first_moment(lines: Iterable[str]) -> datetime | None:
    """The first valid ``at``/``advance_to`` of the script: where its clock starts."""
    for raw in lines:
        try:
            line = ScriptLine.model_validate_json(raw)
        except (ValidationError, ValueError):
            continue
        moment = line.at or line.advance_to
        if moment is not None:
            return moment
    return None


def _echo(raw: str) -> str:
    """A short echo of a bad input line, for the error object."""
    text = raw.strip()
    return text if len(text) <= ECHO_CHARS else text[:ECHO_CHARS - 1] + "…"


def _one_line(exc: ValidationError) -> str:
    first = exc.errors()[0] if exc.errors() else {"msg": str(exc)}
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "__root__")
    msg = str(first.get("msg", "invalid line")).removeprefix("Value error, ")
    return f"{where}: {msg}" if where else msg


def dumps(obj: dict[str, Any]) -> str:
    """One output line: compact JSON with Chinese left readable."""
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))


def _advance_line(moment: datetime, pushes: list[dict[str, Any]]) -> dict[str, Any]:
    """The output of an ``advance_to`` line: every field of the output contract, as no user's turn.

    No model is asked when the clock moves, so the counters are 0; the state is the empty one.
    """
    return {
        "advance_to": moment.isoformat(), "user": None, "replies": [], "stage": None, "intent": None,
        "skill": None, "llm_calls": 0, "prompt_tokens": 0, "completion_tokens": 0,
        "state": {"active_skill": None, "expected_field": None, "paused": [], "pending_confirmation": None},
        "pushes": pushes,
    }
