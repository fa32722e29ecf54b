"""Every Redis key name wxbot uses, built in one place.

All keys live under one prefix. Per-user keys carry a hash tag (``{openid}``) so that
multi-key scripts touching one user's keys also work on Redis Cluster (DESIGN §7).
"""

from __future__ import annotations

PREFIX = "wx"


def _user(user: str, suffix: str) -> str:
    return f"{PREFIX}:{{{user}}}:{suffix}"


def context(user: str) -> str:
    """The user's ConversationRuntimeContext blob."""
    return _user(user, "ctx")


def context_quarantine(user: str) -> str:
    """A corrupt context blob, kept aside for the admin."""
    return _user(user, "ctx:bad")


def transcript(user: str) -> str:
    """The user's transcript stream (inbound, replies, pushes, traces)."""
    return _user(user, "transcript")


def active_users() -> str:
    """Sorted set of recently active users (score = last activity)."""
    return f"{PREFIX}:active_users"


def stats(name: str) -> str:
    """A global counter hash for ``wxbot stats``."""
    return f"{PREFIX}:stats:{name}"


def skill_cache(skill: str, *parts: str) -> str:
    """A skill's cache entry (e.g. a city's forecast for one hour)."""
    return ":".join((PREFIX, skill, *parts))


def scheduler_leader() -> str:
    """The scheduler leader lease."""
    return f"{PREFIX}:scheduler:leader"


# -- the WeChat edge: webhook, queue, worker, delivery, access token --------------------------------

def dedupe(user: str, message_key: str) -> str:
    """Set once per inbound message (``SET NX``) to drop WeChat retries and cross-replica duplicates."""
    return _user(user, f"seen:{message_key}")


def handoff(user: str, message_key: str) -> str:
    """Hash: the passive-reply hand-off state between the webhook and the worker for one message."""
    return _user(user, f"handoff:{message_key}")


def mailbox(user: str) -> str:
    """List: the user's inbound messages in arrival order (JSON), drained by one worker at a time."""
    return _user(user, "mailbox")


def drain_pending(user: str) -> str:
    """String with expiry: a drain job for the user is queued and has not started yet."""
    return _user(user, "drain")


def rate(user: str, minute: int) -> str:
    """Counter of new messages from the user in one clock minute (per-user rate limit)."""
    return _user(user, f"rate:{minute}")


def lease(user: str) -> str:
    """String with expiry: which worker currently drains the user's mailbox."""
    return _user(user, "lease")


def turn_done(user: str, message_key: str) -> str:
    """String: the replies a finished turn produced (so a re-run never calls the engine twice)."""
    return _user(user, f"done:{message_key}")


def part_sent(user: str, message_key: str) -> str:
    """Hash: which reply parts of one message were already handed to a channel (exactly-once)."""
    return _user(user, f"sent:{message_key}")


def quota(user: str) -> str:
    """Hash: the customer-service quota window (last message / last click and counts used)."""
    return _user(user, "quota")


def parked(user: str) -> str:
    """List: texts that could not be delivered; prepended to the user's next reply ("next touch")."""
    return _user(user, "parked")


def outcomes(user: str) -> str:
    """Stream: every delivery outcome for the user (channel, status, code)."""
    return _user(user, "outcomes")


def user_flags(user: str) -> str:
    """Hash: ``unsubscribed`` / ``refused`` flags that stop pushes to the user."""
    return _user(user, "flags")


def active_mailboxes() -> str:
    """Sorted set of users whose mailbox may be non-empty (score = last push time), for recovery."""
    return f"{PREFIX}:mailboxes"


def handoff_deadlines() -> str:
    """Sorted set ``user|message_key`` by deadline: passive hand-offs to release to the API path."""
    return f"{PREFIX}:handoff:deadlines"


def access_token(app_id: str) -> str:
    """String with expiry: the shared access_token of one official account."""
    return f"{PREFIX}:token:{app_id}"


def access_token_lock(app_id: str) -> str:
    """Lock held by the single refresher of the access_token."""
    return f"{PREFIX}:token:{app_id}:lock"


def access_token_stale(app_id: str) -> str:
    """String: a token WeChat rejected (40001/42001); the next refresh must force a new one."""
    return f"{PREFIX}:token:{app_id}:stale"


def template_jobs(user: str) -> str:
    """Hash: template-message msgid -> the message key it delivered (for TEMPLATESENDJOBFINISH)."""
    return _user(user, "tmpl")


def sweep_lock() -> str:
    """Lock held by the one process sweeping overdue hand-offs and orphaned mailboxes."""
    return f"{PREFIX}:sweep:lock"


def ready_users() -> str:
    """List: users whose mailbox has work and who wait for a drainer (a user may appear twice)."""
    return f"{PREFIX}:ready"


def drainers() -> str:
    """Sorted set: live drainer tokens, score = expiry in epoch ms (the cap on concurrent drainers)."""
    return f"{PREFIX}:drainers"


def replies_channel() -> str:
    """Pub/sub channel: ``user|message_key`` of a hand-off whose state just left ``waiting``."""
    return f"{PREFIX}:replies"
