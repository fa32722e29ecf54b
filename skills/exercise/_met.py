"""MET table (``met.json``, from the Compendium of Physical Activities) and energy estimates.

Energy ≈ MET × body mass (kg) × hours. When only a distance is given the duration is estimated
from the activity's typical speed; with both, speed bands refine the MET for running, walking
and cycling.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

__all__ = ["Activity", "DEFAULT_WEIGHT_KG", "Estimate", "activities", "estimate", "find_activity"]

MET_PATH = Path(__file__).with_name("met.json")


@dataclass(frozen=True, slots=True)
class Activity:
    """One activity: canonical Chinese name, MET, the Compendium activity it maps to, speeds."""

    name: str
    aliases: tuple[str, ...]
    met: float
    compendium: str
    typical_kmh: float | None
    speed_bands: tuple[tuple[float, float], ...]


@dataclass(frozen=True, slots=True)
class Estimate:
    """Minutes (given or estimated), MET used and energy in kcal."""

    minutes: float
    met: float
    kcal: float
    minutes_estimated: bool


@lru_cache(maxsize=1)
def _table() -> tuple[dict[str, Activity], float]:
    raw = json.loads(MET_PATH.read_text(encoding="utf-8"))
    table = {
        a["name"]: Activity(a["name"], tuple(a["aliases"]), float(a["met"]), a["compendium"], a["typical_kmh"],
                            tuple((float(u), float(m)) for u, m in a["speed_bands"]))
        for a in raw["activities"]
    }
    return table, float(raw["default_weight_kg"])


def activities() -> dict[str, Activity]:
    """Every known activity by canonical name."""
    return _table()[0]


DEFAULT_WEIGHT_KG = 60.0


# what people put inside a verb-object activity: 游完泳, 跳了20分钟绳, 跑了会儿步, 打了场球
_SPLIT_FILLER = r"(?:了|完|过|着|会儿?|一会儿?|场|趟|[\d零一二两三四五六七八九十百半.]+\s*(?:个)?(?:分钟|小时|钟头|公里|千米|圈|次|下)?)*"


@lru_cache(maxsize=1)
def _split_forms() -> tuple[tuple[re.Pattern[str], str], ...]:
    """Two-character activity names said with something between the verb and its object."""
    forms = []
    for act in activities().values():
        for word in (act.name, *act.aliases):
            if len(word) == 2 and all("\u4e00" <= ch <= "\u9fff" for ch in word):
                forms.append((re.compile(re.escape(word[0]) + _SPLIT_FILLER + re.escape(word[1])), act.name))
    return tuple(forms)


def find_activity(text: str) -> str | None:
    """The canonical activity named in ``text`` (the longest matching name or alias wins), also when
    the verb and its object are split ("游完泳", "跳了20分钟绳")."""
    best: tuple[int, str] | None = None
    for act in activities().values():
        for word in (act.name, *act.aliases):
            if word.lower() in text.lower() and (best is None or len(word) > best[0]):
                best = (len(word), act.name)
    if best is None:
        for pattern, name in _split_forms():
            if pattern.search(text):
                return name
    return best[1] if best else None


def said_activity(text: str) -> str | None:
    """The activity as the user named it, when that is a more specific word than its kind ("俯卧撑" for
    力量训练): what a record and its reply should say. None when the kind's own name was said."""
    best: tuple[int, str, str] | None = None
    for act in activities().values():
        for word in act.aliases:  # another word, not a form of the kind's own name ("跑了" is 跑步)
            if len(word) >= 2 and not set(word) & set(act.name) and word.lower() in text.lower() \
                    and (best is None or len(word) > best[0]):
                best = (len(word), word, act.name)
    if best is None or best[2] in text:
        return None
    return best[1]


def estimate(activity: str, *, minutes: float | None, distance_km: float | None, weight_kg: float) -> Estimate:
    """Energy for ``activity``; needs minutes or a distance (raises ValueError otherwise)."""
    act = activities().get(activity)
    if act is None:
        raise ValueError(f"unknown activity {activity!r}")
    met = act.met
    estimated = False
    if minutes is None or minutes <= 0:
        if not distance_km or not act.typical_kmh:
            raise ValueError("need minutes, or a distance for an activity with a typical speed")
        minutes, estimated = distance_km / act.typical_kmh * 60, True
    elif distance_km and act.speed_bands:
        speed = distance_km / (minutes / 60)
        met = next((m for upper, m in act.speed_bands if speed <= upper), act.met)
    kcal = met * weight_kg * minutes / 60
    return Estimate(minutes=round(minutes, 1), met=met, kcal=round(kcal), minutes_estimated=estimated)
