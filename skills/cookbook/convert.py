"""Convert the HowToCook Markdown recipes into this package's compact ``recipes.json``.

Run once when the corpus changes::

    python -m skills.cookbook.convert PATH/TO/HowToCook skills/cookbook/recipes.json

Each ``dishes/<category>/**/<name>.md`` becomes one record: name, aliases, category, difficulty
(1–5 stars), calories, minutes (from the introduction), ingredients (the 必备原料和工具 list),
quantities (the 计算 lines, with amount, unit and whether they are per serving), the servings the
quantities are for, steps, tips and the source path. Pure parsing functions; only ``main`` reads
and writes files. When two files give the same dish, the one at the shallower path wins.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = ["CATEGORIES", "convert_markdown", "convert_tree", "main", "parse_quantity"]

CATEGORIES = {
    "meat_dish": "荤菜", "vegetable_dish": "素菜", "aquatic": "水产", "staple": "主食", "soup": "汤",
    "breakfast": "早餐", "drink": "饮品", "dessert": "甜品", "semi-finished": "半成品", "condiment": "酱料",
}
_SECTIONS = {"必备原料和工具": "ingredients", "计算": "quantities", "操作": "steps", "附加内容": "tips"}
_NUM = r"\d+(?:\.\d+)?"
_UNITS = ("毫升", "ml", "mL", "ML", "克", "g", "kg", "千克", "公斤", "斤", "两", "个", "只", "片", "根", "颗", "瓣",
          "勺", "汤匙", "茶匙", "小勺", "大勺", "杯", "碗", "块", "把", "条", "张", "袋", "包", "盒", "粒", "L", "升",
          "cm", "滴", "撮", "朵", "头", "棵", "节", "段", "份")
_UNIT = "|".join(sorted((re.escape(u) for u in _UNITS), key=len, reverse=True))
_AMOUNT = re.compile(rf"({_NUM})\s*(?:(?:{_UNIT})?\s*(?:-|~|～|到|至)\s*({_NUM}))?\s*({_UNIT})?")
_PER_SERVING = re.compile(r"份数|/\s*人|每人|每份|一人份|1\s*人份")
_BOILERPLATE = "如果您遵循本指南的制作流程而发现有问题或可以改进的流程"
_MINUTES = re.compile(rf"(?:大约|约|只需|需要|耗时|总共|全程|一般)[^。，]{{0,8}}?({_NUM})\s*(分钟|小时)")


def _clean(line: str) -> str:
    line = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", line)          # images
    line = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", line)       # links → their text
    line = line.replace("`", "").replace("**", "").replace("\\*", "*")
    return re.sub(r"\s+", " ", line).strip()


def _sections(text: str) -> tuple[str, dict[str, list[str]], list[str]]:
    """(title, section name → raw lines, the lines before the first ## heading)."""
    title = ""
    head: list[str] = []
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for raw in text.splitlines():
        if raw.startswith("# ") and not title:
            title = raw[2:].strip()
            continue
        m = re.match(r"##\s+(.+)", raw)
        if m and not raw.startswith("###"):
            key = _SECTIONS.get(m.group(1).strip(), m.group(1).strip())
            current = sections.setdefault(key, [])
            continue
        (head if current is None else current).append(raw)
    return title, sections, head


def _bullets(lines: Iterable[str]) -> list[str]:
    out = []
    for raw in lines:
        m = re.match(r"\s*[*\-+]\s+(.+)", raw)
        if m and not raw.startswith(("  ", "\t")):
            text = _clean(m.group(1))
            if text:
                out.append(text)
    return out


def _steps(lines: list[str]) -> list[str]:
    """Numbered steps; indented notes join their step; ### sub-headings start a new numbering run."""
    steps: list[str] = []
    numbered = False
    for raw in lines:
        m = re.match(r"(\d+)[.、．]\s*(.+)", raw.strip()) if not raw.startswith(("  ", "\t")) else None
        if m:
            steps.append(_clean(m.group(2)))
            numbered = True
            continue
        note = re.match(r"\s+[*\-+]\s+(.+)", raw)
        if note and steps:
            steps[-1] += "（" + _clean(note.group(1)).rstrip("。") + "）"
    if not numbered:  # a few recipes write their steps as a bullet list
        steps = _bullets(lines)
    return [s for s in steps if s]


def parse_quantity(line: str) -> dict[str, Any]:
    """One 计算 line → {name, text, amount, amount_max, unit, per_serving} (numbers None when free text)."""
    text = _clean(line)
    m = re.match(r"([^=＝:：（(\d\s*]+?)\s*(?:[=＝:：（(]|\d|$)", text)
    name = m.group(1).strip() if m else text
    rest = text[len(name):]
    amount = _AMOUNT.search(rest)
    record: dict[str, Any] = {"name": name, "text": text, "amount": None, "amount_max": None, "unit": None,
                              "per_serving": bool(_PER_SERVING.search(text))}
    if amount and not re.match(rf"\s*[=＝:：（(]?\s*\d+\s*[*×]\s*{_NUM}", rest):
        record["amount"] = float(amount.group(1))
        record["amount_max"] = float(amount.group(2)) if amount.group(2) else None
        record["unit"] = amount.group(3)
    return record


def _servings(lines: list[str]) -> tuple[int | None, bool]:
    """How many people the quantities are for, and whether they are given per serving."""
    joined = " ".join(_clean(x) for x in lines)
    m = re.search(r"(?:一份|每份)[^。]{0,12}?够\s*(\d+)\s*(?:-\s*\d+\s*)?个?人", joined) or \
        re.search(r"(\d+)\s*人份", joined)
    per = bool(re.search(r"份数|每份|一份|/\s*人|每人", joined))
    if m:
        return int(m.group(1)), per
    return (1 if per else None), per


def _difficulty(head: list[str]) -> int | None:
    for line in head:
        if "烹饪难度" in line:
            return line.count("★") or None
    return None


def _calories(head: list[str]) -> int | None:
    for line in head:
        m = re.search(r"卡路里[：:]\s*(\d+)", line)
        if m:
            return int(m.group(1))
    return None


def _intro(head: list[str]) -> str:
    for line in head:
        text = _clean(line)
        if text and not re.match(r"预估|!\[", line.strip()) and "烹饪难度" not in text:
            return text
    return ""


def _minutes(intro: str) -> int | None:
    m = _MINUTES.search(intro)
    if not m:
        return None
    value = float(m.group(1)) * (60 if m.group(2) == "小时" else 1)
    return int(value)


def convert_markdown(text: str, source: str) -> dict[str, Any] | None:
    """One recipe record from one Markdown file, or None when it has no title or no steps."""
    title, sections, head = _sections(text)
    name = re.sub(r"的做法$", "", title).strip()
    parts = Path(source).parts
    category = next((CATEGORIES[p] for p in parts if p in CATEGORIES), "其他")
    steps = _steps(sections.get("steps", []))
    if not name or not steps:
        return None
    base, per = _servings(sections.get("quantities", []))
    intro = _intro(head)
    tips = [t for t in _bullets(sections.get("tips", [])) if _BOILERPLATE not in t]
    ingredients = [re.sub(r"[（(].*?[）)]", "", b).strip() for b in _bullets(sections.get("ingredients", []))]
    return {
        "name": name, "category": category, "difficulty": _difficulty(head), "kcal": _calories(head),
        "minutes": _minutes(intro), "intro": intro, "ingredients": [i for i in ingredients if i],
        "quantities": [parse_quantity(q) for q in _bullets(sections.get("quantities", []))],
        "servings": base, "per_serving": per, "steps": steps, "tips": tips[:6], "source": source,
    }


def convert_tree(root: Path) -> list[dict[str, Any]]:
    """Every recipe under ``root/dishes`` (a dish given twice: the shallower file wins), sorted by name."""
    found: dict[str, tuple[int, dict[str, Any]]] = {}
    for path in sorted((root / "dishes").rglob("*.md")):
        rel = path.relative_to(root).as_posix()
        record = convert_markdown(path.read_text(encoding="utf-8"), rel)
        if record is None:
            continue
        depth = len(path.relative_to(root).parts)
        if record["name"] not in found or depth < found[record["name"]][0]:
            found[record["name"]] = (depth, record)
    return [found[name][1] for name in sorted(found)]


def main(argv: list[str] | None = None) -> int:
    """``convert SRC OUT``: write the compact JSON (one recipe per line inside a JSON document)."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python -m skills.cookbook.convert HOWTOCOOK_DIR OUT.json", file=sys.stderr)
        return 2
    recipes = convert_tree(Path(args[0]))
    lines = ",\n".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in recipes)
    doc = ('{"version":1,"source":"HowToCook (github.com/Anduin2017/HowToCook), Unlicense",\n'
           f'"recipes":[\n{lines}\n]}}\n')
    Path(args[1]).write_text(doc, encoding="utf-8")
    print(f"{len(recipes)} recipes → {args[1]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
