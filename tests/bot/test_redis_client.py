"""The lean pipeline returns what redis-py's pipeline returns, and hands every unusual case back to it."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from redis.exceptions import DataError, ResponseError

from bot.redis_client import LeanPipeline, connect
from tests.harness.edge import REAL_REDIS_URL

SCRIPT = "return {KEYS[1], ARGV[1]}"


def _fill(pipe: Any, sha: str) -> None:
    pipe.get("wx:t:done").set("wx:t:done", '["好的"]', ex=60).zadd("wx:t:z", {"u1": 1.5, "u2": 2})
    pipe.zrange("wx:t:z", 0, -1, withscores=True).hset("wx:t:h", mapping={"a": "1", "b": "二"})
    pipe.hgetall("wx:t:h").expire("wx:t:h", 100).incr("wx:t:n").lpush("wx:t:z", "x")  # a WRONGTYPE error
    pipe.evalsha(sha, 1, "wx:t:k", "值").exists("wx:t:h", "wx:t:none").ttl("wx:t:done")


@pytest.mark.redis
@pytest.mark.parametrize("decode", [False, True])
def test_replies_match_redis_py_reply_for_reply(real_redis: Any, decode: bool) -> None:
    plain = redis.Redis.from_url(REAL_REDIS_URL, decode_responses=decode)
    lean: Any = type(connect(REAL_REDIS_URL)).from_url(REAL_REDIS_URL, decode_responses=decode)
    sha = plain.script_load(SCRIPT)
    results = []
    for client in (plain, lean):
        real_redis.flushdb()
        pipe = client.pipeline(transaction=False)
        _fill(pipe, sha)
        results.append(pipe.execute(raise_on_error=False))
    expected, got = results
    assert len(got) == len(expected) == 12
    for e, g in zip(expected, got, strict=True):
        if isinstance(e, ResponseError):
            assert type(g) is type(e) and str(g) == str(e)
        else:
            assert g == e
    real_redis.flushdb()
    pipe = lean.pipeline(transaction=False)
    _fill(pipe, sha)
    with pytest.raises(ResponseError, match="Command # 9"):  # redis-py's first-error report
        pipe.execute()
    assert len(pipe) == 0 and lean.get("wx:t:n") in (b"1", "1")  # the commands around it ran


@pytest.mark.redis
def test_unusual_pipelines_go_to_redis_py(real_redis: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    lean = connect(REAL_REDIS_URL)
    assert isinstance(lean.pipeline(), LeanPipeline)
    handed: list[str] = []
    original = redis.client.Pipeline.execute

    def spy(self: Any, raise_on_error: bool = True) -> Any:
        handed.append(" ".join(str(args[0]) for args, _ in self.command_stack))
        return original(self, raise_on_error)

    monkeypatch.setattr(redis.client.Pipeline, "execute", spy)
    assert lean.pipeline().set("wx:t:a", "1").incr("wx:t:a").execute() == [True, 2]  # MULTI/EXEC
    assert lean.pipeline(transaction=False).client_setname("wxbot-t").execute() == [True]
    with pytest.raises(DataError):  # what hiredis cannot pack: redis-py's own error
        lean.pipeline(transaction=False).set("wx:t:b", None).execute()  # type: ignore[arg-type]
    assert lean.pipeline(transaction=False).set("wx:t:b", memoryview(b"v")).get("wx:t:b").execute() == [True, b"v"]
    assert handed == ["SET INCRBY", "CLIENT SETNAME", "SET"]  # the plain SET and GET stayed lean


@pytest.mark.redis
def test_a_dead_pooled_connection_is_replaced_and_the_pipeline_still_runs(real_redis: Any) -> None:
    lean = connect(REAL_REDIS_URL)
    lean.client_setname("wxbot-doomed")
    assert lean.pipeline(transaction=False).set("wx:t:c", "1").execute() == [True]
    for client in real_redis.client_list():
        if client.get("name") == "wxbot-doomed":
            real_redis.client_kill_filter(_id=client["id"])
    assert lean.pipeline(transaction=False).incr("wx:t:c").get("wx:t:c").execute() == [2, b"2"]
