"""A drainer's next users, prepared in the round trips it makes for the current one.

Every claim and every pop of the current user carries one step for each of the next ``DEPTH`` users
of the batch: first the user's claim (:meth:`bot.queue.Mailbox.claim`: lease and mailbox head), then,
once the head is known, the head's first round trip (:class:`bot.worker._turn.EntryRead`). In the
steady state a user's turn starts with both done, at no round trip of its own. Claiming a little
early changes nothing for the user: the drainer popped it from the ready list already, and the
lease keeps everyone else out as before. Claims taken ahead are let go when the drainer stops early.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from typing import Any

from bot.queue import Mailbox
from bot.redis_client import text
from bot.worker._context import WorkerDeps
from bot.worker._piggyback import Queued
from bot.worker._turn import EntryRead

DEPTH = 2


def lease_token() -> str:
    return f"{os.getpid()}:{os.urandom(6).hex()}"  # the pid helps operators (and tests) see who


@dataclass
class Upcoming:
    """One of the next users: its claim (once ``claimed``: ``head`` None = leased elsewhere or
    empty) and its head's first reads."""

    user: str
    token: str = ""
    claimed: bool = False
    head: str | None = None
    read: EntryRead | None = None


Step = tuple[Upcoming, EntryRead | None, int]  # (user, its reads or None for its claim, commands)


class Lookahead:
    """The next users of a drainer's batch, in order."""

    def __init__(self, rt: WorkerDeps, users: list[str]) -> None:
        self._rt = rt
        self._next = [Upcoming(u) for u in users]

    def take(self, user: str) -> Upcoming | None:
        """What was prepared for ``user`` if it is the next one (it leaves the lookahead)."""
        if self._next and self._next[0].user == user:
            return self._next.pop(0)
        return None

    def board(self, pipe: Any) -> list[Step]:
        """Queue the next step of each of the next users on ``pipe`` (ahead of anything else)."""
        steps: list[Step] = []
        for up in self._next[:DEPTH]:
            if not up.claimed:
                up.token = lease_token()
                queued: Any = Queued(pipe)
                Mailbox(queued).claim(up.user, up.token, self._rt.lease_ttl_ms)
                steps.append((up, None, 1))
            elif up.head is not None and up.read is None:
                try:
                    read = EntryRead(self._rt, up.head)
                except Exception:  # a poison entry: handled (and logged) when its turn comes
                    continue
                steps.append((up, read, read.queue(pipe)))
        return steps

    def land(self, steps: list[Step], replies: list[Any], since: float) -> None:
        """Take the replies of the boarded steps (in order; their round trip was sent at ``since``); a
        failed step is simply done again later. A lease taken ahead is kept alive from now on."""
        at = 0
        for up, read, count in steps:
            got, at = replies[at:at + count], at + count
            if read is not None:
                if got and read.take(got):
                    up.read = read
            elif got and not isinstance(got[0], Exception):
                up.claimed, up.head = True, text(got[0]) if got[0] is not None else None
                if up.head is not None:
                    self._rt.leases.hold(up.user, up.token, since)
            else:  # e.g. NOSCRIPT: nothing ran; it is claimed the usual way
                self._release(up)

    def abandon(self, steps: list[Step]) -> None:
        """The round trip that carried ``steps`` failed: its claims may or may not have run."""
        for up, read, _ in steps:
            if read is None:
                self._release(up)

    def let_go(self) -> None:
        """Release every claim taken ahead (the drainer stops before reaching those users)."""
        for up in self._next:
            if up.claimed and up.head is not None:
                self._release(up)
        self._next.clear()

    def _release(self, up: Upcoming) -> None:
        self._rt.leases.drop(up.user, up.token)
        with contextlib.suppress(Exception):
            self._rt.mailbox.release(up.user, up.token)
        up.claimed, up.head, up.read = False, None, None
