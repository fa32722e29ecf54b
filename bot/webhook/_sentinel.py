"""The webhook's own connections through Redis Sentinel: ask for the master on every (re)connect.

:class:`SentinelAddress` is a :class:`~bot.webhook._resp.RedisAddress` whose host and port are
looked up anew each time a connection is opened: the first sentinel that answers
``SENTINEL GET-MASTER-ADDR-BY-NAME`` names the master, and the server reached must say ``ROLE`` master
(during a fail-over a sentinel can still name the old one). When the master dies, the pipelined
connection fails its calls in flight (the webhook answers 503 and WeChat retries) and the next call
connects to whichever server the sentinels name by then.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import hiredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

from bot.redis_client import RedisTarget
from bot.webhook._resp import PipelinedConnection, RedisAddress, read_replies

__all__ = ["SentinelAddress"]


@dataclass(frozen=True)
class SentinelAddress(RedisAddress):
    """The master named ``master`` by any of ``sentinels``; user, password and DB as for the master."""

    sentinels: tuple[tuple[str, int], ...] = ()
    master: str = ""
    sentinel_password: str | None = None

    @classmethod
    def of(cls, target: RedisTarget, timeout_s: float = 2.0) -> SentinelAddress:
        username, password, db = target.credentials()
        return cls(username=username, password=password, db=db, timeout_s=timeout_s, sentinels=target.sentinels,
                   master=target.master, sentinel_password=target.sentinel_password or None)

    async def master_address(self) -> RedisAddress:
        """Where the sentinels say the master is now (``ConnectionError`` when none can tell)."""
        failures: list[str] = []
        for host, port in self.sentinels:
            try:
                named = await asyncio.wait_for(self._ask(host, port), self.timeout_s)
            except (OSError, TimeoutError, RedisError) as exc:
                failures.append(f"{host}:{port} {type(exc).__name__}")
                continue
            if isinstance(named, list) and len(named) == 2:
                return RedisAddress(host=_text(named[0]), port=int(named[1]), username=self.username,
                                    password=self.password, db=self.db, timeout_s=self.timeout_s)
            failures.append(f"{host}:{port} knows no master {self.master!r}")
        raise RedisConnectionError(f"no sentinel named the master: {'; '.join(failures)}")

    async def _ask(self, host: str, port: int) -> Any:
        reader, writer = await asyncio.open_connection(host, port)
        try:
            commands: list[tuple[Any, ...]] = []
            if self.sentinel_password:
                commands.append(("AUTH", self.sentinel_password))
            commands.append(("SENTINEL", "GET-MASTER-ADDR-BY-NAME", self.master))
            writer.write(b"".join(hiredis.pack_command(c) for c in commands))
            replies = await read_replies(reader, hiredis.Reader(protocolError=RedisConnectionError), len(commands))
            refused = [r for r in replies if isinstance(r, Exception)]
            if refused:
                raise RedisConnectionError(f"sentinel refused: {refused[0]}")
            return replies[-1]
        finally:
            writer.close()

    async def open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """A stream connection to the master, logged in and on the right DB (the notifier's)."""
        reader, writer = await (await self.master_address()).open()
        try:
            writer.write(hiredis.pack_command(("ROLE",)))
            role = await asyncio.wait_for(
                read_replies(reader, hiredis.Reader(protocolError=RedisConnectionError), 1), self.timeout_s)
            _check_master(role[0])
        except BaseException:
            writer.close()
            raise
        return reader, writer

    async def connect(self, stall_s: float) -> PipelinedConnection:
        """A pipelined connection to the master, logged in and on the right DB (the scripts')."""
        conn = await (await self.master_address()).connect(stall_s)
        try:
            _check_master(await asyncio.wait_for(conn.send(("ROLE",)), self.timeout_s))
        except BaseException as exc:
            conn.fail(exc)
            raise
        return conn


def _check_master(role: Any) -> None:
    if not isinstance(role, list) or not role or role[0] != b"master":
        what = _text(role[0]) if isinstance(role, list) and role else repr(role)
        raise RedisConnectionError(f"the server the sentinels named is not the master (ROLE {what})")


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
