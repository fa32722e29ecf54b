"""Exercise skill: plan, log with MET energy, history (``skills.exercise.skill.SPEC``).

The package exports the MET table (:func:`activities`, :func:`find_activity`, :func:`estimate`) and
the readings of a message the skill's slots are made of: which day (:func:`extract_day`,
:func:`resolve_day`), which period (:func:`extract_period`, :func:`resolve_period`), a plan's limits
(:func:`extract_days`, :func:`extract_add`, :func:`extract_avoid`, :func:`extract_sessions`), several workouts in one message (:func:`extract_entries`), a log and its correction
(:func:`confirm_log`, :func:`corrected_log`, :func:`how_long`), which log to delete
(:func:`extract_log_target`, :func:`delete_log`), and the weekly plan itself (:func:`weekly_plan`).
"""

from skills.exercise._delete import delete_confirm_text, delete_log, extract_log_target
from skills.exercise._entries import extract_entries
from skills.exercise._history import extract_activity
from skills.exercise._limits import extract_add, extract_avoid, extract_days
from skills.exercise._log import confirm_log, corrected_log, how_long
from skills.exercise._met import MET_PATH, activities, activity_word, estimate, find_activity, same_activity
from skills.exercise._period import extract_period, resolve_period
from skills.exercise._plan import extract_sessions, weekly_plan
from skills.exercise._when import extract_day, resolve_day

__all__ = ["MET_PATH", "activities", "activity_word", "confirm_log", "corrected_log", "delete_confirm_text",
           "delete_log", "estimate", "extract_activity", "extract_add", "extract_avoid", "extract_day", "extract_days", "extract_entries",
           "extract_log_target", "extract_period", "extract_sessions", "find_activity", "how_long", "resolve_day", "resolve_period",
           "same_activity", "weekly_plan"]
