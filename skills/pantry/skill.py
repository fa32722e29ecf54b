"""pantry.update / pantry.view: what the user has at home, used first by the dinner planner."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from runtime.skill import ActionSpec, SkillResult, SkillSpec, SlotSpec, SlotType
from runtime.views import ExecView
from skills.models import PantryItem, utcnow
from skills.pantry._parse import PantryChange, parse_pantry, to_grams
from skills.pantry._triggers import TRIGGERS
from skills.store import apply_once

__all__ = ["SPEC", "describe_change", "pantry_grams", "read_pantry"]


def _qty(quantity: float | None, unit: str) -> str:
    if quantity is None or unit == "若干":
        return "（数量没说）"
    if unit == "克" and quantity >= 500:
        return f"{quantity / 500:g}斤"
    return f"{quantity:g}{unit}"


def describe_change(change: Mapping[str, Any]) -> str:
    """One change in words: 鸡蛋 6个 / 排骨 +2斤 / 鸡蛋 用完了."""
    name, op, quantity, unit = change["name"], change["op"], change.get("quantity"), change.get("unit") or ""
    if op == "set" and quantity == 0:
        return f"{name}用完了"
    sign = {"add": "+", "sub": "-"}.get(op, "")
    return f"{name} {sign}{_qty(quantity, unit)}" if sign else f"{name} {_qty(quantity, unit)}"


def _changes(params: Mapping[str, Any]) -> list[PantryChange]:
    items = params.get("items")
    if isinstance(items, str):
        return parse_pantry(items)
    return [dict(c) for c in items or [] if isinstance(c, Mapping) and c.get("name")]


def _apply(session: Session, user: str, msg_id: str, change: PantryChange) -> None:
    row = session.exec(select(PantryItem).where(PantryItem.user_id == user,
                                                PantryItem.name == change["name"])).first()
    quantity, unit, op = change.get("quantity"), change.get("unit") or "", change["op"]
    if row is None:
        row = PantryItem(user_id=user, name=change["name"], quantity=0.0, unit=unit or "若干")
    if quantity is None:
        if row.quantity == 0:  # "有鸡蛋" without an amount keeps a known amount
            row.quantity, row.unit = 0.0, "若干"
    elif op == "set" or (op == "add" and row.unit != unit):
        # amounts in another unit cannot be added up: the newest statement wins
        row.quantity, row.unit = float(quantity), unit
    elif row.unit != unit:
        pass  # "用了3个" against a stock kept in 克: leave the stock as it was
    elif op == "add":
        row.quantity += float(quantity)
    else:
        row.quantity = max(0.0, row.quantity - float(quantity))
    row.source_msg_id, row.updated_at = msg_id, utcnow()
    session.add(row)


def read_pantry(engine: Engine, user: str) -> list[PantryItem]:
    """The user's stocked items (quantity above zero, or present with an unknown amount)."""
    with Session(engine) as session:
        rows = session.exec(select(PantryItem).where(PantryItem.user_id == user).order_by(PantryItem.name)).all()
        return [r for r in rows if r.quantity > 0 or r.unit == "若干"]


def pantry_grams(engine: Engine, user: str) -> dict[str, float]:
    """Known stock in grams per canonical ingredient (items without a weight are left out)."""
    grams: dict[str, float] = {}
    for row in read_pantry(engine, user):
        value = to_grams(row.name, row.quantity, row.unit)
        if value:
            grams[row.name] = value
    return grams


def update(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """Apply the stated pantry changes once per message."""
    changes = _changes(params)
    if not changes:
        return SkillResult("没听出来要记哪些食材，可以这样说：“冰箱里有鸡蛋6个、西红柿4个”。", ok=False)

    def write(session: Session) -> None:
        for change in changes:
            _apply(session, view.user, view.msg_id, change)

    applied = apply_once(services.db, msg_id=view.msg_id, user=view.user, action="pantry.update",
                         tz=view.tz, write=write)
    said = "、".join(describe_change(c) for c in changes)
    reply = f"好的，记下了：{said}。" if applied else f"这条已经记过了：{said}。"
    dto = {"changes": [describe_change(c) for c in changes], "applied": applied}
    return SkillResult(reply, data={"changes": changes, "applied": applied}, dto=dto,
                       facts={"pantry_updated": [c["name"] for c in changes]})


def view_pantry(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """List what is at home."""
    rows = read_pantry(services.db, view.user)
    if not rows:
        return SkillResult("你还没记过家里有什么食材。可以说“冰箱里有鸡蛋6个、西红柿4个”。",
                           dto={"items": []})
    items = [f"{r.name} {_qty(r.quantity, r.unit)}" for r in rows]
    return SkillResult("家里现有：" + "、".join(items) + "。", data={"items": items}, dto={"items": items})


def _confirm(params: Mapping[str, Any]) -> str:
    changes = _changes(params)
    return "确认把冰箱记录更新为：" + "、".join(describe_change(c) for c in changes) + "吗？"


def _extract_items(text: str) -> list[PantryChange] | None:
    return parse_pantry(text) or None


SPEC = SkillSpec(
    triggers=TRIGGERS,
    name="pantry",
    description="家里现有食材（冰箱库存）",
    actions=(
        ActionSpec(
            name="update", intent="pantry.update", run=update, writes=True, confirm_text=_confirm,
            slots=(SlotSpec("items", SlotType.TEXT, "家里有哪些食材、各有多少？（比如：鸡蛋6个、西红柿4个）",
                            extract=_extract_items),),
            description="记录家里有什么食材、用完了什么",
        ),
        ActionSpec(name="view", intent="pantry.view", run=view_pantry, read_only=True, description="看看家里还有什么食材"),
    ),
)
