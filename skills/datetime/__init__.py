"""datetime.query skill, the day entity other skills show (a reminder's day), and the official calendar
of workdays and holidays it reads (:func:`day_kind`; :class:`BeyondCalendar` past :func:`last_year_known`)."""

from skills.datetime._calendar import BeyondCalendar, day_kind, last_year_known
from skills.datetime._focus import day_entity
from skills.datetime.skill import SPEC

__all__ = ["SPEC", "BeyondCalendar", "day_entity", "day_kind", "last_year_known"]
