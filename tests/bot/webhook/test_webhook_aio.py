"""The webhook's pipelined script client against real Redis servers (the shared one and private ones)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError

from bot.bench import PrivateRedis
from bot.redis_client import Call
from bot.webhook import PipelinedScripts, ThreadedScripts, script_runner
from tests.harness.edge import REAL_REDIS_URL

ECHO = "redis.call('RPUSH', KEYS[1], ARGV[1]); return {ARGV[1], redis.call('LLEN', KEYS[1])}"
BOOM = "return redis.error_reply('boom')"


def _pipelined(url: str) -> PipelinedScripts:
    return PipelinedScripts(url, fallback=ThreadedScripts(redis.Redis.from_url(url), 2))


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_concurrent_calls_each_get_their_own_reply_in_order(real_redis: Any) -> None:
    scripts = _pipelined(REAL_REDIS_URL)

    async def main() -> list[Any]:
        try:
            return await asyncio.gather(*(scripts.run(Call(ECHO, ["aio:list"], [f"v{i}"])) for i in range(500)))
        finally:
            scripts.close()

    replies = _run(main())
    assert [r[0] for r in replies] == [f"v{i}".encode() for i in range(500)]
    assert sorted(int(r[1]) for r in replies) == list(range(1, 501))
    # one loop tick, one write: all 500 were pipelined, and they ran in call order
    assert real_redis.lrange("aio:list", 0, -1) == [f"v{i}".encode() for i in range(500)]


def test_selects_the_url_database_and_reloads_a_flushed_script(real_redis: Any) -> None:
    scripts = _pipelined(REAL_REDIS_URL)

    async def main() -> None:
        try:
            await scripts.run(Call(ECHO, ["aio:db"], ["a"]))
            real_redis.script_flush()  # e.g. Redis restarted: EVALSHA answers NOSCRIPT, EVAL follows
            await scripts.run(Call(ECHO, ["aio:db"], ["b"]))
        finally:
            scripts.close()

    _run(main())
    assert real_redis.lrange("aio:db", 0, -1) == [b"a", b"b"]  # real_redis is on the URL's DB, not 0


def test_a_script_error_raises_and_the_connection_stays_usable(real_redis: Any) -> None:
    scripts = _pipelined(REAL_REDIS_URL)

    async def main() -> Any:
        try:
            with pytest.raises(ResponseError, match="boom"):
                await scripts.run(Call(BOOM, [], []))
            return await scripts.run(Call(ECHO, ["aio:after"], ["ok"]))
        finally:
            scripts.close()

    assert _run(main())[0] == b"ok"


def test_server_gone_fails_calls_in_flight_then_reconnects_after_restart() -> None:
    server = PrivateRedis(aof=False).start()
    scripts = _pipelined(server.url)

    async def main() -> tuple[Any, Any]:
        try:
            await scripts.run(Call(ECHO, ["k"], ["before"]))
            server.kill()
            with pytest.raises(RedisConnectionError):
                await scripts.run(Call(ECHO, ["k"], ["during"]))
            server.start()
            return await scripts.run(Call(ECHO, ["k"], ["after"])), None
        finally:
            scripts.close()

    try:
        (reply, _) = _run(main())
        assert reply == [b"after", 1]  # a new server (no AOF): the script was loaded again by EVAL
    finally:
        server.stop()


def test_refused_connection_is_a_redis_error() -> None:
    from bot.bench import free_port

    scripts = _pipelined(f"redis://127.0.0.1:{free_port()}/0")

    async def main() -> None:
        try:
            with pytest.raises(RedisConnectionError):
                await scripts.run(Call(ECHO, ["k"], ["x"]))
        finally:
            scripts.close()

    _run(main())


def test_password_and_database_from_the_url() -> None:
    server = PrivateRedis(aof=False).start()
    admin = redis.Redis(port=server.port)
    admin.config_set("requirepass", "s3cret")
    try:
        async def attempt(url: str) -> Any:
            scripts = _pipelined(url)
            try:
                return await scripts.run(Call(ECHO, ["k"], ["x"]))
            finally:
                scripts.close()

        with pytest.raises(RedisConnectionError, match="set-up"):
            _run(attempt(f"redis://:wrong@127.0.0.1:{server.port}/3"))
        assert _run(attempt(f"redis://:s3cret@127.0.0.1:{server.port}/3")) == [b"x", 1]
        assert redis.Redis(port=server.port, password="s3cret", db=3).lrange("k", 0, -1) == [b"x"]
    finally:
        server.stop()


def test_runner_choice() -> None:
    fake: Any = object()
    assert isinstance(script_runner(fake, "redis://127.0.0.1:1/0"), PipelinedScripts)
    assert isinstance(script_runner(fake, "unix:///tmp/redis.sock"), PipelinedScripts)
    assert isinstance(script_runner(fake, "rediss://example/0"), ThreadedScripts)  # TLS: redis-py does it
    assert isinstance(script_runner(fake, None), ThreadedScripts)  # embedded in-process substitute


def test_a_server_that_stops_answering_fails_the_waiting_calls() -> None:
    server = PrivateRedis(aof=False).start()
    scripts = PipelinedScripts(server.url, stall_s=0.3, fallback=ThreadedScripts(redis.Redis.from_url(server.url), 2))

    async def main() -> float:
        try:
            await scripts.run(Call(ECHO, ["k"], ["warm"]))
            redis.Redis(port=server.port).execute_command("CLIENT", "PAUSE", 3000, "ALL")
            started = asyncio.get_running_loop().time()
            with pytest.raises(RedisConnectionError, match="no reply"):
                await scripts.run(Call(ECHO, ["k"], ["stuck"]))
            return asyncio.get_running_loop().time() - started
        finally:
            scripts.close()

    try:
        assert _run(main()) < 1.5  # failed by the watchdog (≤ 2 × stall_s), not after the 3 s pause
    finally:
        server.stop()


def test_an_idle_connection_is_not_mistaken_for_a_stalled_one(real_redis: Any) -> None:
    scripts = PipelinedScripts(REAL_REDIS_URL, stall_s=0.2, fallback=ThreadedScripts(real_redis, 2))

    async def main() -> list[Any]:
        try:
            out = [await scripts.run(Call(ECHO, ["aio:idle"], ["a"]))]
            for _ in range(6):  # idle for several watchdog periods, then a call just before a check
                await asyncio.sleep(0.19)
                out.append(await scripts.run(Call(ECHO, ["aio:idle"], ["b"])))
            return out
        finally:
            scripts.close()

    assert len(_run(main())) == 7


def test_a_server_speaking_garbage_fails_the_calls_at_once() -> None:
    async def main() -> float:
        async def garbage(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            try:
                await reader.read(1024)
                writer.write(b"!not RESP\r\n")
                await reader.read()  # until the client hangs up
            finally:
                writer.close()

        server = await asyncio.start_server(garbage, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        scripts = PipelinedScripts(f"redis://127.0.0.1:{port}/0", stall_s=5.0,
                                   fallback=ThreadedScripts(redis.Redis(port=port), 1))
        started = asyncio.get_running_loop().time()
        try:
            with pytest.raises(RedisConnectionError):
                await scripts.run(Call(ECHO, ["k"], ["x"]))
            return asyncio.get_running_loop().time() - started
        finally:
            scripts.close()
            await asyncio.sleep(0.05)  # the handler sees the hang-up and closes its side
            server.close()
            await server.wait_closed()

    assert _run(main()) < 1.0  # the protocol error, not the 5 s stall watchdog
