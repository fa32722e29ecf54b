"""The transcript: every turn (inbound, replies, trace) and every delivery, per user, in Redis Streams.

Answers "what did the bot do for this user, and why?" from Redis alone. One stream per user
(``wx:{openid}:transcript``), trimmed by length (``MAXLEN ~``) and by age (``MINID ~``, plus an
idle expiry); a sorted set of recently active users; global counter hashes for ``wxbot stats``.
Each record is written in one pipeline (one round trip; no MULTI, so it also works on Redis
Cluster, where the per-user stream and the global counters live in different slots).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict

from runtime import keys
from runtime.store import RedisContextStore
from runtime.transcript._entries import (
    DeliveryEntry,
    EntryKind,
    ToolCall,
    TranscriptEntry,
    TurnEntry,
    UnreadableEntry,
    from_fields,
    recording_tools,
    stream_id_at,
    stream_id_time,
    to_fields,
)
from runtime.transcript._stats import (
    DELIVERIES,
    LATENCY,
    TURNS,
    LatencySummary,
    StatsTally,
    TranscriptStats,
    delivery_field,
    percentile,
    summarize,
    turn_increments,
)
from runtime.turn import Inbound, TurnResult

__all__ = [
    "ActiveUser", "DeliveryEntry", "EntryKind", "LatencySummary", "StatsTally", "Transcript", "TranscriptEntry",
    "TranscriptStats", "TranscribedTurns", "TurnEntry", "TurnHandler", "UnreadableEntry", "percentile", "stream_id_at",
    "stream_id_time",
]

Entry = TurnEntry | DeliveryEntry | UnreadableEntry
# The age trim of the (global) active-users index runs at most this often per process: a user past
# ``max_age`` may stay listed this much longer, and a turn's record costs one command less.
ACTIVE_TRIM_EVERY = timedelta(seconds=10)

# A single-key script (so it also runs on Redis Cluster): a record's stream writes, one command
# instead of three. Sent with EVAL (the body is short): it queues on the caller's pipeline and can
# never fail with NOSCRIPT after a Redis restart. KEYS[1]: stream; ARGV: max_len, min id, ttl,
# '~' or '=', then the entry's field/value pairs.
_APPEND = """
redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[4], ARGV[1], '*', unpack(ARGV, 5))
redis.call('XTRIM', KEYS[1], 'MINID', ARGV[4], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
"""


class ActiveUser(BaseModel):
    """A user seen recently, with the time of their last recorded activity."""

    model_config = ConfigDict(frozen=True)

    user: str
    last_active: datetime


class Transcript:
    """Thin Redis I/O around the pure entry (de)serialisation. ``redis`` is a redis-py client."""

    def __init__(self, redis: Any, *, max_len: int = 2000, max_age_days: int = 30, approximate: bool = True,
                 now: Callable[[], datetime] | None = None, tally: StatsTally | None = None) -> None:
        """``tally``: gather the global stats of records there (the owner flushes it, see
        :class:`StatsTally`); without one, each record writes its stats with its stream entry."""
        self._redis = redis
        self._tally = tally
        self.max_len = max_len
        self.max_age = timedelta(days=max_age_days)
        self._approximate = approximate
        self._now = now or (lambda: datetime.now(UTC))
        self._trimmed_at: datetime | None = None  # when this process last trimmed the active-users index

    # -- writes -------------------------------------------------------------------------------
    def record_turn(self, inbound: Inbound, result: TurnResult, tools: Sequence[ToolCall] = ()) -> None:
        """Append one turn (with what its tools answered) and update the active-users index and the
        stats counters (one pipeline)."""
        pipe = self._redis.pipeline(transaction=False)
        self.queue_turn(pipe, inbound, result, tools)
        pipe.execute()

    def queue_turn(self, pipe: Any, inbound: Inbound, result: TurnResult, tools: Sequence[ToolCall] = ()) -> None:
        """Queue :meth:`record_turn`'s commands on ``pipe`` (a non-transactional pipeline the caller
        executes, e.g. together with its own writes: one round trip for both)."""
        now = self._now()
        entry = TurnEntry(recorded_at=now, inbound=inbound, replies=list(result.replies), trace=result.trace,
                          tools=list(tools))
        tally = self._tally or StatsTally()
        tally.count(TURNS, turn_increments(result.trace))
        tally.sample(f"{result.trace.latency_ms:.3f}")
        self._queue_append(pipe, inbound.user, entry, now, tally)

    def record_delivery(self, user: str, text: str, channel: str, outcome: str, ref: str = "", *,
                        push: bool = False) -> None:
        """Append what happened to one outgoing text (``push`` for scheduled pushes, else a reply)."""
        pipe = self._redis.pipeline(transaction=False)
        self.queue_delivery(pipe, user, text, channel, outcome, ref, push=push)
        pipe.execute()

    def queue_delivery(self, pipe: Any, user: str, text: str, channel: str, outcome: str, ref: str = "", *,
                       push: bool = False) -> None:
        """Queue :meth:`record_delivery`'s commands on ``pipe`` (a non-transactional pipeline the caller
        executes with its own next round trip)."""
        now = self._now()
        entry = DeliveryEntry(recorded_at=now, user=user, text=text, channel=str(channel), outcome=str(outcome),
                              ref=ref, push=push)
        tally = self._tally or StatsTally()
        tally.count(DELIVERIES, {delivery_field(entry.channel, entry.outcome, push=push): 1})
        self._queue_append(pipe, user, entry, now, tally)

    def _queue_append(self, pipe: Any, user: str, entry: TurnEntry | DeliveryEntry, now: datetime,
                      tally: StatsTally) -> None:
        oldest = now - self.max_age
        fields = to_fields(entry)
        pipe.eval(_APPEND, 1, keys.transcript(user), self.max_len, stream_id_at(oldest),
                  int(self.max_age.total_seconds()), "~" if self._approximate else "=", "kind", fields["kind"],
                  "data", fields["data"])
        tally.touch(user, now.timestamp())
        if tally is not self._tally:
            tally.queue(pipe)  # no tally of the owner's: the stats go with the record
        trimmed = self._trimmed_at
        if trimmed is None or not timedelta(0) <= now - trimmed < ACTIVE_TRIM_EVERY:
            pipe.zremrangebyscore(keys.active_users(), "-inf", oldest.timestamp())
            self._trimmed_at = now

    def delete(self, user: str) -> None:
        """Forget a user's transcript and drop them from the active-users index."""
        pipe = self._redis.pipeline(transaction=False)
        pipe.delete(keys.transcript(user))
        pipe.zrem(keys.active_users(), user)
        pipe.execute()

    # -- reads --------------------------------------------------------------------------------
    def read(self, user: str, since: datetime | str | None = None, limit: int = 200) -> list[Entry]:
        """The user's entries, oldest first: the last ``limit`` ones, or the first ``limit`` from ``since``.

        ``since`` is a time or a stream id; with a stream id the entry itself is excluded (so a
        poller can pass the last id it saw).
        """
        stream = keys.transcript(user)
        if since is None:
            rows = list(reversed(self._redis.xrevrange(stream, count=limit)))
        elif isinstance(since, datetime):
            rows = self._redis.xrange(stream, min=stream_id_at(since), count=limit)
        else:
            rows = self._redis.xrange(stream, min=f"({since}", count=limit)
        return [from_fields(_s(entry_id), {_s(k): _s(v) for k, v in fields.items()}) for entry_id, fields in rows]

    def turns(self, user: str, since: datetime | str | None = None, limit: int = 1000) -> list[TurnEntry]:
        """Only the turn entries (for re-running the user's inbound messages)."""
        return [e for e in self.read(user, since, limit) if isinstance(e, TurnEntry)]

    def length(self, user: str) -> int:
        """How many entries the user's stream holds."""
        return int(self._redis.xlen(keys.transcript(user)))

    def users(self, limit: int = 100) -> list[ActiveUser]:
        """Recently active users, most recent first."""
        rows = self._redis.zrevrange(keys.active_users(), 0, limit - 1, withscores=True)
        return [ActiveUser(user=_s(u), last_active=datetime.fromtimestamp(float(score), tz=UTC)) for u, score in rows]

    def stats(self) -> TranscriptStats:
        """Turns by stage and intent, model calls and tokens, latency percentiles, delivery outcomes."""
        pipe = self._redis.pipeline(transaction=False)
        pipe.hgetall(keys.stats(TURNS))
        pipe.lrange(keys.stats(LATENCY), 0, -1)
        pipe.hgetall(keys.stats(DELIVERIES))
        turns, latencies, deliveries = pipe.execute()
        return summarize({_s(k): int(v) for k, v in turns.items()}, [float(_s(v)) for v in latencies],
                         {_s(k): int(v) for k, v in deliveries.items()})


class TurnHandler(Protocol):
    """An engine the transcript wraps: :class:`runtime.engine.Engine`, or a test engine.

    ``store``: its context store (None when it keeps none); ``loaded`` is only passed when that
    store is a :class:`~runtime.store.RedisContextStore`, whose reads a caller can queue ahead."""

    store: Any

    def handle(self, inbound: Inbound, *, loaded: Any = None) -> TurnResult:
        """Run one turn (from the context ``loaded`` when the caller read it ahead)."""

    def show(self, user: str, intent: str, result: Any, *, at: Any) -> None:
        """Make a result shown outside a turn (a push) the focus of the user's next message."""


class TranscribedTurns:
    """Wraps an engine so that every handled turn is also recorded in the transcript.

    Keeps the worker's ``TurnRunner`` contract (``store`` and ``handle_deferred``).
    """

    def __init__(self, engine: TurnHandler, transcript: Transcript) -> None:
        self.engine = engine
        self.transcript = transcript

    @property
    def store(self) -> RedisContextStore | None:
        """The engine's context store when a caller can read contexts ahead on its own pipelines."""
        store = self.engine.store
        return store if isinstance(store, RedisContextStore) else None

    def handle(self, inbound: Inbound) -> TurnResult:
        """Run the turn, then record it with what its tools answered (a failure to record never loses
        the turn's replies)."""
        with recording_tools() as tools:
            result: TurnResult = self.engine.handle(inbound)
        try:
            self.transcript.record_turn(inbound, result, tools)
        except Exception as exc:  # observability must not break the conversation
            result.trace.errors.append(f"transcript: {type(exc).__name__}")
        return result

    def show(self, user: str, intent: str, result: Any, *, at: Any) -> None:
        """A result shown outside a turn becomes the focus (see ``Engine.show``)."""
        self.engine.show(user, intent, result, at=at)

    def handle_deferred(self, inbound: Inbound, *, loaded: Any = None) -> tuple[TurnResult, Callable[[Any], None]]:
        """Run the turn without recording it yet; the returned function queues its record on a
        pipeline, so the caller can write it in the same round trip as its own bookkeeping (only
        after the turn committed: a turn that raised is never recorded). ``loaded``: the context
        the caller pre-read (passed on to the engine)."""
        with recording_tools() as tools:
            result: TurnResult = (self.engine.handle(inbound) if loaded is None
                                  else self.engine.handle(inbound, loaded=loaded))

        def queue(pipe: Any) -> None:
            self.transcript.queue_turn(pipe, inbound, result, tools)

        return result, queue


def _s(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
