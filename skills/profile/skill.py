"""profile.view / profile.update: goal, height, weight, default city, dislikes and allergies."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlmodel import Session, select

from runtime.skill import ActionSpec, DomainObject, Operation, SkillResult, SkillSpec, SlotSpec, SlotType
from runtime.views import ExecView
from skills.models import HealthProfile, utcnow
from skills.profile._parse import (
    GOALS,
    extract_allergies,
    extract_city,
    extract_dislikes,
    extract_goal,
    extract_height,
    extract_weight,
    parse_goal,
)
from skills.profile._triggers import TRIGGERS
from skills.store import apply_once, get_profile
from skills.weather._cities import clean_city

__all__ = ["SPEC", "bmi_text", "normalise_update", "update", "view_profile"]

_FIELDS = ("goal", "height_cm", "weight_kg", "city", "dislikes", "allergies")
_LABELS = {"goal": "目标", "height_cm": "身高", "weight_kg": "体重", "city": "常住城市", "dislikes": "不吃",
           "allergies": "过敏"}


def normalise_update(params: Mapping[str, Any]) -> dict[str, Any]:
    """Typed, validated changes from slot values (a free-text goal answer is parsed again)."""
    out: dict[str, Any] = {}
    goal = params.get("goal")
    if isinstance(goal, str) and goal:
        canonical = goal if goal in GOALS else parse_goal(goal)
        if canonical:
            out["goal"] = canonical
        for name, extractor in (("height_cm", extract_height), ("weight_kg", extract_weight)):
            value = extractor(goal)
            if value is not None and params.get(name) is None:
                out[name] = value
    for name, low, high in (("height_cm", 100, 250), ("weight_kg", 25, 250)):
        value = params.get(name)
        if isinstance(value, int | float) and low <= value <= high:
            out[name] = float(value)
    city = params.get("city")
    if isinstance(city, str) and city.strip():
        out["city"] = clean_city(city)
    for name in ("dislikes", "allergies"):
        value = params.get(name)
        items = [value] if isinstance(value, str) else list(value or [])
        items = [str(x).strip() for x in items if str(x).strip() and str(x).strip() not in ("没有", "无")]
        if items:
            out[name] = items
    return out


def _describe(changes: Mapping[str, Any]) -> str:
    parts = []
    for name in _FIELDS:
        if name not in changes:
            continue
        value = changes[name]
        if name == "height_cm":
            text = f"{value:g}厘米"
        elif name == "weight_kg":
            text = f"{value:g}公斤"
        elif isinstance(value, list):
            text = "、".join(value)
        else:
            text = str(value)
        parts.append(f"{_LABELS[name]}{text}")
    return "，".join(parts)


def bmi_text(height_cm: float | None, weight_kg: float | None) -> str | None:
    """BMI with the Chinese adult cut-offs (WS/T 428-2013): <18.5 偏瘦, <24 正常, <28 超重, else 肥胖."""
    if not height_cm or not weight_kg:
        return None
    bmi = weight_kg / (height_cm / 100) ** 2
    label = "偏瘦" if bmi < 18.5 else "正常" if bmi < 24 else "超重" if bmi < 28 else "肥胖"
    return f"BMI {bmi:.1f}（{label}）"


def update(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """Apply the stated profile changes once per message."""
    changes = normalise_update(params)
    if not changes:
        return SkillResult("没听出来要改哪一项。可以说“目标是减脂”“身高175，体重70公斤”“我在杭州”“我对花生过敏”。",
                           ok=False)

    def write(session: Session) -> None:
        row = session.exec(select(HealthProfile).where(HealthProfile.user_id == view.user)).first()
        row = row or HealthProfile(user_id=view.user)
        for name, value in changes.items():
            if name in ("dislikes", "allergies"):
                old = list(getattr(row, name) or [])
                setattr(row, name, old + [v for v in value if v not in old])
            else:
                setattr(row, name, value)
        row.source_msg_id, row.updated_at = view.msg_id, utcnow()
        session.add(row)

    applied = apply_once(services.db, msg_id=view.msg_id, user=view.user, action="profile.update", tz=view.tz,
                         write=write)
    said = _describe(changes)
    reply = f"好的，已更新：{said}。" if applied else f"这条已经更新过了：{said}。"
    profile = get_profile(services.db, view.user)
    bmi = bmi_text(profile.height_cm, profile.weight_kg) if profile else None
    if bmi and ("height_cm" in changes or "weight_kg" in changes):
        reply += f"按现在的身高体重，{bmi}。"
    facts = {k: v for k, v in changes.items() if k in ("goal", "city", "dislikes", "allergies")}
    return SkillResult(reply, data={"changes": changes, "applied": applied},
                       dto={"changes": changes, "applied": applied}, facts=facts)


def profile_dto(profile: HealthProfile | None) -> dict[str, Any]:
    """The trimmed, model-facing form of a profile (no ids, no timestamps)."""
    if profile is None:
        return {}
    return {"goal": profile.goal, "height_cm": profile.height_cm, "weight_kg": profile.weight_kg,
            "city": profile.city, "dislikes": list(profile.dislikes), "allergies": list(profile.allergies)}


def view_profile(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """Show the stored profile."""
    profile = get_profile(services.db, view.user)
    dto = profile_dto(profile)
    shown = {k: v for k, v in dto.items() if v not in (None, [], "")}
    if not shown:
        return SkillResult("你还没有设置个人资料。可以说“我的目标是减脂，身高170，体重65公斤”。", dto={})
    lines = ["你的资料：" + _describe(shown) + "。"]
    bmi = bmi_text(dto.get("height_cm"), dto.get("weight_kg"))
    if bmi:
        lines.append(bmi + "。")
    facts = {k: v for k, v in shown.items() if k in ("goal", "city")}
    return SkillResult("".join(lines), data=dto, dto=dto, facts=facts)


def _confirm(params: Mapping[str, Any]) -> str:
    changes = normalise_update(params)
    return f"确认把资料更新为：{_describe(changes)}吗？" if changes else "确认更新个人资料吗？"


SPEC = SkillSpec(
    triggers=TRIGGERS,
    name="profile",
    description="个人健康资料",
    help="健康档案：比如“我的目标是减脂，身高170”“看看我的资料”",
    objects=(DomainObject("profile", ("健康档案", "个人资料", "个人信息", "资料", "档案", "身高", "体重", "目标", "BMI", "bmi"),
                          ((Operation.SEE, "profile.view"), (Operation.CHANGE, "profile.update"),
                           (Operation.CREATE, "profile.update")), noun="资料"),),
    actions=(
        ActionSpec(name="view", intent="profile.view", run=view_profile, read_only=True, description="看看我的资料",
                   task="查看健康档案"),
        ActionSpec(
            name="update", intent="profile.update", run=update, writes=True, confirm_text=_confirm, task="更新健康档案",
            slots=(
                SlotSpec("goal", SlotType.TEXT, "你的目标是什么？（减脂/增肌/控糖/保持）", required=False,
                         extract=extract_goal),
                SlotSpec("height_cm", SlotType.HEIGHT, "身高多少？", required=False, extract=extract_height,
                         minimum=100, maximum=250),
                SlotSpec("weight_kg", SlotType.WEIGHT, "体重多少？", required=False, extract=extract_weight,
                         minimum=25, maximum=250),
                SlotSpec("city", SlotType.TEXT, "常住哪个城市？", required=False, extract=extract_city),
                SlotSpec("dislikes", SlotType.TEXT_LIST, "有什么不吃的？", required=False, extract=extract_dislikes),
                SlotSpec("allergies", SlotType.TEXT_LIST, "对什么过敏？", required=False, extract=extract_allergies),
            ),
            any_of=(("goal", "height_cm", "weight_kg", "city", "dislikes", "allergies"),),
            description="更新目标、身高、体重、城市、忌口或过敏",
        ),
    ),
)
