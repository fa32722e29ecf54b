"""Where the bot's Redis is: one server by URL, or the master that Redis Sentinel names.

With Sentinel, every client asks the sentinels for the current master whenever it (re)connects, so
after a fail-over the promoted replica is found without a restart. ``REDIS_URL`` then only gives the
user, password and DB number of the data servers; its host and port are not used.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote, urlparse

__all__ = ["RedisTarget", "parse_sentinels"]


def parse_sentinels(value: str) -> tuple[tuple[str, int], ...]:
    """``"10.0.0.1:26379,10.0.0.2:26379"`` → ``(("10.0.0.1", 26379), ("10.0.0.2", 26379))``;
    ``ValueError`` naming the bad entry otherwise (``[::1]:26379`` for IPv6)."""
    found: list[tuple[str, int]] = []
    for entry in (part.strip() for part in value.split(",")):
        if not entry:
            continue
        host, sep, port = entry.rpartition(":")
        host = host.strip("[]")
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"{entry!r} is not host:port")
        found.append((host, int(port)))
    return tuple(found)


@dataclass(frozen=True)
class RedisTarget:
    """The Redis a process connects to; ``sentinels`` empty means the server at ``url``."""

    url: str = ""
    sentinels: tuple[tuple[str, int], ...] = ()
    master: str = ""
    sentinel_password: str = ""
    wait_replicas: int = 0  # the webhook's accept waits until this many replicas hold the message
    wait_timeout_ms: int = 500

    @property
    def uses_sentinel(self) -> bool:
        return bool(self.sentinels)

    def credentials(self) -> tuple[str | None, str | None, int]:
        """User, password and DB number from ``url`` (Sentinel mode: all the URL is used for)."""
        if not self.url:
            return None, None, 0
        parts = urlparse(self.url)
        path = parts.path.strip("/")
        return (unquote(parts.username) if parts.username else None,
                unquote(parts.password) if parts.password else None, int(path) if path.isdigit() else 0)

    def describe(self) -> str:
        """For messages and logs: never a password."""
        if self.uses_sentinel:
            where = ",".join(f"{h}:{p}" for h, p in self.sentinels)
            return f"master {self.master!r} of sentinels {where}"
        parts = urlparse(self.url)
        netloc = parts.netloc.rpartition("@")[2]
        return parts._replace(netloc=netloc).geturl()
