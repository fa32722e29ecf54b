"""A Redis client facade whose script calls also carry commands queued earlier (one round trip).

The worker queues a turn's transcript delivery records on a pipeline and lets them ride along with
the mailbox pop that follows (:meth:`bot.queue.Mailbox.pop_next`, a script): the records cost no
round trip of their own. The queued commands run first, in order; their failures are logged, never
raised (they are observability); the script's own reply or error is what the caller sees.
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger(__name__)


class Piggyback:
    """Wraps ``redis``; ``evalsha``/``eval`` execute ``pending`` (a non-transactional pipeline) with
    the script call appended. Everything else passes through to ``redis``."""

    def __init__(self, redis: Any, pending: Any) -> None:
        self._redis = redis
        self._pending = pending

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
        if any(isinstance(r, Exception) for r in results[:-1]):
            log.warning("queued transcript records failed: %s",
                        next(type(r).__name__ for r in results[:-1] if isinstance(r, Exception)))
        if isinstance(results[-1], Exception):
            raise results[-1]
        return results[-1]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._redis, name)
