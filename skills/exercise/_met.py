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

__all__ = ["Activity", "DEFAULT_WEIGHT_KG", "Estimate", "activities", "activity_word", "estimate", "find_activity",
           "same_activity"]

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


# what people put inside a verb-object activity: 游完泳, 跳了20分钟绳, 跑了会儿步, 打了场球, 打了一个钟波
_SPLIT_FILLER = (r"(?:了|完|过|着|会儿?|一会儿?|场|趟|个[半把](?:钟头|小时|钟)"
                 r"|[\d零一二两三四五六七八九十百半.]+\s*(?:个)?(?:分钟|小时|钟头|钟|公里|千米|圈|次|下)?)*")


@lru_cache(maxsize=1)
def _split_forms() -> tuple[tuple[re.Pattern[str], str, str], ...]:
    """Two-character activity names said with something between the verb and its object: (pattern, the
    word, its activity)."""
    forms = []
    for act in activities().values():
        for word in (act.name, *act.aliases):
            if len(word) == 2 and all("\u4e00" <= ch <= "\u9fff" for ch in word):
                forms.append((re.compile(re.escape(word[0]) + _SPLIT_FILLER + re.escape(word[1])), word, act.name))
    return tuple(forms)


@lru_cache(maxsize=1)
def _words() -> tuple[tuple[str, str], ...]:
    """Every name and alias (lower case) with its activity, longest first, a word before a verb's form
    ("慢跑了" is 慢跑, not 跑了)."""
    pairs = [(word.lower(), act.name) for act in activities().values() for word in (act.name, *act.aliases)]
    return tuple(sorted(pairs, key=lambda p: (-len(p[0]), _form(p[0]))))


def _form(word: str) -> bool:
    """Whether an alias is a form of a verb ("跑了", "跑"), not a word for an activity."""
    return len(word) < 2 or word.endswith("了")


_FINISHED = re.compile(r"([跑游骑走跳爬练打踢])完(?![了成])")
# places named after what is done there: "健身房练了一个小时力量" is strength training, not 健身 as such
_PLACES = re.compile(r"健身房|健身中心|健身馆|游泳馆|游泳池|跑道")


def _named(text: str) -> tuple[str, str] | None:
    """(the words of ``text`` that name an activity, that activity): the longest name or alias, else a
    two-character one split by what people put inside it ("游完泳" → 游泳, "撸完铁" → 撸铁); a place named
    after an activity counts only when nothing else is named ("去健身房了")."""
    if _PLACES.search(text):
        found = _named(_PLACES.sub(lambda m: " " * len(m.group()), text))
        if found is not None:
            return found
        text = _PLACES.sub(lambda m: m.group()[:-1], text)
    lowered = text.lower()
    for word, name in _words():
        at = lowered.find(word)
        if at >= 0:
            return text[at:at + len(word)], name
    for pattern, word, name in _split_forms():
        if pattern.search(text):
            return word, name
    finished = _FINISHED.sub(r"\1了", text)  # "刚游完 1500米": 游完 is 游了
    return _named(finished) if finished != text else None


def find_activity(text: str) -> str | None:
    """The canonical activity named in ``text`` (the longest matching name or alias wins), also when
    the verb and its object are split ("游完泳", "跳了20分钟绳")."""
    found = _named(text)
    return found[1] if found else None


def activity_word(text: str) -> str | None:
    """The activity named in ``text`` as the user called it ("俯卧撑", "慢跑", "蛙泳", "撸铁"): what a record,
    its confirmation, a history and a deletion say. A form of a verb ("跑了", "跑") is its activity's own name."""
    found = _named(text)
    if found is None:
        return None
    word, name = found
    return name if _form(word) or word in name else word  # "力量" is 力量训练


# an activity asked by its plain name covers its gentler and brisker kinds ("这周走了多久" counts 快走 and 散步)
_FAMILIES = {"走路": frozenset({"走路", "快走", "散步"})}


def same_activity(word: str, asked: str) -> bool:
    """Whether a workout recorded as ``word`` is one ``asked`` means: the same word, or any word of the
    activity when the activity's own name is asked ("跑步" covers 慢跑 and 夜跑; "蛙泳" only 蛙泳; 走路 covers 快走)."""
    kind = find_activity(asked)
    done = find_activity(word)
    return word == asked or (kind == asked and (done == kind or done in _FAMILIES.get(kind, ())))


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
