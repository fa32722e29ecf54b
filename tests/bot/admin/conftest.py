"""Fixtures for the admin/observability tests: the tests' Redis DB 5, fakeredis, sample turns."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import fakeredis
import pytest
import redis

from runtime.turn import Inbound, Stage, StateSnapshot, TurnResult, TurnTrace
from tests.harness.redis_server import flushed_db, private_url

REAL_REDIS_URL = private_url(5)


@pytest.fixture
def real_redis() -> Iterator[redis.Redis]:
    yield from flushed_db(REAL_REDIS_URL)


@pytest.fixture
def fake_redis() -> fakeredis.FakeRedis:
    return fakeredis.FakeRedis(server=fakeredis.FakeServer())


def make_turn(user: str = "u1", text: str = "现在几点", *, stage: Stage = Stage.RULES,
              intent: str = "datetime.query", reply: str = "现在是 20:00。", llm_calls: int = 0,
              at: datetime | None = None, msg_id: str = "m1", latency_ms: float = 3.0,
              errors: list[str] | None = None) -> tuple[Inbound, TurnResult]:
    """One inbound message and a plausible result for it."""
    inbound = Inbound(user=user, text=text, msg_id=msg_id, at=at or datetime(2026, 12, 1, 12, tzinfo=UTC))
    trace = TurnTrace(turn_id=f"t-{msg_id}", user=user, msg_id=msg_id, stage=stage, intent=intent,
                      confidence=0.9, skill="datetime", action="now", llm_calls=llm_calls,
                      prompt_tokens=100 * llm_calls, completion_tokens=10 * llm_calls, latency_ms=latency_ms,
                      errors=errors or [], state_before=StateSnapshot(),
                      state_after=StateSnapshot(active_skill=None))
    return inbound, TurnResult(replies=[reply], trace=trace, state=trace.state_after)

