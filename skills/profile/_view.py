"""profile.view: the stored profile, or the one thing asked about it ("我多重来着", "我的BMI多少")."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from runtime.skill import Entity, FollowUps, Modifier, SkillResult
from runtime.views import ExecView
from skills.models import HealthProfile
from skills.store import get_profile

__all__ = ["VIEW_FOLLOW_UPS", "bmi_text", "extract_aspect", "profile_dto", "view_profile"]

# what a question about the profile asks after (the first that matches wins)
_ASPECTS = (("bmi", r"BMI|bmi|体质指数|胖不胖|超重|胖吗|瘦吗|算胖|算瘦"),
            ("target_weight_kg", r"目标体重|理想体重|(?:减|瘦|增|长)到多少|离目标"),
            ("weight_kg", r"多重|多沉|几重|(?<!目标)(?<!理想)体重|几斤|多少斤|几公斤|多少公斤|多少千克|多少kg"),
            ("height_cm", r"多高|几高|身高|个子|多少厘米|多少公分"), ("goal", r"(?<!离)目标(?!体重)"), ("city", r"城市|住哪|住在哪"),
            ("dislikes", r"忌口|不吃什么|不吃啥|不能吃"), ("allergies", r"过敏"),
            ("conditions", r"身体情况|身体状况|健康情况|健康状况|病史|慢性病|基础病|什么病|啥病|毛病|哪些病|"
                           r"(?:身体|健康)(?:上)?有(?:啥|什么|哪些)(?:情况|状况|毛病|问题|病)"))


def extract_aspect(text: str) -> str | None:
    """The one field a question about the profile asks after; None for the whole profile (or several fields)."""
    asked = [name for name, words in _ASPECTS if re.search(words, text)]
    return asked[0] if len(asked) == 1 else None


def bmi_text(height_cm: float | None, weight_kg: float | None) -> str | None:
    """BMI with the Chinese adult cut-offs (WS/T 428-2013): <18.5 偏瘦, <24 正常, <28 超重, else 肥胖."""
    if not height_cm or not weight_kg:
        return None
    bmi = weight_kg / (height_cm / 100) ** 2
    label = "偏瘦" if bmi < 18.5 else "正常" if bmi < 24 else "超重" if bmi < 28 else "肥胖"
    return f"BMI {bmi:.1f}（{label}）"


def profile_dto(profile: HealthProfile | None) -> dict[str, Any]:
    """The trimmed, model-facing form of a profile (no ids, no timestamps)."""
    if profile is None:
        return {}
    return {"goal": profile.goal, "height_cm": profile.height_cm, "weight_kg": profile.weight_kg,
            "target_weight_kg": profile.target_weight_kg, "city": profile.city, "dislikes": list(profile.dislikes), "allergies": list(profile.allergies),
            "conditions": list(profile.conditions or [])}


def _said(dto: Mapping[str, Any]) -> str:
    parts = []
    if dto.get("goal"):
        parts.append(f"目标{dto['goal']}")
    if dto.get("height_cm"):
        parts.append(f"身高{dto['height_cm']:g}厘米")
    if dto.get("weight_kg"):
        parts.append(f"体重{dto['weight_kg']:g}公斤")
    if dto.get("target_weight_kg"):
        parts.append(f"目标体重{dto['target_weight_kg']:g}公斤")
    if dto.get("city"):
        parts.append(f"常住城市{dto['city']}")
    if dto.get("conditions"):
        parts.append("身体情况：" + "、".join(dto["conditions"]))
    if dto.get("dislikes"):
        veg = {"素食": "吃素", "纯素": "吃纯素"}
        parts += [veg[d] for d in dto["dislikes"] if d in veg]
        if foods := [d for d in dto["dislikes"] if d not in veg]:
            parts.append("不吃" + "、".join(foods))
    if dto.get("allergies"):
        parts.append("对" + "、".join(dto["allergies"]) + "过敏")
    return "，".join(parts)


_MISSING = {"bmi": "算BMI要身高和体重，", "weight_kg": "你还没告诉我体重，", "target_weight_kg": "你还没设目标体重，",
            "height_cm": "你还没告诉我身高，",
            "goal": "你还没设目标，", "city": "你还没告诉我常住哪个城市，", "dislikes": "你还没说过忌口，",
            "allergies": "你还没说过对什么过敏，", "conditions": "你还没说过有什么慢性病或身体情况，"}
_EXAMPLE = {"bmi": "说“身高170，体重65公斤”就能算。", "weight_kg": "说“体重65公斤”就能记下。",
            "target_weight_kg": "说“目标体重60公斤”就能记下。",
            "height_cm": "说“身高170”就能记下。", "goal": "说“目标是减脂”就能记下。", "city": "说“我在杭州”就能记下。",
            "dislikes": "说“我不吃香菜”就能记下。", "allergies": "说“我对花生过敏”就能记下。",
            "conditions": "说“我有痛风”就能记下。"}


def _aspect(aspect: str, dto: Mapping[str, Any]) -> str | None:
    """The answer about one field, or None when it is not known."""
    bmi = bmi_text(dto.get("height_cm"), dto.get("weight_kg"))
    if aspect == "bmi":
        return f"你的{bmi}，按身高{dto['height_cm']:g}厘米、体重{dto['weight_kg']:g}公斤算。" if bmi else None
    value = dto.get(aspect)
    if not value:
        return None
    if aspect == "weight_kg":
        return f"你的体重是{value:g}公斤（{value * 2:g}斤）" + (f"，{bmi}。" if bmi else "。")
    if aspect == "height_cm":
        return f"你的身高是{value:g}厘米" + (f"，{bmi}。" if bmi else "。")
    if aspect == "goal":
        return f"你的目标是{value}" + (f"，目标体重{dto['target_weight_kg']:g}公斤。" if dto.get("target_weight_kg") else "。")
    if aspect == "target_weight_kg":
        now = dto.get("weight_kg")
        gap = round(now - value, 1) if now else 0
        return f"你的目标体重是{value:g}公斤" + (f"，现在{now:g}公斤，还差{abs(gap):g}公斤。" if gap else "。")
    if aspect == "city":
        return f"你的常住城市是{value}。"
    if aspect == "dislikes":
        return "你不吃" + "、".join(value) + "。"
    if aspect == "conditions":
        whole = _said({k: v for k, v in dto.items() if k in ("conditions", "dislikes", "allergies")})
        return f"我记下的：{whole}。"
    return "你对" + "、".join(value) + "过敏。"


# a message that is only a measure ("一米六五", "165", "六十二公斤左右"): the value of the field just found missing
_MEASURE = (r"^(?:大概|差不多|估计|应该)?(?:是)?[\d.一二两三四五六七八九十百米点]+\s*(?:厘米|cm|公分|公斤|kg|千克|斤)?"
            r"(?:吧|左右|多|出头|的样子)?[。!！~～]*$")


def _missing_value(params: Mapping[str, Any], m: re.Match[str], entity: Entity | None,
                   shown: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """"一米六五" right after "你还没告诉我身高": the update of that field (its value is read from the words)."""
    missing = shown.get("missing")
    return {"field": missing} if missing in ("height_cm", "weight_kg") else None


# whether a measure shown is all right: "这样正常吗", "正常不", "我这样算胖吗", "标准不" — judged by the BMI
_ASSESS = (r"(?:这|这个|那|那这个?|我这个?|我)?(?:样|数)?(?:现在)?(?:算|是|属于|还算)?(?:不)?"
           r"(?:正常|标准|健康|合适|达标|超标|偏高|偏低|偏胖|偏瘦|超重|胖|瘦)(?:的)?"
           r"(?:吗|不|么|没|嘛|吧|不正常|不标准|范围(?:吗|不|内吗)?)?")


def _assessed(params: Mapping[str, Any], m: re.Match[str], entity: Entity | None,
              shown: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """"这样正常吗" right after a measure was shown: the BMI, judged against its normal range."""
    return {**params, "aspect": "bmi", "judged": True}


VIEW_FOLLOW_UPS = FollowUps(modifiers=(Modifier("the value found missing", _MEASURE, _missing_value,
                                                intent="profile.update"),
                                       Modifier("is it normal", _ASSESS, _assessed)))
_NORMAL = "成人BMI在18.5到23.9之间算正常。"
_ASK_FOR = {"height_cm": "身高，你多高？比如“身高170”。", "weight_kg": "体重，你现在多重？比如“体重65公斤”。"}


def view_profile(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """Show the stored profile, or answer the one field asked about."""
    profile = get_profile(services.db, view.user)
    dto = profile_dto(profile)
    shown = {k: v for k, v in dto.items() if v not in (None, [], "")}
    facts = {k: v for k, v in shown.items() if k in ("goal", "city")}
    aspect = params.get("aspect")
    if isinstance(aspect, str) and aspect in _MISSING:
        answer = _aspect(aspect, dto)
        lacking = [f for f in ("height_cm", "weight_kg") if not dto.get(f)]
        if answer is None and aspect == "bmi" and len(lacking) == 1:  # ask for the one value still needed
            return SkillResult("算BMI还差" + _ASK_FOR[lacking[0]], dto={"aspect": aspect, "known": False},
                               shown={"missing": lacking[0]})
        if answer is not None and aspect == "bmi" and params.get("judged"):
            answer += _NORMAL
        if answer is None:
            return SkillResult(_MISSING[aspect] + _EXAMPLE[aspect], dto={"aspect": aspect, "known": False},
                               shown={"missing": aspect})
        return SkillResult(answer, data=dto, dto={**dto, "aspect": aspect}, facts=facts)
    if not shown:
        return SkillResult("你还没有设置个人资料。可以说“我的目标是减脂，身高170，体重65公斤”。", dto={})
    lines = ["你的资料：" + _said(shown) + "。"]
    bmi = bmi_text(dto.get("height_cm"), dto.get("weight_kg"))
    if bmi:
        lines.append(bmi + "。")
    return SkillResult("".join(lines), data=dto, dto=dto, facts=facts)
