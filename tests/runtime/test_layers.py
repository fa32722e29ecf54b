"""Import layers (DESIGN §2): runtime/ and skills/ never import bot/; skills/ reach runtime/ only through
the skill protocol and the views; runtime/ and bot/ have no import circles; in bot/, the webhook and
the worker never import each other or the benchmarks, and queue → delivery → wechat only point down."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SKILL_FACING = {"runtime.skill", "runtime.skill.parsers", "runtime.views"}


def _imports(path: Path, *, submodules: bool = False) -> set[str]:
    """The modules ``path`` imports; ``submodules``: ``from pkg import name`` also counts as ``pkg.name``
    (it is a submodule when the package has one by that name)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            if submodules:
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
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


def _graph(package: str) -> dict[str, set[str]]:
    """Module → the package's modules it imports (anywhere in it: lazy and type-checking imports too)."""
    modules = _modules(package)
    graph = {name: {i for i in _imports(path, submodules=True) if i in modules and i != name}
             for name, path in modules.items()}
    for name in graph:  # a package's __init__ importing its own submodules is not a circle
        graph[name] = {i for i in graph[name] if not i.startswith(name + ".")}
    return graph


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


@pytest.mark.parametrize("package", ["runtime", "bot", "skills"])
def test_no_import_circles(package: str) -> None:
    circle = _circle(_graph(package))
    assert circle is None, "import circle: " + " -> ".join(circle or [])


def test_the_circle_finder_finds_one() -> None:
    assert _circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _circle({"a": {"b"}, "b": set()}) is None


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


# (importer, what it must never import), packages of bot/
FORBIDDEN = [
    ("bot.webhook", "bot.worker"), ("bot.webhook", "bot.bench"),
    ("bot.worker", "bot.webhook"), ("bot.worker", "bot.bench"),
    ("bot.wechat", "bot.delivery"), ("bot.wechat", "bot.queue"),
    ("bot.delivery", "bot.queue"),
    ("bot.scheduler", "bot.worker"), ("bot.scheduler", "bot.webhook"),
    ("bot.queue", "bot.worker"), ("bot.queue", "bot.webhook"),
]


@pytest.mark.parametrize(("importer", "imported"), FORBIDDEN, ids=[f"{a}-x-{b}" for a, b in FORBIDDEN])
def test_bot_layers(importer: str, imported: str) -> None:
    graph = _graph("bot")
    assert any(_within(name, importer) for name in graph), f"{importer} is not in the tree"
    bad = {name: sorted(i for i in deps if _within(i, imported))
           for name, deps in graph.items() if _within(name, importer)}
    assert {k: v for k, v in bad.items() if v} == {}
