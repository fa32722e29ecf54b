"""Resolving (DESIGN §1, §3.4): one policy over the frame and the conversation decides what a message is.

Crisis → control → the pending question or confirmation → the focus → a new request → small talk; a
message nothing explains is asked about, or goes to the model router when one is configured, then the
fallback. :class:`Resolver` holds the order (:mod:`runtime.resolve.policy`); each stage reads the frame
against one part of the conversation and proposes a :class:`Match`. Deciding never changes the context.
"""

from runtime.resolve._match import Kind, Match
from runtime.resolve.policy import Resolver
from runtime.resolve.turn import Turn

__all__ = ["Kind", "Match", "Resolver", "Turn"]
