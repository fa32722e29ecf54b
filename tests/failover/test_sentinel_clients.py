"""Each Redis client of wxbot through Sentinel, and the webhook's wait for a replica (real servers).

Unit-sized checks under the end-to-end fail-over test: the settings, redis-py (workers, RQ,
scheduler, admin) and the webhook's own pipelined connection and subscriber find the master, find
the promoted replica after a fail-over, drop a master that became a replica, and accept a message only
once a replica holds it.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from typing import Any

import pytest
import redis
from pydantic import ValidationError
from redis.exceptions import ConnectionError as RedisConnectionError

from bot.bench import free_port
from bot.queue import make_queue
from bot.redis_client import Call, LeanRedis, RedisTarget, connect, parse_sentinels
from bot.settings import Settings
from bot.webhook import PipelinedScripts, SentinelAddress, ThreadedScripts, script_runner
from tests.harness.sentinel import MASTER, SentinelCluster, wait_for

pytestmark = pytest.mark.redis
PUSH = "redis.call('RPUSH', KEYS[1], ARGV[1]); return redis.call('LLEN', KEYS[1])"


def _run(scripts: Any, *calls: Call) -> list[Any]:
    async def main() -> list[Any]:
        try:
            return list(await asyncio.gather(*(scripts.run(c) for c in calls), return_exceptions=True))
        finally:
            scripts.close()

    return asyncio.run(main())


def test_settings_name_the_sentinels_and_the_master() -> None:
    settings = Settings.from_env({"REDIS_SENTINELS": "10.0.0.1:26379, 10.0.0.2:26380,[::1]:26381",
                                  "REDIS_SENTINEL_MASTER": "wxbot", "REDIS_URL": "redis://:s%40cret@sentinel/3"})
    target = settings.redis_target()
    assert not settings.embedded and target.uses_sentinel and target.wait_replicas == 1
    assert target.sentinels == (("10.0.0.1", 26379), ("10.0.0.2", 26380), ("::1", 26381))
    assert target.credentials() == (None, "s@cret", 3)
    assert "cret" not in target.describe() and "wxbot" in target.describe()
    assert Settings.from_env({"REDIS_URL": "redis://127.0.0.1:1/0"}).redis_target().wait_replicas == 0
    assert Settings.from_env({"REDIS_URL": "redis://h/0", "REDIS_WAIT_REPLICAS": "2"}).redis_target().wait_replicas == 2
    with pytest.raises(ValidationError, match="is not host:port"):
        Settings.from_env({"REDIS_SENTINELS": "10.0.0.1", "REDIS_SENTINEL_MASTER": "wxbot"})
    with pytest.raises(ValidationError, match="REDIS_SENTINEL_MASTER"):
        Settings.from_env({"REDIS_SENTINELS": "10.0.0.1:26379"})
    assert parse_sentinels("") == ()


def test_a_bad_sentinel_setting_is_one_clear_line_from_the_cli(capsys: pytest.CaptureFixture[str],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.cli import main

    monkeypatch.setenv("REDIS_SENTINELS", "10.0.0.1:26379")
    assert main(["stats"]) == 2
    assert capsys.readouterr().err.strip() == (
        "wxbot: bad setting: redis_sentinel_master: Value error, REDIS_SENTINELS is set: name the master "
        "they watch in REDIS_SENTINEL_MASTER")


def test_every_client_finds_the_master_and_after_a_failover_the_promoted_replica(cluster: SentinelCluster) -> None:
    target = Settings.from_env(cluster.env(db=2)).redis_target()
    client = connect(target)
    assert isinstance(client, LeanRedis)
    client.set("before", "1")
    pipe = client.pipeline(transaction=False)
    pipe.incr("counter").incr("counter")
    assert pipe.execute() == [1, 2]
    assert cluster.ask(cluster.master, "GET", "before", db=2) == b"1"  # the URL's DB, on the master
    make_queue(client).enqueue("builtins.len", "abc")
    address = SentinelAddress.of(target)
    assert _run(script_runner(client, target), Call(PUSH, ["k"], ["a"])) == [1]

    cluster.master.kill()
    assert wait_for(lambda: cluster.named_master_port() == cluster.replica.port
                    and cluster.role(cluster.replica) == "master", 30)
    client.set("after", "2")  # redis-py reconnects through the sentinels
    assert cluster.ask(cluster.replica, "MGET", "before", "after", db=2) == [b"1", b"2"]
    assert len(make_queue(client)) == 1  # RQ's queue came over with the replica
    scripts = PipelinedScripts(address, fallback=ThreadedScripts(client, 1))
    assert _run(scripts, Call(PUSH, ["k"], ["b"])) == [2]

    async def subscriber_reaches_the_new_master() -> Any:
        reader, writer = await address.open()
        writer.close()
        return writer.get_extra_info("peername")[1]

    assert asyncio.run(subscriber_reaches_the_new_master()) == cluster.replica.port


def test_no_sentinel_answering_is_a_connection_error() -> None:
    dead = free_port()  # nobody listens there
    address = SentinelAddress(sentinels=(("127.0.0.1", dead),), master=MASTER, timeout_s=0.5)
    scripts = PipelinedScripts(address, fallback=ThreadedScripts(redis.Redis(port=dead), 1))
    [error] = _run(scripts, Call(PUSH, ["k"], ["x"]))
    assert isinstance(error, RedisConnectionError) and "no sentinel named the master" in str(error)


def test_a_master_turned_replica_fails_the_call_and_drops_the_connection(pair: SentinelCluster) -> None:
    scripts = PipelinedScripts(pair.master.url, fallback=ThreadedScripts(redis.Redis(port=pair.master.port), 1))

    async def main() -> tuple[Any, Any, Any]:
        try:
            first = await scripts.run(Call(PUSH, ["k"], ["a"]))
            pair.ask(pair.replica, "REPLICAOF", "NO", "ONE")
            pair.ask(pair.master, "REPLICAOF", "127.0.0.1", str(pair.replica.port))
            with pytest.raises(RedisConnectionError, match="not the master any more"):
                await scripts.run(Call(PUSH, ["k"], ["b"]))
            return first, scripts._conn.broken if scripts._conn else None, None
        finally:
            scripts.close()

    first, broken, _ = asyncio.run(main())
    assert first == 1 and broken is not None  # the next call reconnects (through the sentinels, if any)


def _waiting(url: str, timeout_ms: int) -> PipelinedScripts:
    return PipelinedScripts(url, fallback=ThreadedScripts(redis.Redis.from_url(url), 1), wait_replicas=1,
                            wait_timeout_ms=timeout_ms)


def test_an_accepted_write_is_on_the_replica_before_the_call_returns(pair: SentinelCluster) -> None:
    scripts = _waiting(pair.master.url, 2000)  # generous: the machine may be busy

    async def main() -> list[Any]:
        out = []
        try:
            for i in range(20):
                replies = await asyncio.gather(*(scripts.run(Call(PUSH, [f"w{i}"], [str(n)])) for n in range(50)))
                # concurrent calls may run in any order: the longest list any of them saw is the whole batch
                out.append((max(replies), pair.ask(pair.replica, "LLEN", f"w{i}")))  # read at once, no waiting
            return out
        finally:
            scripts.close()

    assert asyncio.run(main()) == [(50, 50)] * 20


async def _eventually(scripts: PipelinedScripts, call: Call, timeout: float = 5.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        try:
            return await scripts.run(call)
        except RedisConnectionError:
            if time.monotonic() > deadline:
                raise


def test_a_replica_that_stops_confirming_refuses_the_message_and_a_gone_one_does_not(pair: SentinelCluster) -> None:
    scripts = _waiting(pair.master.url, 300)
    replica_pid = pair.replica.proc.pid if pair.replica.proc else 0

    async def main() -> tuple[Any, float, Any, Any]:
        try:
            ok = await _eventually(scripts, Call(PUSH, ["warm"], ["1"]))  # a busy machine may miss 300 ms once
            os.kill(replica_pid, signal.SIGSTOP)  # a hung replica: attached, but confirming nothing
            started = time.monotonic()
            with pytest.raises(RedisConnectionError, match="fewer than 1 replicas confirmed"):
                await scripts.run(Call(PUSH, ["r"], ["1"]))
            refused_after = time.monotonic() - started
            os.kill(replica_pid, signal.SIGCONT)
            again = await _eventually(scripts, Call(PUSH, ["r"], ["2"]))  # once it has caught up (a retry pushes again)
            pair.replica.kill()  # the master is alone now: a message is accepted without waiting
            await asyncio.sleep(1.2)  # the replicas are read again at most a second later
            alone = await scripts.run(Call(PUSH, ["r"], ["3"]))
            return ok, refused_after, again, alone
        finally:
            scripts.close()

    ok, refused_after, again, alone = asyncio.run(main())
    assert ok >= 1 and 0.25 <= refused_after < 3.0 and again >= 2 and alone == again + 1


def test_the_target_is_described_without_its_password() -> None:
    assert RedisTarget(url="redis://user:pw@host:6380/2").describe() == "redis://host:6380/2"
