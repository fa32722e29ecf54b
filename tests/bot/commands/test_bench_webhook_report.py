"""``wxbot bench webhook``'s verdict: the median of alternating flat-out rounds, and what fails it."""

from __future__ import annotations

from typing import Any

from bot.bench.webhook import report_of, saturated


def _runs(throughputs: list[float], p99: float = 2.0, **status: int) -> dict[str, Any]:
    rounds = [{"throughput_per_s": t, "statuses": {"200": 100} | status} for t in throughputs]
    return {"saturation_rounds": rounds, "offered_1000": {"latency": {"p99_ms": p99}, "statuses": {"200": 3000}}}


def test_the_share_is_the_ratio_of_median_rounds() -> None:
    assert saturated(_runs([9.0, 30.0, 10.0])) == 10.0  # one fast round does not carry the figure
    assert saturated(_runs([10.0, 12.0])) == 11.0 and saturated({}) == 0.0
    report = report_of(_runs([20000.0, 21000.0, 19000.0]), _runs([12000.0, 11000.0, 10000.0]), [250.0, 1000.0])
    figures = report["figures"]
    assert figures["empty_max_per_s"] == 20000.0 and figures["webhook_max_per_s"] == 11000.0
    assert figures["share_of_empty"] == 0.55 and report["within_target"] is True
    assert figures["rounds"]["webhook"] == [12000.0, 11000.0, 10000.0]


def test_a_low_share_a_slow_p99_or_any_error_fails_the_target() -> None:
    empty = _runs([20000.0])
    assert report_of(empty, _runs([9000.0]), [1000.0])["within_target"] is False
    assert report_of(empty, _runs([15000.0], p99=25.0), [1000.0])["within_target"] is False
    failed = report_of(empty, _runs([15000.0], **{"503": 1}), [1000.0])
    assert failed["within_target"] is False and failed["figures"]["non_200"] == 1
    assert report_of(empty, _runs([15000.0]) | {"crashes": ["Traceback"]}, [1000.0])["within_target"] is False
