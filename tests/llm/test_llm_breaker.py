from __future__ import annotations

from runtime.llm import BreakerState, CircuitBreaker

from .conftest import ManualTime


def test_opens_after_threshold_and_half_opens_after_cooldown(manual_time: ManualTime) -> None:
    breaker = CircuitBreaker(failure_threshold=3, cooldown_s=10, now=manual_time)
    for _ in range(2):
        assert breaker.allow()
        breaker.record_failure()
    assert breaker.state is BreakerState.CLOSED
    breaker.record_failure()
    assert breaker.state is BreakerState.OPEN
    assert not breaker.allow()
    manual_time.advance(10)
    assert breaker.state is BreakerState.HALF_OPEN
    assert breaker.allow()  # the single probe
    assert not breaker.allow()  # nobody else while it is in flight
    breaker.record_success()
    assert breaker.state is BreakerState.CLOSED
    assert breaker.allow()


def test_failed_probe_reopens_for_a_full_cooldown(manual_time: ManualTime) -> None:
    breaker = CircuitBreaker(failure_threshold=1, cooldown_s=5, now=manual_time)
    breaker.record_failure()
    manual_time.advance(5)
    assert breaker.allow()
    breaker.record_failure()
    assert breaker.state is BreakerState.OPEN
    manual_time.advance(4.9)
    assert not breaker.allow()


def test_success_resets_the_consecutive_count(manual_time: ManualTime) -> None:
    breaker = CircuitBreaker(failure_threshold=2, cooldown_s=5, now=manual_time)
    breaker.record_failure()
    breaker.record_success()
    breaker.record_failure()
    assert breaker.state is BreakerState.CLOSED


def test_release_frees_the_probe_without_judging_health(manual_time: ManualTime) -> None:
    breaker = CircuitBreaker(failure_threshold=1, cooldown_s=5, now=manual_time)
    breaker.record_failure()
    manual_time.advance(5)
    assert breaker.allow()
    breaker.release()
    assert breaker.state is BreakerState.HALF_OPEN
    assert breaker.allow()
