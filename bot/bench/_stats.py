"""Small statistics helpers shared by the benchmarks (pure)."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["percentile", "summary_ms"]


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0–100) by nearest rank; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


def summary_ms(seconds: Sequence[float]) -> dict[str, float]:
    """p50 / p90 / p99 / max of latencies given in seconds, in milliseconds (2 decimals)."""
    return {f"p{q}_ms" if q != 100 else "max_ms": round(percentile(seconds, q) * 1000, 2) for q in (50, 90, 99, 100)}
