"""pantry.update / pantry.view: what the user has at home, used first by the dinner planner."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from runtime.skill import (
    ActionSpec,
    DomainObject,
    Entity,
    Operation,
    SkillResult,
    SkillSpec,
    SlotSpec,
    SlotType,
)
from runtime.views import ExecView
from skills.cookbook.catalog import load_catalog
from skills.models import PantryItem, utcnow
from skills.pantry._correct import corrected_items, previous_items
from skills.pantry._follow import UPDATE_FOLLOW_UPS, VIEW_FOLLOW_UPS, extract_item
from skills.pantry._parse import PantryChange, parse_pantry, to_grams
from skills.pantry._triggers import TRIGGERS
from skills.store import apply_once

__all__ = ["EVERYTHING", "SPEC", "describe_change", "held_as", "pantry_grams", "pantry_words", "read_pantry", "said_name", "word"]


def _qty(quantity: float | None, unit: str) -> str:
    if quantity is None or unit == "若干":
        return "（数量没说）"
    if unit == "克" and quantity >= 500:
        return f"{quantity / 500:g}斤"
    return f"{quantity:g}{unit}"


def describe_change(change: Mapping[str, Any]) -> str:
    """One change in the user's words: 鸡蛋 6个 / 排骨 +2斤 / 西红柿用完了 (as they called it, not 番茄)."""
    if change["name"] == EVERYTHING:
        return "全部食材用完了（冰箱清空）"
    name, op, quantity, unit = said_name(change), change["op"], change.get("quantity"), change.get("unit") or ""
    if op == "set" and quantity == 0:
        return f"{name}用完了"
    if op == "sub":
        return f"{name}用掉{_qty(quantity, unit)}"
    return f"{name} +{_qty(quantity, unit)}" if op == "add" else f"{name} {_qty(quantity, unit)}"


def said_name(change: Mapping[str, Any]) -> str:
    """What the user called the item of a change (西红柿), else its canonical name (番茄)."""
    said = change.get("said")
    return str(said) if isinstance(said, str) and said else str(change["name"])


def word(row: PantryItem) -> str:
    """What the user calls a stocked item: the word they last used for it, else its canonical name."""
    return row.said or row.name


def _changes(params: Mapping[str, Any]) -> list[PantryChange]:
    return previous_items(params)


def _apply(session: Session, user: str, msg_id: str, change: PantryChange) -> None:
    row = session.exec(select(PantryItem).where(PantryItem.user_id == user,
                                                PantryItem.name == change["name"])).first()
    quantity, unit, op = change.get("quantity"), change.get("unit") or "", change["op"]
    if row is None:
        row = PantryItem(user_id=user, name=change["name"], quantity=0.0, unit=unit or "若干")
    said = change.get("said")  # the newest word for it is the one said back from now on (none: its own name)
    row.said = said if isinstance(said, str) and said and said != change["name"] else None
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


def pantry_words(engine: Engine, user: str) -> dict[str, str]:
    """What the user calls each stocked item, by canonical name, where that differs ({"番茄": "西红柿"})."""
    return {r.name: r.said for r in read_pantry(engine, user) if r.said and r.said != r.name}


def _row(session: Session, user: str, name: str) -> PantryItem | None:
    return session.exec(select(PantryItem).where(PantryItem.user_id == user, PantryItem.name == name)).first()


def _restore(session: Session, user: str, msg_id: str, held: Mapping[str, Any]) -> None:
    """Put back what items held before a write that is being corrected (``[quantity, unit]`` or None)."""
    for name, was in held.items():
        row = _row(session, user, name)
        if row is None and was is None:
            continue
        row = row or PantryItem(user_id=user, name=name, quantity=0.0, unit="若干")
        row.quantity, row.unit = (float(was[0]), str(was[1])) if was else (0.0, row.unit)
        row.source_msg_id, row.updated_at = msg_id, utcnow()
        session.add(row)


EVERYTHING = "全部食材"
_CLEAR = re.compile(r"(?:冰箱|家里|库存|存货|囤货|食材)[^，,。]{0,8}?(?:清空|清掉|清除|清光|清理掉|空了|都扔了|全扔了|都吃完了|"
                    r"全吃完了|都用完了|全用完了|吃光了|用光了|啥都没了|什么都没了)|(?:清空|清掉|清理)(?:一下)?(?:冰箱|库存|食材)")


def _expanded(session: Session, user: str, changes: list[PantryChange]) -> list[PantryChange]:
    """``changes`` with "everything is used up" made into one change per stocked item."""
    out: list[PantryChange] = []
    for change in changes:
        if change["name"] != EVERYTHING:
            out.append(change)
            continue
        rows = session.exec(select(PantryItem).where(PantryItem.user_id == user)).all()
        out += [{"name": r.name, "op": "set", "quantity": 0.0, "unit": "个" if r.unit == "若干" else r.unit,
                 "said": word(r)} for r in rows if r.quantity > 0 or r.unit == "若干"]
    return out


def _record(view: ExecView, services: Any, changes: list[PantryChange],
            restore: Mapping[str, Any] | None = None) -> tuple[bool, dict[str, Any], dict[str, str]]:
    """Apply ``changes`` once per message (after putting back ``restore``): (applied now, what the
    changed items held before, what the counted ones hold after)."""
    held: dict[str, Any] = {}
    left: dict[str, str] = {}

    def write(session: Session) -> None:
        if restore:
            _restore(session, view.user, view.msg_id, restore)
            session.flush()
        for change in _expanded(session, view.user, changes):
            row = _row(session, view.user, change["name"])
            held.setdefault(change["name"], [row.quantity, row.unit] if row is not None else None)
            _apply(session, view.user, view.msg_id, change)
        session.flush()
        for change in changes:
            row = _row(session, view.user, change["name"])
            known = held.get(change["name"]) is not None  # an amount taken off nothing known says nothing left
            if row is not None and change["op"] in ("add", "sub") and row.unit != "若干" and known:
                now_has = _qty(row.quantity, row.unit)
                left[change["name"]] = ("用完了" if row.quantity <= 0 else
                                        f"还剩{now_has}" if change["op"] == "sub" else f"现在有{now_has}")

    applied = apply_once(services.db, msg_id=view.msg_id, user=view.user, action="pantry.update",
                         tz=view.tz, write=write)
    return applied, held, left


def _as_stocked(engine: Engine, user: str, changes: list[PantryChange]) -> list[PantryChange]:
    """``changes`` with an item said by a shorter word applied to the one stocked item it names ("做饭用了三个蛋" when
    鸡蛋 is stocked): the stock of 鸡蛋 goes down, no new item called 蛋 appears."""
    rows = read_pantry(engine, user)
    out: list[PantryChange] = []
    for change in changes:
        if change["name"] != EVERYTHING and not any(r.name == change["name"] for r in rows):
            held = held_as(rows, said_name(change))
            if len(held) == 1:
                change = {**change, "name": held[0].name, "said": word(held[0])}
        out.append(change)
    return out


def _said(changes: list[PantryChange], left: Mapping[str, str]) -> str:
    return "、".join(describe_change(c) + (f"（{left[c['name']]}）" if c["name"] in left else "")
                    for c in changes)


def update(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """Apply the stated pantry changes once per message."""
    changes = _changes(params)
    if not changes:
        return SkillResult("没听出来要记哪些食材，可以这样说：“冰箱里有鸡蛋6个、西红柿4个”。", ok=False)
    changes = _as_stocked(services.db, view.user, changes)
    applied, held, left = _record(view, services, changes)
    reply = f"好的，记下了：{_said(changes, left)}。" if applied else f"这条已经记过了：{_said(changes, {})}。"
    dto = {"changes": [describe_change(c) for c in changes], "applied": applied}
    return SkillResult(reply, data={"changes": changes, "applied": applied, "ref": {"held": held} if applied else None},
                       dto=dto, facts={"pantry_updated": [said_name(c) for c in changes]},
                       shown={"ingredients": [said_name(c) for c in changes if c["name"] != EVERYTHING]})


def amend(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """Replace the change just recorded by its correction: what it changed is put back first."""
    changes = _changes(params)
    ref = params.get("replaces")
    held = ref.get("held") if isinstance(ref, Mapping) else None
    if not changes or not isinstance(held, Mapping):
        return SkillResult("刚才那条记录我没法改了，直接告诉我现在冰箱里有多少吧，比如“鸡蛋还有4个”。", ok=False)
    applied, _, left = _record(view, services, changes, restore=held)
    reply = f"改好了：{_said(changes, left)}。" if applied else f"这条已经改过了：{_said(changes, {})}。"
    return SkillResult(reply, data={"changes": changes, "applied": applied, "ref": ref},
                       dto={"changes": [describe_change(c) for c in changes], "applied": applied},
                       facts={"pantry_updated": [said_name(c) for c in changes]},
                       shown={"ingredients": [said_name(c) for c in changes if c["name"] != EVERYTHING]})


def _entity(row: PantryItem) -> Entity:
    """A shown item, named as the user calls it; its canonical name is another word that picks it."""
    attrs: dict[str, Any] = {"quantity": row.quantity, "unit": row.unit}
    if row.said and row.said != row.name:
        attrs["aka"] = row.name
    return Entity("ingredient", word(row), word(row), attrs)


def held_as(rows: list[PantryItem], item: str) -> list[PantryItem]:
    """The stocked items ``item`` names: the one it is a name or alias of, else those it is the head or a part
    of (蛋 → 鸡蛋 and 鸭蛋, 肉 → 五花肉, 排骨 → 猪排骨), as Chinese names a kind by its last word."""
    exact = [r for r in rows if item in (r.name, r.said)]
    if exact:
        return exact
    name = load_catalog().canonical(item)

    def named(row: PantryItem) -> bool:
        words = (row.name, *([row.said] if row.said else []))
        return row.name == name or any(w.endswith(item) if len(item) == 1 else item in w for w in words)

    return [r for r in rows if named(r)]


def _named(row: PantryItem, item: str) -> str:
    """The item as the question named it, or as stocked when the question used a shorter word (蛋 → 鸡蛋)."""
    return item if item in (row.name, row.said) and len(item) >= len(word(row)) else word(row)


def view_pantry(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """What is at home (every item shown as an entity, in the order listed), or how much of one item —
    each named as the user calls it."""
    rows = read_pantry(services.db, view.user)
    item = params.get("item")
    if isinstance(item, str) and item:
        held = held_as(rows, item)
        if not held:
            return SkillResult(f"冰箱记录里没有{item}。买了跟我说一声，比如“买了{item}”。", dto={"item": item, "has": False})
        lines = [f"{_named(r, item)}{'有，数量没记' if r.unit == '若干' else f'还有{_qty(r.quantity, r.unit)}'}"
                 for r in held]
        return SkillResult("，".join(lines) + "。", dto={"item": item, "has": True},
                           entities=tuple(_entity(r) for r in held))
    if not rows:
        with Session(services.db) as session:
            ever = session.exec(select(PantryItem.id).where(PantryItem.user_id == view.user)).first() is not None
        if ever:
            return SkillResult("冰箱记录里现在没有食材了，之前记的都用完了。买了东西跟我说一声，比如“买了鸡蛋6个”。",
                               dto={"items": []})
        return SkillResult("你还没记过家里有什么食材。可以说“冰箱里有鸡蛋6个、西红柿4个”。",
                           dto={"items": []})
    items = [f"{word(r)} {_qty(r.quantity, r.unit)}" for r in rows]
    return SkillResult("家里现有：" + "、".join(items) + "。想知道能做什么菜，就问“用这些能做什么菜”。",
                       data={"items": items}, dto={"items": items}, entities=tuple(_entity(r) for r in rows),
                       shown={"ingredients": [word(r) for r in rows]})


def _check_items(value: Any) -> str | None:
    """An answer to "家里有哪些食材" that names none of them: ask again rather than record nothing."""
    return None if previous_items({"items": value}) else "没听出是哪些食材，可以这样说：“鸡蛋6个、西红柿4个”。"


def _confirm(params: Mapping[str, Any]) -> str:
    changes = _changes(params)
    said = "、".join(describe_change(c) for c in changes)
    if params.get("previous"):
        was = "、".join(describe_change(c) for c in _changes(params["previous"]))
        return f"确认把刚才记的「{was}」改成「{said}」吗？"
    if all(c["op"] == "set" for c in changes):
        return f"确认把冰箱记录更新为：{said}吗？"
    return f"确认在冰箱记录里记下：{said}吗？"


def _extract_items(text: str) -> list[PantryChange] | None:
    found = parse_pantry(text)
    if not found and _CLEAR.search(text):  # "冰箱清空了" / "家里的菜都吃完了": everything at once
        return [{"name": EVERYTHING, "op": "set", "quantity": 0.0, "unit": ""}]
    return found or None


SPEC = SkillSpec(
    triggers=TRIGGERS,
    name="pantry",
    description="家里现有食材（冰箱库存）",
    help="冰箱：比如“冰箱里有鸡蛋6个”“冰箱里还有什么”",
    objects=(DomainObject("pantry", ("冰箱", "冰箱里", "冰箱里的东西", "冰箱的东西", "冰箱里面的东西", "冷藏室", "冷冻室", "食材", "库存", "存货", "囤货", "家里的菜",
                                     "家里的食材", "家里的东西", "储物柜"),
                          ((Operation.SEE, "pantry.view"), (Operation.CREATE, "pantry.update"),
                           (Operation.CHANGE, "pantry.update"), (Operation.DELETE, "pantry.update")), noun="食材",
                          signals=("喝光", "吃完", "用完", "买了", "囤了", "剩")),
             # one item of the pantry shown: "第二样怎么做" opens recipes with it; naming it alone says nothing yet
             # (a bare "鸡蛋还有3个" is a change of the stock, read by the rules, not a pick)
             DomainObject("ingredient", ("这样食材", "那样食材"), ((Operation.SEE, "recipe.query"),), noun="食材",
                          pick="dish", default=Operation.DONE)),
    actions=(
        ActionSpec(
            name="update", intent="pantry.update", run=update, writes=True, confirm_text=_confirm, task="更新冰箱库存",
            shown_as="记了冰箱里的食材",
            amend=amend, follow_up=corrected_items, follow=UPDATE_FOLLOW_UPS,
            slots=(SlotSpec("items", SlotType.TEXT, "家里有哪些食材、各有多少？（比如：鸡蛋6个、西红柿4个）",
                            extract=_extract_items, check=_check_items),),
            description="记录家里有什么食材、用完了什么",
        ),
        ActionSpec(name="view", intent="pantry.view", run=view_pantry, read_only=True, description="看看家里还有什么食材",
                   task="查看冰箱库存", reports_as="profile.view", follow=VIEW_FOLLOW_UPS,
                   shown_as="给用户列了冰箱里的{count}样食材",
                   slots=(SlotSpec("item", SlotType.TEXT, "看哪样食材？", required=False, extract=extract_item),)),
    ),
)
