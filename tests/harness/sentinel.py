"""A Redis master, a replica and three sentinels as real processes on loopback (fail-over tests).

Each server has its own directory and free port and uses the deploy persistence (AOF, ``appendfsync
everysec``). The sentinels (``redis-server sentinel.conf --sentinel``) watch the master as ``wxbot``
with a quorum of two and declare it down after ``down_after_ms``.
"""

from __future__ import annotations

import time
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from bot.bench import PrivateRedis

MASTER = "wxbot"


class SentinelServer(PrivateRedis):
    """``redis-server CONF --sentinel`` in its own directory (Sentinel rewrites its config file)."""

    def __init__(self, master_port: int, *, down_after_ms: int) -> None:
        super().__init__(aof=False, die_with_parent=True)
        (self.dir / "sentinel.conf").write_text("\n".join([
            f"port {self.port}", "bind 127.0.0.1", f"dir {self.dir}", "protected-mode no",
            f"sentinel monitor {MASTER} 127.0.0.1 {master_port} 2",
            f"sentinel down-after-milliseconds {MASTER} {down_after_ms}",
            f"sentinel failover-timeout {MASTER} 10000",
            f"sentinel parallel-syncs {MASTER} 1", "",
        ]))

    def _args(self) -> list[str]:
        return [*self.launcher, self.binary, str(self.dir / "sentinel.conf"), "--sentinel", "--loglevel", "warning"]


class SentinelCluster:
    """Master + replica (AOF) + three sentinels (or none: a replicated pair); :meth:`env` is what a wxbot
    process needs to use it."""

    def __init__(self, *, sentinels: int = 3, down_after_ms: int = 1000) -> None:
        # a full sync starts at once (Redis waits 5 s by default for more replicas to share a diskless
        # one: every fixture and every fail-over paid it), and a stop does not wait for a replica to
        # catch up (up to 10 s by default; a test tears down what it stopped or froze)
        now = ("--repl-diskless-sync-delay", "0", "--shutdown-timeout", "0")
        self.master = PrivateRedis(aof=True, die_with_parent=True, extra_args=now)
        self.replica = PrivateRedis(aof=True, die_with_parent=True,
                                    extra_args=(*now, "--replicaof", "127.0.0.1", str(self.master.port)))
        self.sentinels = [SentinelServer(self.master.port, down_after_ms=down_after_ms) for _ in range(sentinels)]

    @property
    def servers(self) -> list[PrivateRedis]:
        return [self.master, self.replica]

    def start(self) -> SentinelCluster:
        self.master.start()
        self.replica.start()
        for sentinel in self.sentinels:
            sentinel.start()
        # in sync as the replica sees it, and online as the master counts it (``ROLE``, what a WAIT asks
        # for): on a loaded machine the second can come a moment after the first
        assert wait_for(lambda: self.replica_in_sync(self.replica) and self.replicas_of(self.master) == 1, 20), \
            "the replica did not sync"
        # and settled: the rewrite of its append-only file that follows a full sync is over (its end
        # can stall the replica's acknowledgements past a test's WAIT), and it confirms writes
        assert wait_for(lambda: self._settled(self.replica) and self.ask(self.master, "WAIT", 1, 200) == 1, 20), \
            "the replica did not settle"
        assert wait_for(lambda: all(self._sees_replica(s) for s in self.sentinels), 30), "sentinels not ready"
        return self

    def stop(self) -> None:
        for server in [*self.sentinels, self.replica, self.master]:
            server.kill()  # nothing of theirs outlives the test: no shutdown (a replica's can take 5 s)
            server.stop()

    def env(self, db: int = 0) -> dict[str, str]:
        return {"REDIS_URL": f"redis://sentinel/{db}", "REDIS_SENTINEL_MASTER": MASTER,
                "REDIS_SENTINELS": ",".join(f"127.0.0.1:{s.port}" for s in self.sentinels)}

    def ask(self, server: PrivateRedis, *command: Any, db: int = 0) -> Any:
        """One command to ``server`` on a connection of its own (no retries: a dead server answers at once)."""
        with redis.Redis(port=server.port, db=db, socket_timeout=2, socket_connect_timeout=1,
                         retry=Retry(NoBackoff(), 0)) as conn:
            return conn.execute_command(*command)

    def named_master_port(self) -> int | None:
        """The master's port as the sentinels name it now (None while they disagree)."""
        ports = set()
        for sentinel in self.sentinels:
            try:
                host_port = self.ask(sentinel, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER)
            except redis.RedisError:
                return None
            ports.add(int(host_port[1]))
        return ports.pop() if len(ports) == 1 else None

    def role(self, server: PrivateRedis) -> str:
        try:
            role = self.ask(server, "ROLE")[0]
        except redis.RedisError:
            return "down"
        return role.decode() if isinstance(role, bytes) else str(role)

    def replicas_of(self, master: PrivateRedis) -> int:
        """How many replicas ``master`` counts as online (``ROLE``); 0 when it does not answer."""
        try:
            role = self.ask(master, "ROLE")
        except redis.RedisError:
            return 0
        return len(role[2]) if len(role) == 3 and isinstance(role[2], list) else 0

    def replica_in_sync(self, replica: PrivateRedis) -> bool:
        try:
            info = self.ask(replica, "INFO", "replication")
        except redis.RedisError:
            return False
        return info.get("role") == "slave" and info.get("master_link_status") == "up"

    def _settled(self, server: PrivateRedis) -> bool:
        try:
            info = self.ask(server, "INFO", "persistence")
        except redis.RedisError:
            return False
        return not any(info.get(k) for k in ("loading", "aof_rewrite_in_progress", "aof_rewrite_scheduled",
                                              "rdb_bgsave_in_progress"))

    def _sees_replica(self, sentinel: PrivateRedis) -> bool:
        try:
            replicas = self.ask(sentinel, "SENTINEL", "REPLICAS", MASTER)
            sentinels = self.ask(sentinel, "SENTINEL", "SENTINELS", MASTER)
        except redis.RedisError:
            return False
        return len(replicas) == 1 and len(sentinels) == len(self.sentinels) - 1


def wait_for(pred: Any, timeout: float, interval: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(interval)
    return bool(pred())
