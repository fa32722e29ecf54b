"""Redis client facades that let several commands share one round trip.

The worker queues a turn's transcript delivery records on a pipeline and lets them ride along with
the mailbox pop that follows (:meth:`bot.queue.Mailbox.pop_next`, a script): the records cost no
round trip of their own. The queued commands run first, in order; their failures are logged, never
raised (they are observability); the script's own reply or error is what the caller sees.
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger("bot._worker_piggyback")  # its name before the move: operators filter on it


class Piggyback:
    """Wraps ``redis``; ``evalsha``/``eval`` execute ``pending`` (a non-transactional pipeline) with
    the script call appended. Everything else passes through to ``redis``.

    The first ``own`` queued commands are the caller's: their replies (errors included, not logged)
    are in ``replies`` once the script call ran."""

    def __init__(self, redis: Any, pending: Any, *, own: int = 0) -> None:
        self._redis = redis
        self._pending = pending
        self._own = own
        self.replies: list[Any] = []

    def evalsha(self, sha: str, numkeys: int, *keys_and_args: Any) -> Any:
        return self._ride("evalsha", sha, numkeys, *keys_and_args)

    def eval(self, script: str, numkeys: int, *keys_and_args: Any) -> Any:
        return self._ride("eval", script, numkeys, *keys_and_args)

    def _ride(self, command: str, *args: Any) -> Any:
        pipe = self._pending
        if pipe is None or not len(pipe):
            return getattr(self._redis, command)(*args)
        self._pending = None  # queued commands run once, even when the script is retried by body
        getattr(pipe, command)(*args)
        results = pipe.execute(raise_on_error=False)
        self.replies = results[:self._own]
        records = results[self._own:-1]
        if any(isinstance(r, Exception) for r in records):
            log.warning("queued transcript records failed: %s",
                        next(type(r).__name__ for r in records if isinstance(r, Exception)))
        if isinstance(results[-1], Exception):
            raise results[-1]
        return results[-1]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._redis, name)


class Queued:
    """A Redis client facade whose script calls are only queued on ``pipe`` (their replies come with
    the pipeline's): lets a :class:`bot.queue.Mailbox` script ride in someone else's round trip.
    The call itself returns None."""

    def __init__(self, pipe: Any) -> None:
        self._pipe = pipe

    def evalsha(self, sha: str, numkeys: int, *keys_and_args: Any) -> None:
        self._pipe.evalsha(sha, numkeys, *keys_and_args)

    def eval(self, script: str, numkeys: int, *keys_and_args: Any) -> None:
        self._pipe.eval(script, numkeys, *keys_and_args)
