"""The budget of a plan in yuan (a per-person amount times the head count)."""

from __future__ import annotations

import re
from typing import Any

__all__ = ["budget_total"]


def budget_total(value: Any, people: int) -> float:
    """The budget in yuan; a per-person amount (the money slot's ``"人均30"``) times the head count."""
    if isinstance(value, str):
        m = re.fullmatch(r"\s*人均\s*(\d+(?:\.\d+)?)\s*", value)
        if m:
            return float(m.group(1)) * people
    return float(value)
