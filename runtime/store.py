"""ContextStore: where ConversationRuntimeContext lives between turns.

Two implementations share one contract (tests/runtime/test_store_contract.py): the embedded
in-process store and the Redis store (compare-and-set on ``version`` in one Lua script,
idle TTL refreshed on every save).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple, Protocol

from runtime import keys
from runtime.context import ContextCorrupt, ConversationRuntimeContext, dump_context, load_context

log = logging.getLogger(__name__)

DEFAULT_IDLE_TTL = 30 * 24 * 3600


class ContextConflict(Exception):
    """A save lost a race: the stored version is not the one the turn started from."""

    def __init__(self, user: str, expected: int, actual: int) -> None:
        super().__init__(f"context of {user}: expected version {expected}, found {actual}")
        self.user = user
        self.expected = expected
        self.actual = actual


class ContextStore(Protocol):
    """Loads and saves one context per user."""

    def load(self, user: str) -> ConversationRuntimeContext:
        """The user's context; a fresh one when none is stored or the stored one is corrupt."""
        ...

    def save(self, ctx: ConversationRuntimeContext) -> ConversationRuntimeContext:
        """Store ``ctx`` if the stored version still equals ``ctx.version``; returns it with version+1."""
        ...

    def delete(self, user: str) -> None:
        """Forget the user's context."""
        ...

    def raw(self, user: str) -> str | None:
        """The stored blob as text (for the admin), or None."""
        ...

    def quarantined(self, user: str) -> str | None:
        """The last corrupt blob kept aside for the admin, or None."""
        ...


class InMemoryContextStore:
    """The embedded store: a dict behind a lock, for one process."""

    def __init__(self) -> None:
        self._blobs: dict[str, tuple[int, str]] = {}
        self._bad: dict[str, str] = {}
        self._lock = threading.Lock()

    def load(self, user: str) -> ConversationRuntimeContext:
        with self._lock:
            stored = self._blobs.get(user)
        if stored is None:
            return ConversationRuntimeContext.empty(user)
        version, blob = stored
        try:
            ctx = load_context(user, blob)
        except ContextCorrupt as exc:
            log.warning("corrupt context replaced", extra={"reason": exc.reason})
            with self._lock:
                self._bad[user] = exc.raw
            return ConversationRuntimeContext.empty(user, version=version)
        ctx.version = version
        return ctx

    def save(self, ctx: ConversationRuntimeContext) -> ConversationRuntimeContext:
        with self._lock:
            current = self._blobs.get(ctx.user, (0, ""))[0]
            if current != ctx.version:
                raise ContextConflict(ctx.user, ctx.version, current)
            saved = ctx.model_copy(update={"version": ctx.version + 1})
            self._blobs[ctx.user] = (saved.version, dump_context(saved))
        return saved

    def delete(self, user: str) -> None:
        with self._lock:
            self._blobs.pop(user, None)

    def raw(self, user: str) -> str | None:
        with self._lock:
            stored = self._blobs.get(user)
        return stored[1] if stored else None

    def quarantined(self, user: str) -> str | None:
        with self._lock:
            return self._bad.get(user)

    def put_raw(self, user: str, blob: str, version: int = 1) -> None:
        """Store a raw blob as is (tests of corrupt and old-schema data)."""
        with self._lock:
            self._blobs[user] = (version, blob)


# KEYS[1] = context hash; ARGV = expected version, new version, blob, ttl seconds.
_CAS_SAVE = """
local current = redis.call('HGET', KEYS[1], 'v')
if current == false then current = '0' end
if current ~= ARGV[1] then return current end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'blob', ARGV[3])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[4]))
return 'OK'
"""


# The same, and on success ``SET KEYS[2] ARGV[5] EX ARGV[6]`` in the same step (what the turn's
# caller marks as done only once the context it produced is stored).
_CAS_SAVE_THEN_SET = _CAS_SAVE.replace("return 'OK'", "redis.call('SET', KEYS[2], ARGV[5], 'EX', ARGV[6])\nreturn 'OK'")


class PendingSave(NamedTuple):
    """A save held back by :meth:`RedisContextStore.deferring`: written by the caller's pipeline."""

    user: str
    expected: int  # the stored version it replaces
    version: int
    blob: str


class _Deferral:
    """The save held back on one thread (at most one: a second save writes the first one through)."""

    def __init__(self) -> None:
        self.pending: PendingSave | None = None


class RedisContextStore:
    """Contexts in Redis hashes ``{v, blob}``; saves are compare-and-set in one Lua script.

    A caller that commits a turn in one round trip (the worker) runs the turn inside
    :meth:`deferring`: the turn's save is then held back, and :meth:`queue_save` puts the same
    compare-and-set on the caller's pipeline, together with the caller's own marker of the turn."""

    def __init__(self, redis: Any, *, idle_ttl: int = DEFAULT_IDLE_TTL,
                 quarantine_ttl: int = DEFAULT_IDLE_TTL) -> None:
        self._redis = redis
        self._idle_ttl = idle_ttl
        self._quarantine_ttl = quarantine_ttl
        self._cas = redis.register_script(_CAS_SAVE)
        self._local = threading.local()

    def load(self, user: str) -> ConversationRuntimeContext:
        return self.loaded(user, self._redis.hmget(keys.context(user), "v", "blob"))

    def queue_load(self, pipe: Any, user: str) -> None:
        """Queue :meth:`load`'s read on ``pipe`` (a caller's pipeline); :meth:`loaded` turns its reply
        into the context (so the read shares a round trip with the caller's own)."""
        pipe.hmget(keys.context(user), "v", "blob")

    def loaded(self, user: str, reply: Any) -> ConversationRuntimeContext:
        """The context from the reply of the read :meth:`queue_load` queued."""
        version_raw, blob = reply
        if version_raw is None and blob is None:
            return ConversationRuntimeContext.empty(user)
        version = _int(version_raw)
        try:
            if blob is None:
                raise ContextCorrupt(user, "", "missing blob")
            ctx = load_context(user, blob)
        except ContextCorrupt as exc:
            log.warning("corrupt context replaced", extra={"reason": exc.reason})
            self._redis.set(keys.context_quarantine(user), exc.raw, ex=self._quarantine_ttl)
            return ConversationRuntimeContext.empty(user, version=version)
        ctx.version = version
        return ctx

    def save(self, ctx: ConversationRuntimeContext) -> ConversationRuntimeContext:
        saved = ctx.model_copy(update={"version": ctx.version + 1})
        pending = PendingSave(ctx.user, ctx.version, saved.version, dump_context(saved))
        deferral: _Deferral | None = getattr(self._local, "deferral", None)
        if deferral is None:
            self._write(pending)
        else:
            if deferral.pending is not None:  # never two held back: the later one expects the earlier stored
                self._write(deferral.pending)
            deferral.pending = pending
        return saved

    def _write(self, pending: PendingSave) -> None:
        result = self._cas(keys=[keys.context(pending.user)],
                           args=[pending.expected, pending.version, pending.blob, self._idle_ttl])
        if _text(result) != "OK":
            raise ContextConflict(pending.user, pending.expected, _int(result))

    @contextmanager
    def deferring(self) -> Iterator[_Deferral]:
        """Hold back the saves of this thread while the block runs; the held-back one (if any) is
        ``.pending`` of what this yields, for :meth:`queue_save`. Nothing is written for it otherwise:
        a caller that does not queue it drops the turn's state change, as if it had never run."""
        deferral = _Deferral()
        self._local.deferral = deferral
        try:
            yield deferral
        finally:
            self._local.deferral = None

    def queue_save(self, pipe: Any, pending: PendingSave, then_set: tuple[str, str, int]) -> None:
        """Queue ``pending``'s compare-and-set on ``pipe``; only if it succeeds, ``SET key value EX ttl``
        (``then_set``) in the same step. :meth:`saved` reads the reply."""
        key, value, ttl = then_set
        pipe.eval(_CAS_SAVE_THEN_SET, 2, keys.context(pending.user), key, pending.expected, pending.version,
                  pending.blob, self._idle_ttl, value, ttl)

    @staticmethod
    def saved(pending: PendingSave, reply: Any) -> None:
        """Raise :class:`ContextConflict` unless :meth:`queue_save`'s reply says it was stored (an error
        reply is raised as is)."""
        if isinstance(reply, Exception):
            raise reply
        if _text(reply) != "OK":
            raise ContextConflict(pending.user, pending.expected, _int(reply))

    def delete(self, user: str) -> None:
        self._redis.delete(keys.context(user))

    def raw(self, user: str) -> str | None:
        blob = self._redis.hget(keys.context(user), "blob")
        return None if blob is None else _text(blob)

    def quarantined(self, user: str) -> str | None:
        blob = self._redis.get(keys.context_quarantine(user))
        return None if blob is None else _text(blob)

    def put_raw(self, user: str, blob: str, version: int = 1) -> None:
        """Store a raw blob as is (tests of corrupt and old-schema data)."""
        self._redis.hset(keys.context(user), mapping={"v": version, "blob": blob})


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _int(value: Any) -> int:
    try:
        return int(_text(value)) if value is not None else 0
    except ValueError:
        return 0
