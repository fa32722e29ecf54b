"""Fixtures for the LLM layer tests: a real fake OpenAI server over HTTP and an adapter pointed at it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from runtime.llm import CircuitBreaker, LLMConfig, OpenAILLM
from runtime.llm.testkit import FakeOpenAI


class ManualTime:
    """A monotonic clock tests move by hand."""

    def __init__(self) -> None:
        self.value = 1000.0

    def __call__(self) -> float:
        return self.value

    def advance(self, seconds: float) -> None:
        self.value += seconds


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(api_key="test-key") as server:
        yield server


@pytest.fixture
def manual_time() -> ManualTime:
    return ManualTime()


@pytest.fixture
def llm(fake: FakeOpenAI, manual_time: ManualTime) -> Iterator[OpenAILLM]:
    config = LLMConfig.from_env(fake.env(OPENAI_TIMEOUT="0.4", OPENAI_MAX_RETRIES="1"))
    adapter = OpenAILLM(
        config, breaker_factory=lambda: CircuitBreaker(failure_threshold=2, cooldown_s=30, now=manual_time)
    )
    yield adapter
    adapter.close()
