"""The transcript's global stats: the counters' pure aggregation into the figures ``wxbot stats`` and
/admin show, and the tally that gathers what records add to them (counter increments, latency
samples, active-user times) and writes it as a few commands for many records.

Every record adds to the ``wx:stats:*`` counter hashes, the capped latency list and the
active-users index. Written per record, that is two scripts and up to three more commands per turn
on keys every worker shares. A :class:`StatsTally` keeps them in memory until :meth:`StatsTally.queue`
puts them on a pipeline (or :meth:`StatsTally.flush` sends them): one ``HINCRBY`` script per
counter hash, one ``LPUSH``/``LTRIM`` for every sample, one ``ZADD`` for every user. A worker
flushes after each batch of users and each job, so the stats trail the conversations by at most a
batch; a worker that dies loses at most that batch's counts (the conversations themselves are in
the per-user streams, written with each turn).
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from runtime import keys
from runtime.turn import Stage, TurnTrace

LATENCY_SAMPLES = 1000
TURNS, LATENCY, DELIVERIES = "turns", "latency", "deliveries"  # the counter keys under wx:stats:


class LatencySummary(BaseModel):
    """Percentiles over the most recent turns' engine latency, in milliseconds."""

    model_config = ConfigDict(frozen=True)

    samples: int = 0
    p50: float = 0.0
    p90: float = 0.0
    p99: float = 0.0
    max: float = 0.0


class TranscriptStats(BaseModel):
    """Totals since the counters were created."""

    model_config = ConfigDict(frozen=True)

    turns: int = 0
    by_stage: dict[str, int] = Field(default_factory=dict)
    by_intent: dict[str, int] = Field(default_factory=dict)
    zero_model: int = 0
    llm_calls: int = 0
    llm_calls_by_stage: dict[str, int] = Field(default_factory=dict)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    turns_with_errors: int = 0
    latency: LatencySummary = Field(default_factory=LatencySummary)
    deliveries: dict[str, int] = Field(default_factory=dict)

    @property
    def zero_model_share(self) -> float:
        """Share of turns decided and answered without any model call (0..1)."""
        return self.zero_model / self.turns if self.turns else 0.0


def turn_increments(trace: TurnTrace) -> dict[str, int]:
    """The counter-hash increments one turn contributes (field → amount)."""
    stage = str(trace.stage)
    out = {"total": 1, f"stage:{stage}": 1, f"intent:{trace.intent}": 1}
    if trace.llm_calls == 0:
        out["zero_model"] = 1
    else:
        out["llm_calls"] = trace.llm_calls
        out[f"llm_calls:{stage}"] = trace.llm_calls
        out["prompt_tokens"] = trace.prompt_tokens
        out["completion_tokens"] = trace.completion_tokens
    if trace.errors:
        out["with_errors"] = 1
    return out


def delivery_field(channel: str, outcome: str, *, push: bool) -> str:
    """The counter field of one delivery: ``reply:custom:sent``, ``push:template:failed`` …"""
    return f"{'push' if push else 'reply'}:{channel}:{outcome}"


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` percentile (0 < q <= 100) of ``values``; 0.0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def summarize(turns: Mapping[str, int], latencies: Sequence[float], deliveries: Mapping[str, int]) -> TranscriptStats:
    """Build :class:`TranscriptStats` from the raw counter hashes and latency samples."""

    def prefixed(prefix: str) -> dict[str, int]:
        return {k[len(prefix):]: v for k, v in sorted(turns.items()) if k.startswith(prefix)}

    by_stage = {s.value: turns.get(f"stage:{s.value}", 0) for s in Stage}
    latency = LatencySummary(samples=len(latencies), p50=percentile(latencies, 50), p90=percentile(latencies, 90),
                             p99=percentile(latencies, 99), max=max(latencies, default=0.0))
    return TranscriptStats(
        turns=turns.get("total", 0), by_stage=by_stage, by_intent=prefixed("intent:"),
        zero_model=turns.get("zero_model", 0), llm_calls=turns.get("llm_calls", 0),
        llm_calls_by_stage=prefixed("llm_calls:"), prompt_tokens=turns.get("prompt_tokens", 0),
        completion_tokens=turns.get("completion_tokens", 0), turns_with_errors=turns.get("with_errors", 0),
        latency=latency, deliveries=dict(sorted(deliveries.items())),
    )


# -- the tally -------------------------------------------------------------------------------------
# Single-key scripts (so they also run on Redis Cluster). Sent with EVAL (the bodies are short): they
# queue on the caller's pipeline and can never fail with NOSCRIPT after a Redis restart.
_HINCRBY_ALL = """
for i = 1, #ARGV, 2 do redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1]) end
"""
_PUSH_CAPPED = """
redis.call('LPUSH', KEYS[1], unpack(ARGV, 2))
redis.call('LTRIM', KEYS[1], 0, ARGV[1])
"""


class StatsTally:
    """What records added to the global stats since the last :meth:`queue` (safe across threads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[str, Counter[str]] = {}
        self._latency: list[str] = []
        self._active: dict[str, float] = {}

    def count(self, stats: str, increments: Mapping[str, int]) -> None:
        """Add ``increments`` (field → amount) to the counter hash ``stats`` (``turns``, ``deliveries``)."""
        with self._lock:
            self._counts.setdefault(stats, Counter()).update(increments)

    def sample(self, latency: str) -> None:
        """One turn's engine latency (formatted) for the capped latency list."""
        with self._lock:
            self._latency.append(latency)

    def touch(self, user: str, at: float) -> None:
        """``user`` was active at ``at`` (a Unix time) for the active-users index."""
        with self._lock:
            self._active[user] = max(at, self._active.get(user, at))

    @property
    def pending(self) -> bool:
        return bool(self._counts or self._latency or self._active)

    def queue(self, pipe: Any) -> bool:
        """Queue everything gathered on ``pipe`` (the caller executes it) and start afresh; False when
        there was nothing."""
        with self._lock:
            counts, latency, active = self._counts, self._latency, self._active
            if not (counts or latency or active):
                return False
            self._counts, self._latency, self._active = {}, [], {}
        for stats, fields in counts.items():
            pairs = [x for field, n in fields.items() if n for x in (field, n)]
            if pairs:
                pipe.eval(_HINCRBY_ALL, 1, keys.stats(stats), *pairs)
        if latency:
            pipe.eval(_PUSH_CAPPED, 1, keys.stats(LATENCY), LATENCY_SAMPLES - 1, *latency[-LATENCY_SAMPLES:])
        if active:
            pipe.zadd(keys.active_users(), active)
        return True

    def flush(self, redis: Any) -> None:
        """Send what was gathered in one round trip of its own (nothing when nothing was)."""
        pipe = redis.pipeline(transaction=False)
        if self.queue(pipe):
            pipe.execute()
