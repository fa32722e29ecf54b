"""profile.view / profile.update: goal, height, weight, default city, dislikes, allergies and health conditions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlmodel import Session, select

from runtime.skill import ActionSpec, DomainObject, Operation, SkillResult, SkillSpec, SlotSpec, SlotType
from runtime.skill.parsers import parse_value
from runtime.views import ExecView
from skills.models import HealthProfile, utcnow
from skills.profile._parse import (
    CONDITIONS,
    GOALS,
    extract_allergies,
    extract_bare_value,
    extract_city,
    extract_conditions,
    extract_dislikes,
    extract_field,
    extract_goal,
    extract_height,
    extract_target_weight,
    extract_weight,
    parse_goal,
)
from skills.profile._triggers import TRIGGERS
from skills.profile._view import VIEW_FOLLOW_UPS, bmi_text, extract_aspect, view_profile
from skills.store import apply_once, get_profile
from skills.weather import clean_city

__all__ = ["SPEC", "bmi_text", "normalise_update", "update", "view_profile"]

_FIELDS = ("goal", "target_weight_kg", "height_cm", "weight_kg", "city", "conditions", "dislikes", "allergies")
_RULES_OUT = {name: foods for name, _, foods in CONDITIONS}
_LENIENT = {"height_cm": "height", "weight_kg": "weight"}
_VEG = {"素食": "吃素", "纯素": "吃纯素（不吃蛋奶）"}  # kept among the dislikes, said as what the person eats


def _list(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else [str(v) for v in value or []]


def normalise_update(params: Mapping[str, Any]) -> dict[str, Any]:
    """Typed, validated changes from slot values (a free-text goal answer is parsed again, as the field the
    user named when there was one: "175" after "更新一下我的身高"). A health condition becomes the foods it
    rules out (kept in ``dislikes``) and is named in ``conditions``."""
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
        field = params.get("field")
        if not out and isinstance(field, str) and field in _LENIENT:
            # "128" answering 体重多少 reads as "体重128" (斤 from 120 up: people weigh themselves in 斤)
            said = parse_value(_LENIENT[field], "体重" + goal if field == "weight_kg" else goal, answer=True)
            if isinstance(said, int | float):
                out[field] = float(said)
    bare = params.get("value")
    if isinstance(bare, int | float) and not any(isinstance(params.get(n), int | float) for n in _LENIENT):
        field = params.get("field")
        if field not in _LENIENT and bare < 100:  # no field named: under 100 is no height, so a weight
            field = "weight_kg"
        if isinstance(field, str) and field in _LENIENT:
            said = parse_value(_LENIENT[field], f"体重{bare:g}" if field == "weight_kg" else f"{bare:g}", answer=True)
            if isinstance(said, int | float):
                out[field] = float(said)
    for name, low, high in (("height_cm", 100, 250), ("weight_kg", 25, 250), ("target_weight_kg", 25, 250)):
        value = params.get(name)
        if isinstance(value, int | float) and low <= value <= high:
            out[name] = float(value)
    city = params.get("city")
    if isinstance(city, str) and city.strip():
        out["city"] = clean_city(city)
    for name in ("dislikes", "allergies"):
        items = [x.strip() for x in _list(params.get(name)) if x.strip() and x.strip() not in ("没有", "无")]
        if items:
            out[name] = items
    conditions = [c for c in _list(params.get("conditions")) if c in _RULES_OUT]
    if conditions:
        out["conditions"] = conditions
        foods = [f for c in conditions for f in _RULES_OUT[c]]
        out["dislikes"] = list(dict.fromkeys([*out.get("dislikes", []), *foods]))
    return out


def _describe(changes: Mapping[str, Any]) -> str:
    """The changes in the bot's own words: 体重65公斤，痛风：不吃海鲜、动物内脏、啤酒，对花生过敏."""
    parts: list[str] = []
    ruled = {f for c in changes.get("conditions", []) for f in _RULES_OUT.get(c, ())}
    for name in _FIELDS:
        value = changes.get(name)
        if value is None:
            continue
        if name == "goal":
            parts.append(f"目标{value}")
        elif name == "height_cm":
            parts.append(f"身高{value:g}厘米")
        elif name == "weight_kg":
            parts.append(f"{'现在' if 'target_weight_kg' in changes else ''}体重{value:g}公斤")
        elif name == "target_weight_kg":
            parts.append(f"目标体重{value:g}公斤")
        elif name == "city":
            parts.append(f"常住城市{value}")
        elif name == "conditions":
            parts += [f"{c}：不吃{'、'.join(_RULES_OUT[c])}" if _RULES_OUT[c] else f"身体情况：{c}" for c in value]
        elif name == "dislikes" and (rest := [v for v in value if v not in ruled]):
            parts += [_VEG[v] for v in rest if v in _VEG]
            if foods := [v for v in rest if v not in _VEG]:
                parts.append("不吃" + "、".join(foods))
        elif name == "allergies":
            parts.append("对" + "、".join(value) + "过敏")
    return "，".join(parts)


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
            if name in ("dislikes", "allergies", "conditions"):  # a condition's foods are in dislikes too
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
    if "target_weight_kg" in changes and profile is not None and profile.weight_kg:
        gap = round(profile.weight_kg - changes["target_weight_kg"], 1)
        if abs(gap) >= 0.5:
            reply += f"离目标还差{abs(gap):g}公斤（要{'减' if gap > 0 else '增'}{abs(gap):g}公斤）。"
    return SkillResult(reply, data={"changes": changes, "applied": applied},
                       dto={"changes": changes, "applied": applied}, facts=facts)


_MEASURES = ("height_cm", "weight_kg", "target_weight_kg")


def corrected_update(previous: Mapping[str, Any], fragment: str) -> Mapping[str, Any] | None:
    """"应该是63.5" / "不对，身高是163" said of the update just made: the fields the words name, or a bare number
    near the one measure the update set; None when the words change nothing of it (or the number fits it badly)."""
    said = {name: value for name, extract in (("height_cm", extract_height), ("weight_kg", extract_weight),
                                              ("target_weight_kg", extract_target_weight), ("goal", extract_goal))
            if (value := extract(fragment)) is not None and value != previous.get(name)}
    if not said:
        bare = extract_bare_value(fragment)
        measured = [name for name in _MEASURES if isinstance(previous.get(name), int | float)]
        if bare is None or len(measured) != 1 or abs(bare - previous[measured[0]]) > 0.5 * previous[measured[0]]:
            return None  # no measure, several, or one far from it ("171" after 体重65 is likelier a height): asked
        said = {measured[0]: bare}
    kept = {k: v for k, v in previous.items() if k in ("goal", *_MEASURES)}
    return {**kept, **said}


def _confirm(params: Mapping[str, Any]) -> str:
    changes = normalise_update(params)
    return f"确认把资料更新为：{_describe(changes)}吗？" if changes else "确认更新个人资料吗？"


_ASK = {"height_cm": "身高多少？（比如“172”“一米七二”）", "weight_kg": "体重多少？（比如“65公斤”“130斤”）",
        "goal": "目标改成什么？（减脂/增肌/控糖/保持）", "target_weight_kg": "目标体重多少？（比如“60公斤”）",
        "city": "常住哪个城市？", "dislikes": "有什么不吃的？", "allergies": "对什么过敏？"}
_GROUP = ("height_cm", "weight_kg", "target_weight_kg", "city", "dislikes", "allergies", "conditions")


def what_to_change(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult | None:
    """The question for an update that says nothing to change: about the field named ("更新一下我的身高" →
    身高多少？), else which one; asked again when the answer changed nothing. None lets the update go on."""
    if any(params.get(name) not in (None, "", []) for name in _GROUP) or normalise_update(params):
        return None
    if params.get("goal") and normalise_update(params):
        return None
    field = str(params.get("field") or "")
    if params.get("goal"):  # an answer that changes nothing
        return SkillResult("没听出来要改成什么。" + _ASK.get(field, "可以说“体重65公斤”“目标减脂”“身高170”。"))
    return SkillResult(_ASK.get(field, "想更新哪一项？比如“体重65公斤”“身高170”“目标减脂”“我对花生过敏”。"))


SPEC = SkillSpec(
    triggers=TRIGGERS,
    name="profile",
    description="个人健康资料",
    help="健康档案：比如“我的目标是减脂，身高170”“看看我的资料”",
    objects=(DomainObject("profile", ("健康档案", "个人资料", "个人信息", "资料", "档案", "身高", "体重", "目标", "BMI", "bmi"),
                          ((Operation.SEE, "profile.view"), (Operation.CHANGE, "profile.update"),
                           (Operation.CREATE, "profile.update")), noun="资料",
                          signals=("多重", "多高", "斤", "公斤", "胖", "瘦", "减肥", "增肌")),),
    actions=(
        ActionSpec(name="view", intent="profile.view", run=view_profile, read_only=True, description="看看我的资料",
                   task="查看健康档案", follow=VIEW_FOLLOW_UPS, shown_as="给用户看了健康档案",
                   slots=(SlotSpec("aspect", SlotType.TEXT, "想看哪一项？", required=False, extract=extract_aspect),)),
        ActionSpec(
            name="update", intent="profile.update", run=update, writes=True, confirm_text=_confirm, task="更新健康档案",
            shown_as="更新了健康档案",
            amend=update, follow_up=corrected_update,  # "秤没放平，应该是70.8" right after: written again
            slots=(
                SlotSpec("goal", SlotType.TEXT, "你的目标是什么？（减脂/增肌/控糖/保持）", required=False,
                         extract=extract_goal, lookup=what_to_change),
                SlotSpec("height_cm", SlotType.HEIGHT, "身高多少？", required=False, extract=extract_height,
                         minimum=100, maximum=250),
                SlotSpec("weight_kg", SlotType.WEIGHT, "体重多少？", required=False, extract=extract_weight,
                         minimum=25, maximum=250),
                SlotSpec("target_weight_kg", SlotType.WEIGHT, "目标体重多少？", required=False,
                         extract=extract_target_weight, minimum=25, maximum=250),
                SlotSpec("city", SlotType.TEXT, "常住哪个城市？", required=False, extract=extract_city),
                SlotSpec("dislikes", SlotType.TEXT_LIST, "有什么不吃的？", required=False, extract=extract_dislikes),
                SlotSpec("allergies", SlotType.TEXT_LIST, "对什么过敏？", required=False, extract=extract_allergies),
                SlotSpec("conditions", SlotType.TEXT_LIST, "有什么慢性病或身体情况吗？", required=False,
                         extract=extract_conditions),
                SlotSpec("field", SlotType.TEXT, "要改哪一项？", required=False, extract=extract_field),
                SlotSpec("value", SlotType.TEXT, "改成多少？", required=False, extract=extract_bare_value),
            ),
            any_of=(("goal", "height_cm", "weight_kg", "target_weight_kg", "city", "dislikes", "allergies", "conditions",
                     "value"),),
            description="更新目标、目标体重、身高、体重、城市、忌口、过敏或身体情况",
        ),
    ),
)
