"""A local conversation kept on disk: the embedded Redis substitute snapshotted to a folder.

``wxbot chat`` keeps its contexts, transcripts and stats in an in-process Redis substitute; this
module saves that to ``<dir>/redis.snapshot`` after every turn and loads it on start, so a
conversation survives a restart and ``wxbot replay/inspect/stats/reset`` can read it without a
Redis server. The SQLite file of the same folder holds the business data (reminders, logs).
"""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path
from typing import Any

__all__ = ["LOG_FILE", "SNAPSHOT", "LocalState"]

SNAPSHOT = "redis.snapshot"
LOG_FILE = "wxbot.log"
_LEGACY_CONTEXTS = "contexts.json"  # the contexts-only file of older versions


class LocalState:
    """An in-process Redis substitute (``redis``, from :func:`bot.compose.embedded_redis`) whose
    contents live in ``directory``."""

    def __init__(self, directory: Path, redis: Any) -> None:
        self.directory = directory
        self.redis: Any = redis
        self._stamp: tuple[int, int, int] | None = None

    @classmethod
    def open(cls, directory: Path, redis: Any) -> LocalState:
        """The state of ``directory`` (created if missing) in ``redis``, loaded from its snapshot."""
        directory.mkdir(parents=True, exist_ok=True)
        state = cls(directory, redis)
        state.load()
        return state

    @staticmethod
    def exists(directory: Path) -> bool:
        """True when ``directory`` holds a saved conversation."""
        return (directory / SNAPSHOT).is_file()

    @property
    def path(self) -> Path:
        return self.directory / SNAPSHOT

    def load(self) -> None:
        """Replace the in-memory contents with the snapshot (an unreadable snapshot starts empty)."""
        self.redis.flushall()
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            self._import_legacy()
            return
        except (OSError, ValueError):
            return
        for key, (dumped, pttl) in data.items():
            self.redis.restore(key, max(int(pttl), 0), base64.b64decode(dumped), replace=True)
        self._stamp = self._file_stamp()

    def save(self) -> None:
        """Write the contents atomically (a crash mid-write leaves the previous snapshot)."""
        data: dict[str, tuple[str, int]] = {}
        for raw_key in self.redis.scan_iter(count=1000):
            dumped = self.redis.dump(raw_key)
            if dumped is None:
                continue
            key = raw_key.decode() if isinstance(raw_key, bytes) else str(raw_key)
            data[key] = (base64.b64encode(dumped).decode(), int(self.redis.pttl(raw_key)))
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data), encoding="utf-8")
        os.replace(tmp, self.path)
        self._stamp = self._file_stamp()

    def refresh(self) -> None:
        """Reload when another process (``wxbot reset``) changed the snapshot since our last save."""
        stamp = self._file_stamp()
        if stamp is not None and stamp != self._stamp:
            self.load()

    def _file_stamp(self) -> tuple[int, int, int] | None:
        try:
            st = self.path.stat()
        except OSError:
            return None
        return st.st_ino, st.st_mtime_ns, st.st_size

    def _import_legacy(self) -> None:
        legacy = self.directory / _LEGACY_CONTEXTS
        if not legacy.is_file():
            return
        from runtime.store import RedisContextStore

        try:
            data = json.loads(legacy.read_text(encoding="utf-8"))
            store = RedisContextStore(self.redis)
            for user, item in data.items():
                store.put_raw(user, item["blob"], int(item["version"]))
        except (OSError, ValueError, KeyError, TypeError):
            return
