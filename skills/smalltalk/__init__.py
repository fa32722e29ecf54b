"""Small talk without a model: greetings, thanks, moods, who-are-you, what-can-you-do, goodbyes."""

from skills.smalltalk._kinds import DONE_SAID

__all__ = ["DONE_SAID"]
