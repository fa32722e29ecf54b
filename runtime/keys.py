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


def mailbox(user: str) -> str:
    """The user's ordered inbound mailbox."""
    return _user(user, "mailbox")


def lease(user: str) -> str:
    """The per-user processing lease."""
    return _user(user, "lease")


def reply(user: str, msg_id: str) -> str:
    """Where the worker leaves a turn's reply for the waiting webhook."""
    return _user(user, f"reply:{msg_id}")


def dedupe(user: str, msg_key: str) -> str:
    """Marks an inbound message or event as accepted (shared across replicas)."""
    return _user(user, f"seen:{msg_key}")


def active_users() -> str:
    """Sorted set of recently active users (score = last activity)."""
    return f"{PREFIX}:active_users"


def stats(name: str) -> str:
    """A global counter hash for ``wxbot stats``."""
    return f"{PREFIX}:stats:{name}"


def weather_cache(city: str, hour: str) -> str:
    """Cached forecast of a city for one hour."""
    return f"{PREFIX}:weather:{city}:{hour}"


def scheduler_leader() -> str:
    """The scheduler leader lease."""
    return f"{PREFIX}:scheduler:leader"
