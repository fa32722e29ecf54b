"""Import layers (DESIGN §2): runtime/ and skills/ never import bot/; skills/ reach runtime/ only through
the skill protocol and the views, and one skill reaches another only through its public modules;
runtime/, skills/ and bot/ have no import circles (nor have the skill packages among themselves), and runtime/ and skills/ import their own modules at
the top of a file (never inside a function, after the definitions or only for the type checker); in bot/,
the webhook and the worker never import each other or the benchmarks, and queue → delivery → wechat only
point down. Tests reach the code through public modules only."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRST_PARTY = ("runtime", "skills", "bot")
SKILL_FACING = {"runtime.skill", "runtime.skill.parsers", "runtime.views"}
# skills/ modules every skill may use: the business tables, their idempotent writes, the services record
SKILLS_SHARED = {"skills.models", "skills.store", "skills.services"}


def _name_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolved(node: ast.ImportFrom, importer: str, is_package: bool) -> str:
    """The absolute module of ``from … import``, relative ones included (``from ._x import y`` in a.b → a._x)."""
    if not node.level:
        return node.module or ""
    base = importer.split(".")[: None if is_package else -1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _import_nodes(path: Path) -> Iterator[tuple[ast.Import | ast.ImportFrom, list[str]]]:
    """Every import statement of ``path`` with the modules it names (``from pkg import name`` also names
    ``pkg.name``: it is a submodule when the package has one by that name)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    importer, is_package = _name_of(path), path.name == "__init__.py"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield node, [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = _resolved(node, importer, is_package)
            yield node, [module, *(f"{module}.{alias.name}" for alias in node.names)]


def _imports(path: Path, *, submodules: bool = False) -> set[str]:
    """The modules ``path`` imports, anywhere in it; ``submodules``: ``from pkg import name`` counts as
    ``pkg.name`` too."""
    found: set[str] = set()
    for _, names in _import_nodes(path):
        found.update(names if submodules else names[:1])
    return found


def _modules(package: str) -> dict[str, Path]:
    return {_name_of(path): path for path in sorted((ROOT / package).rglob("*.py"))}


def _private(module: str) -> bool:
    return any(part.startswith("_") and not part.startswith("__") for part in module.split("."))


def test_relative_imports_are_read_as_the_modules_they_name() -> None:
    path = ROOT / "runtime" / "llm" / "__init__.py"
    assert "runtime.llm._errors" in _imports(path)
    assert "runtime.llm.breaker.CircuitBreaker" in _imports(path, submodules=True)


@pytest.mark.parametrize("package", ["runtime", "skills"])
def test_runtime_and_skills_never_import_bot(package: str) -> None:
    bad = {name: sorted(i for i in _imports(path) if i == "bot" or i.startswith("bot."))
           for name, path in _modules(package).items()}
    assert {k: v for k, v in bad.items() if v} == {}


def test_skills_reach_runtime_only_through_the_skill_protocol() -> None:
    bad = {name: sorted(i for i in _imports(path) if i.split(".")[0] == "runtime" and i not in SKILL_FACING)
           for name, path in _modules("skills").items()}
    assert {k: v for k, v in bad.items() if v} == {}


def _skill_package(module: str) -> str | None:
    """``skills.dinner`` for ``skills.dinner._menu``; None for the shared modules of skills/ itself (the
    migrations are theirs)."""
    parts = module.split(".")
    if len(parts) < 2 or parts[1] == "migrations" or not (ROOT / "skills" / parts[1]).is_dir():
        return None
    return ".".join(parts[:2])


def test_a_skill_reaches_other_skills_only_through_their_public_modules() -> None:
    """A skill imports its own package, the shared public modules of skills/ (tables, writes, services)
    and public modules of other skill packages — never another package's private module."""
    modules = _modules("skills")
    bad: dict[str, list[str]] = {}
    for name, path in modules.items():
        own = _skill_package(name)
        if own is None:
            continue
        for imported in _imports(path, submodules=True) & set(modules):
            other = _skill_package(imported)
            if other == own or imported in SKILLS_SHARED or imported == "skills":
                continue
            if other is None or _private(imported):
                bad.setdefault(name, []).append(imported)
    assert bad == {}


def test_the_shared_modules_of_skills_import_no_skill() -> None:
    modules = _modules("skills")
    bad = {name: sorted(i for i in _imports(path) if i in modules and _skill_package(i))
           for name, path in modules.items() if _skill_package(name) is None}
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


def test_no_circle_between_skill_packages() -> None:
    """Beyond modules: no skill reaches back to a skill that reaches it (what two share lives lower down)."""
    modules = _modules("skills")
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        if (own := _skill_package(name)) is not None:
            graph.setdefault(own, set()).update(
                other for i in _imports(path, submodules=True) if (other := _skill_package(i)) not in (None, own))
    for deps in list(graph.values()):
        for dep in deps:
            graph.setdefault(dep, set())
    circle = _circle(graph)
    assert circle is None, "import circle: " + " -> ".join(circle or [])


def test_the_circle_finder_finds_one() -> None:
    assert _circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _circle({"a": {"b"}, "b": set()}) is None


def _hidden_imports(source: str, importer: str, *, is_package: bool = False) -> list[str]:
    """Imports of the project's own modules that stand where an import circle hides: inside a function,
    under ``if TYPE_CHECKING``, or at module level after the first definition."""
    tree = ast.parse(source)

    def own(node: ast.stmt) -> bool:
        if isinstance(node, ast.Import):
            return any(alias.name.split(".")[0] in FIRST_PARTY for alias in node.names)
        if isinstance(node, ast.ImportFrom):
            return _resolved(node, importer, is_package).split(".")[0] in FIRST_PARTY
        return False

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found += [f"{sub.lineno}: in {node.name}()" for sub in ast.walk(node) if own(sub)]  # type: ignore[arg-type]
    defined = False
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            found += [f"{sub.lineno}: only for the type checker" for sub in node.body if own(sub)]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            defined = True
        elif defined and own(node):
            found.append(f"{node.lineno}: after the definitions")
    return found


@pytest.mark.parametrize("package", ["runtime", "skills"])
def test_own_modules_are_imported_at_the_top(package: str) -> None:
    bad = {name: found for name, path in _modules(package).items()
           if (found := _hidden_imports(path.read_text(encoding="utf-8"), name, is_package=path.name == "__init__.py"))}
    assert bad == {}


def test_a_hidden_import_is_found() -> None:
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import views\n"
              "def f():\n    import json\n    from runtime.keys import skill_cache\n"
              "from runtime import clock\n")
    assert _hidden_imports(source, "runtime.probe") == [
        "6: in f()", "3: only for the type checker", "7: after the definitions"]
    assert _hidden_imports("def f():\n    import opencc\n", "runtime.probe") == []


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


def _is_module(module: str, *, beside: Path) -> bool:
    """``module`` is a module of this tree (from the root, or a test's sibling as ``pytest`` imports it)."""
    parts = module.split(".")
    for base in (ROOT, beside):
        path = base.joinpath(*parts)
        if path.with_suffix(".py").is_file() or (path / "__init__.py").is_file():
            return True
    return False


def _private_imports(path: Path) -> list[str]:
    """The private modules (a part of the name starts with ``_``) that the test file ``path`` imports."""
    found = set()
    for node, names in _import_nodes(path):
        for module in names if isinstance(node, ast.ImportFrom) else names:
            if _private(module) and _is_module(module, beside=path.parent):
                found.add(f"{node.lineno}: {module}")
    return sorted(found, key=lambda line: int(line.split(":")[0]))


TEST_FOLDERS = sorted(p.name for p in (ROOT / "tests").iterdir() if p.is_dir() and any(p.rglob("*.py")))
# folders whose private imports another change is taking out: listed here until they are clean
# (strict: the test fails once a folder is clean and still listed)
NOT_YET_CLEAN: set[str] = set()  # every test folder imports public names only


@pytest.mark.parametrize("folder", [
    pytest.param(name, marks=pytest.mark.xfail(strict=True, reason="its tests still import private modules"))
    if name in NOT_YET_CLEAN else name for name in TEST_FOLDERS])
def test_tests_import_no_private_module(folder: str) -> None:
    """Tests reach the code through public names: a private module is free to change without them."""
    bad = {str(path.relative_to(ROOT)): found for path in sorted((ROOT / "tests" / folder).rglob("*.py"))
           if (found := _private_imports(path))}
    assert bad == {}


def test_a_private_import_is_found() -> None:
    assert _private("runtime._summary") and _private("skills.dinner._menu.Shape") and not _private("skills.__init__")
    assert _is_module("runtime.intent._linear", beside=ROOT) and not _is_module("runtime.intent.nothing", beside=ROOT)

