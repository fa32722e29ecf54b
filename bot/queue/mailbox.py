"""Per-user mailboxes in Redis and the RQ queue that drains them.

The webhook appends each accepted message to ``wx:{user}:mailbox`` (atomically with opening its
hand-off, so a retry never appends twice) and puts the user on the ready list served by a capped
number of drainer jobs (:mod:`bot.queue._drain`). A drainer drains one user's mailbox under a
per-user lease with expiry, head first, popping a message only after it was fully handled: per-user
order, never two at once, at-least-once.
"""

from __future__ import annotations

import time
from typing import Any, NamedTuple, Protocol

from redis.exceptions import NoScriptError
from rq import Queue

from bot.delivery.handoff import (
    ACCEPT_LUA,
    ADMIT_LUA,
    Attempt,
    Handoff,
    Opened,
    accept_section,
    admit_section,
)
from bot.queue._drain import DEFAULT_MAX_DRAINERS, DrainSchedule, new_token
from bot.redis_client import Call, RedisClient, run_script, script_sha, text
from runtime import keys

QUEUE_NAME = "wxbot"
PENDING_TTL_S = 60
DRAIN_JOB = "bot.worker.drain_user"
DRAINER_JOB = "bot.worker.drain_ready"
RELEASED_JOB = "bot.worker.deliver_released"
PUSH_JOB = "bot.worker.deliver_push"  # queued by the scheduler (older jobs: bot._scheduler_sinks.deliver_push)

_RELEASE_LEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
_RENEW_LEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""
# One round trip per new message: the hand-off (its side is :data:`bot.delivery.handoff.ADMIT_LUA`,
# with its keys and args first), then the rate limit, the mailbox append, the recovery indexes, the
# drain-pending claim and (with a drain schedule, cap > 0) the ready-list push and drainer check.
# ``wx:mailboxes`` is indexed here (not after) so that a webhook dying right after this script
# still leaves the message visible to the sweeper. Own KEYS (after the hand-off's four): mailbox,
# rate, drain pending, active mailboxes, ready, drainers; own ARGV (after its twelve): entry, limit,
# pending ttl, now, user, now ms, drainer ttl ms, max drainers, drainer token.
_ADMIT = ADMIT_LUA + """
local again = handoff_again()
if again then return {1, again[1], again[2], 0, 0, again[3]} end
local limit = tonumber(ARGV[14])
if limit > 0 then
  local count = redis.call('INCR', KEYS[6])
  if count == 1 then redis.call('EXPIRE', KEYS[6], 120) end
  if count > limit then return {0, '', 0, 0, 0} end
end
handoff_open()
redis.call('RPUSH', KEYS[5], ARGV[13])
redis.call('ZADD', KEYS[8], ARGV[16], ARGV[17])
if not redis.call('SET', KEYS[7], '1', 'NX', 'EX', ARGV[15]) then return {1, ARGV[2], 1, 0, 0} end
local cap = tonumber(ARGV[20])
if cap <= 0 then return {1, ARGV[2], 1, 1, 0} end
redis.call('RPUSH', KEYS[9], ARGV[17])
redis.call('ZREMRANGEBYSCORE', KEYS[10], '-inf', ARGV[18])
if redis.call('ZCARD', KEYS[10]) < cap then
  redis.call('ZADD', KEYS[10], tonumber(ARGV[18]) + tonumber(ARGV[19]), ARGV[21])
  return {1, ARGV[2], 1, 1, 2}
end
return {1, ARGV[2], 1, 1, 1}
"""
# The hand-off (its side is :data:`bot.delivery.handoff.ACCEPT_LUA`) and the mailbox append, keys of
# one user only (:meth:`Mailbox.accept`). Own KEYS (after the hand-off's one): mailbox; own ARGV
# (after its two): entry.
_ACCEPT = ACCEPT_LUA + """
local again = handoff_accepted()
if again then return again end
redis.call('RPUSH', KEYS[2], ARGV[3])
return {ARGV[2], 1}
"""
# Take the user's lease and read the head in one round trip (the pending flag is cleared first, so
# a message appended from now on puts the user on the ready list again). An empty mailbox releases.
_CLAIM = """
redis.call('DEL', KEYS[1])
if not redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then return false end
local head = redis.call('LINDEX', KEYS[3], 0)
if not head then redis.call('DEL', KEYS[2]) end
return head
"""
# Pop the handled head, read the next one and renew the lease — or release it when the mailbox is
# empty, atomically with the emptiness check (an append after this script re-queues the user).
# {-1}: lease lost; {0}: head changed; {1}: popped and done; {1, next}: popped, lease renewed.
_POP_NEXT = """
if redis.call('GET', KEYS[2]) ~= ARGV[2] then return {-1} end
if redis.call('LINDEX', KEYS[1], 0) ~= ARGV[1] then return {0} end
redis.call('LPOP', KEYS[1])
local nxt = redis.call('LINDEX', KEYS[1], 0)
if not nxt then redis.call('DEL', KEYS[2]) return {1} end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return {1, nxt}
"""
# For a batch of users: forget the empty mailboxes, return the users whose mailbox has work and no
# lease. KEYS: active mailboxes, then mailbox/lease pairs; ARGV: the users, in the same order.
_STALLED = """
local out = {}
for i, user in ipairs(ARGV) do
  if redis.call('LLEN', KEYS[2 * i]) == 0 then
    redis.call('ZREM', KEYS[1], user)
  elseif redis.call('EXISTS', KEYS[2 * i + 1]) == 0 then
    out[#out + 1] = user
  end
end
return out
"""


class Admitted(NamedTuple):
    """What :meth:`Mailbox.admit` found: rate-limited, or the hand-off state and attempt number.

    ``claimed`` is True when this call set the user's drain-pending flag: the caller must then
    dispatch a drain job (nobody else will) — unless ``queued``: the user is already on the ready
    list (a drain schedule was given), and ``drainer`` is the token of a drainer job to start, if any.
    """

    allowed: bool
    opened: Opened
    claimed: bool
    queued: bool = False
    drainer: str | None = None


_ADMIT_SHARED_KEYS = (keys.active_mailboxes(), keys.ready_users(), keys.drainers())


def admit_call(user: str, message_key: str, entry: str, *, limit: int, deadline: float, now: float,
               waits: bool = True, schedule: DrainSchedule | None = None,
               attempt: Attempt | None = None) -> tuple[Call, str]:
    """The script call of :meth:`Mailbox.admit` and the drainer token it may hand out (no I/O).
    ``attempt``: the waiting request's limits (without, a reply offered is never too late for it)."""
    token = new_token() if schedule is not None else ""
    handoff_keys, handoff_args = admit_section(user, message_key, waits=waits, deadline=deadline, at=now,
                                               attempt=attempt)
    call = Call(_ADMIT,
                [*handoff_keys, keys.mailbox(user), keys.rate(user, int(now // 60)), keys.drain_pending(user),
                 *_ADMIT_SHARED_KEYS],
                [*handoff_args, entry, max(0, limit), PENDING_TTL_S, repr(now), user, int(time.time() * 1000),
                 schedule.ttl_ms if schedule else 0, schedule.max_drainers if schedule else 0, token])
    return call, token


def admitted(reply: Any, token: str) -> Admitted:
    """Read the admit script's reply."""
    allowed, state, attempt, claimed, queued = reply[:5]
    taken = text(reply[5]) if len(reply) > 5 else ""
    return Admitted(bool(int(allowed)), Opened(text(state), int(attempt), taken), bool(int(claimed)),
                    queued=int(queued) > 0, drainer=token if int(queued) == 2 else None)


class Mailbox:
    """Redis I/O for per-user mailboxes and leases."""

    def __init__(self, redis: RedisClient) -> None:
        self.redis = redis

    def accept(self, user: str, message_key: str, entry: str, *, deadline: float, now: float,
               waits: bool = True) -> Opened:
        """Register one webhook delivery; the first one appends ``entry`` to the mailbox.

        ``waits=False`` (events nobody answers) opens the hand-off already ``released``.
        """
        handoff_keys, handoff_args = accept_section(user, message_key, waits=waits)
        state, attempt = run_script(self.redis, _ACCEPT, [*handoff_keys, keys.mailbox(user)], [*handoff_args, entry])
        opened = Opened(text(state), int(attempt))
        if opened.first:
            pipe = self.redis.pipeline()
            if waits:
                Handoff(self.redis).queue_due(pipe, user, message_key, deadline)
            pipe.zadd(keys.active_mailboxes(), {user: now})
            pipe.execute()
        return opened

    def admit(self, user: str, message_key: str, entry: str, *, limit: int, deadline: float, now: float,
              waits: bool = True, schedule: DrainSchedule | None = None, attempt: Attempt | None = None) -> Admitted:
        """The rate limit + :meth:`accept` + the drain-pending claim in one atomic round trip; with a
        ``schedule`` also the ready-list push and the drainer check of :meth:`DrainSchedule.push`."""
        call, token = admit_call(user, message_key, entry, limit=limit, deadline=deadline, now=now,
                                 waits=waits, schedule=schedule, attempt=attempt)
        return admitted(run_script(self.redis, *call), token)

    def claim(self, user: str, token: str, ttl_ms: int) -> str | None:
        """Clear the pending flag, take the lease and return the head; None: leased elsewhere or empty."""
        head = run_script(self.redis, _CLAIM, [keys.drain_pending(user), keys.lease(user), keys.mailbox(user)],
                          [token, ttl_ms])
        return text(head) if head is not None else None

    def pop_next(self, user: str, entry: str, token: str, ttl_ms: int) -> tuple[int, str | None]:
        """Pop handled ``entry``; ``(1, next)`` to go on, ``(1, None)`` done (lease released),
        ``(0, None)`` the head changed, ``(-1, None)`` the lease was lost."""
        reply = run_script(self.redis, _POP_NEXT, [keys.mailbox(user), keys.lease(user)], [entry, token, ttl_ms])
        status = int(reply[0])
        return status, (text(reply[1]) if len(reply) > 1 else None)

    def acquire(self, user: str, token: str, ttl_ms: int) -> bool:
        return bool(self.redis.set(keys.lease(user), token, nx=True, px=ttl_ms))

    def release(self, user: str, token: str) -> None:
        run_script(self.redis, _RELEASE_LEASE, [keys.lease(user)], [token])

    def renew(self, leases: list[tuple[str, str]], ttl_ms: int) -> list[bool]:
        """Renew each ``(user, token)`` lease still held by that token, in one round trip; False
        where it is gone or held by another token."""
        if not leases:
            return []
        for _ in range(2):  # NOSCRIPT (e.g. Redis restarted): load it, try once more
            pipe = self.redis.pipeline(transaction=False)
            for user, token in leases:
                pipe.evalsha(script_sha(_RENEW_LEASE), 1, keys.lease(user), token, ttl_ms)
            replies = pipe.execute(raise_on_error=False)
            if not any(isinstance(r, NoScriptError) for r in replies):
                break
            client: Any = self.redis
            client.script_load(_RENEW_LEASE)
        for reply in replies:
            if isinstance(reply, Exception):
                raise reply
        return [bool(int(r)) for r in replies]

    def stalled(self, older_than: float, limit: int = 200) -> list[str]:
        """Users with a possibly non-empty mailbox last touched before ``older_than`` and no lease."""
        users = [text(u) for u in self.redis.zrangebyscore(keys.active_mailboxes(), "-inf", older_than,
                                                            start=0, num=limit)]
        if not users:
            return []
        pairs = [k for user in users for k in (keys.mailbox(user), keys.lease(user))]
        return [text(u) for u in run_script(self.redis, _STALLED, [keys.active_mailboxes(), *pairs], users)]


def make_queue(redis: RedisClient, name: str = QUEUE_NAME) -> Queue:
    """The RQ queue drain jobs go to (visible in ``rq info``)."""
    conn: Any = redis
    return Queue(name, connection=conn)


def enqueue_drainer(queue: Queue, token: str) -> None:
    """Start a drainer job holding ``token`` (its slot under the cap)."""
    queue.enqueue(DRAINER_JOB, token, result_ttl=0, failure_ttl=86400, job_timeout=600)


def enqueue_released(queue: Queue, user: str, message_key: str, reply: str) -> None:
    """A ready passive reply nobody took in time goes out through the API."""
    queue.enqueue(RELEASED_JOB, user, message_key, reply, result_ttl=0, failure_ttl=86400)


class Dispatcher(Protocol):
    """How accepted work reaches a worker: RQ in production, a thread pool in embedded mode."""

    def drain(self, user: str, *, force: bool = False) -> None:
        """Make sure some worker drains ``user``'s mailbox soon (``force``: even if one is queued)."""

    def released(self, user: str, message_key: str, reply: str) -> None:
        """Deliver a ready passive reply nobody took, through the API."""


class RQDispatcher:
    """Dispatch through the RQ queue: users go on the ready list, served by at most ``max_drainers``
    drainer jobs (``force`` starts one more even at the cap: the sweeper's recovery path)."""

    def __init__(self, queue: Queue, *, max_drainers: int = DEFAULT_MAX_DRAINERS) -> None:
        self.queue = queue
        self.schedule = DrainSchedule(queue.connection, max_drainers=max_drainers)

    def drain(self, user: str, *, force: bool = False) -> None:
        token = self.schedule.push(user, force=force)
        if token is not None:
            enqueue_drainer(self.queue, token)

    def released(self, user: str, message_key: str, reply: str) -> None:
        enqueue_released(self.queue, user, message_key, reply)
