"""Import layers (DESIGN §2): runtime/ and skills/ never import bot/; skills/ reach runtime/ only through
the skill protocol and the views; runtime/ has no import circles."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SKILL_FACING = {"runtime.skill", "runtime.views"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def _modules(package: str) -> dict[str, Path]:
    out = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


@pytest.mark.parametrize("package", ["runtime", "skills"])
def test_runtime_and_skills_never_import_bot(package: str) -> None:
    bad = {name: sorted(i for i in _imports(path) if i == "bot" or i.startswith("bot."))
           for name, path in _modules(package).items()}
    assert {k: v for k, v in bad.items() if v} == {}


def test_skills_reach_runtime_only_through_the_skill_protocol() -> None:
    bad = {name: sorted(i for i in _imports(path) if i.startswith("runtime") and i not in SKILL_FACING)
           for name, path in _modules("skills").items()}
    assert {k: v for k, v in bad.items() if v} == {}


def test_runtime_has_no_import_circles() -> None:
    modules = _modules("runtime")
    graph = {name: {i for i in _imports(path) if i in modules and i != name} for name, path in modules.items()}
    for name in graph:  # a package's __init__ importing its own submodules is not a circle
        graph[name] = {i for i in graph[name] if not i.startswith(name + ".")}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in graph[node]:
            if state.get(nxt) == 1:
                raise AssertionError("import circle: " + " -> ".join(stack[stack.index(nxt):] + [nxt]))
            if nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in graph:
        if node not in state:
            visit(node)
