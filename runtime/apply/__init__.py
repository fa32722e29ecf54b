"""Applying (DESIGN §1, §3.4): carrying out what the resolver decided, with typed params.

Slot filling, corrections, confirmation, pausing and resuming, follow-ups and small talk — the same
for every skill. Values come from the decision and the frame's readings, never from the message text.
"""

from runtime.apply._handlers import apply_match
from runtime.apply._snapshot import snapshot
from runtime.apply.dialogue import Dialogue

__all__ = ["Dialogue", "apply_match", "snapshot"]
