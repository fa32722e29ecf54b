"""Pure aggregation of the transcript counters into the figures ``wxbot stats`` and /admin show."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field

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
