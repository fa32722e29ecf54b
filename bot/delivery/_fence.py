"""Fencing: a delivery made under a user's lease sends nothing once the lease is no longer its own."""

from __future__ import annotations

from typing import Protocol


class LeaseLost(Exception):
    """The user's lease lapsed or another drainer holds it now: this turn sends nothing more (the
    holder re-runs the message, and finds what this one settled)."""

    def __init__(self, user: str) -> None:
        super().__init__(f"lease of {user} lost")
        self.user = user


class Fence(Protocol):
    """The lease a delivery runs under. ``key`` and ``token`` let a Redis script check it atomically
    with a step; :meth:`ensure` checks it locally (renewing at once if the last renewal is old)."""

    @property
    def user(self) -> str: ...

    @property
    def key(self) -> str: ...

    @property
    def token(self) -> str: ...

    def ensure(self) -> None:
        """Raise :class:`LeaseLost` unless the lease is known to be ours for a while yet."""
