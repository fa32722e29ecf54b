"""The lean pipeline returns what redis-py's pipeline returns, and hands every unusual case back to it."""

from __future__ import annotations

import gc
import threading
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
def test_a_dead_connection_is_replaced_and_the_pipeline_still_runs(real_redis: Any) -> None:
    lean = connect(REAL_REDIS_URL)
    assert lean.pipeline(transaction=False).set("wx:t:c", "1").client_setname("wxbot-doomed").execute() == [True, True]
    killed = [c for c in real_redis.client_list() if c.get("name") == "wxbot-doomed"]
    assert len(killed) == 1  # the thread's own connection of the lean pipelines
    real_redis.client_kill_filter(_id=killed[0]["id"])
    assert lean.pipeline(transaction=False).incr("wx:t:c").get("wx:t:c").execute() == [2, b"2"]
    assert lean.pipeline(transaction=False).incr("wx:t:c").execute() == [3]  # and on the connection after


@pytest.mark.redis
def test_each_thread_keeps_one_connection_and_gives_it_back_when_it_ends(real_redis: Any) -> None:
    lean = connect(REAL_REDIS_URL)
    pool: Any = lean.connection_pool

    together = threading.Barrier(4)

    def round_trips(meet: bool = True) -> None:
        for _ in range(20):
            assert lean.pipeline(transaction=False).incr("wx:t:n").execute()[0] > 0
        if meet:  # all four hold their connection at once
            together.wait(timeout=10)

    round_trips(meet=False)
    mine = len(pool._in_use_connections)
    assert mine == 1  # twenty round trips, one connection, never checked out and back
    threads = [threading.Thread(target=round_trips) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    gc.collect()
    assert len(pool._in_use_connections) == mine  # the ended threads' connections are back in the pool
    assert len(pool._available_connections) >= 4


@pytest.mark.redis
def test_replies_are_read_from_the_parser_in_one_pass_even_across_many_socket_reads(
        real_redis: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    lean = connect(REAL_REDIS_URL)
    big = "字" * 400_000  # 1.2 MB: many socket reads for one reply
    lean.set("wx:t:big", big)
    calls: list[int] = []
    original = redis.connection.Connection.read_response

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(redis.connection.Connection, "read_response", counted)
    pipe = lean.pipeline(transaction=False)
    pipe.get("wx:t:big").strlen("wx:t:big").lpush("wx:t:big", "x").get("wx:t:none")
    got = pipe.execute(raise_on_error=False)
    assert got[0].decode() == big and got[1] == len(big.encode()) and got[3] is None
    assert isinstance(got[2], ResponseError) and "WRONGTYPE" in str(got[2])
    assert calls == []  # no per-reply trip through redis-py's read_response
