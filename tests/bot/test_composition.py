"""One composition root: ``bot/compose/`` builds every long-lived object, from typed Settings.

Read from the source (AST), so a module that builds its own Redis client, queue, dispatcher,
sweeper, scheduler, webhook app, SQL engine, engine, skills or model port fails here, whether or
not a test runs it; so does a ``settings`` parameter that is not typed ``Settings``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COMPOSITION_ROOT = "bot/compose/"

# What builds a long-lived object, by the dotted name it is imported under.
BUILDERS = frozenset({
    "fakeredis.FakeRedis", "redis.Redis", "redis.Redis.from_url", "redis.from_url", "redis.StrictRedis",
    "bot.redis_client.connect", "bot.redis_client.LeanRedis", "bot.redis_client.LeanRedis.from_url",
    "rq.Queue", "bot.queue.make_queue", "bot.queue.mailbox.make_queue",
    "bot.queue.RQDispatcher", "bot.queue.mailbox.RQDispatcher",
    "bot.worker.InlineDispatcher", "bot.worker.jobs.InlineDispatcher", "bot.worker.EdgeWorker",
    "bot.worker._rq_worker.EdgeWorker", "bot.worker.WorkerDeps", "bot.worker._context.WorkerDeps",
    "bot.queue.SweeperThread", "bot.queue.sweeper.SweeperThread",
    "bot.scheduler.Scheduler", "bot.scheduler.service.Scheduler", "bot.scheduler.LeaderLease",
    "bot.webhook.create_app", "bot.webhook.asgi.create_app",
    "skills.db.make_sql_engine", "sqlalchemy.create_engine", "sqlmodel.create_engine",
    "runtime.engine.Engine", "skills.all_skills", "runtime.llm.build_llm",
    "bot.delivery.transcribed.TranscribedDelivery", "bot.wechat.WeChatpyAPI", "bot.wechat.adapter.WeChatpyAPI",
})

# Modules that build one of those for a reason of their own, and the reason.
EXEMPT = {
    "bot/redis_client.py": "defines connect(): the client class itself",
    "bot/queue/mailbox.py": "defines make_queue(): the RQ queue itself",
    "bot/bench/_redis.py": "a benchmark probing the private redis-server it started",
    "bot/bench/pipeline.py": "a benchmark watching its worker processes register",
    "bot/bench/webhook.py": "a benchmark emptying its Redis before a run",
    "bot/bench/_jobs.py": "the baseline measures RQ's own forking worker on RQ's own queue",
}


def _modules() -> Iterator[Path]:
    yield from sorted((ROOT / "bot").rglob("*.py"))


def _imported_names(tree: ast.AST) -> dict[str, str]:
    """Local name → dotted name it stands for, from every import of the module (nested ones too)."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                names[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


def _dotted(node: ast.expr, names: dict[str, str]) -> str | None:
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value, names)
        return None if base is None else f"{base}.{node.attr}"
    return None


def constructions(source: str) -> list[tuple[int, str]]:
    """``(line, builder)`` for every call of a builder in ``source``."""
    tree = ast.parse(source)
    names = _imported_names(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and (name := _dotted(node.func, names)) in BUILDERS:
            found.append((node.lineno, name))
    return found


def untyped_settings(source: str, *, typed: str | None = "Settings") -> list[tuple[int, str]]:
    """``(line, function)`` for every parameter named ``settings`` not annotated ``typed`` (None: not
    annotated with a type of its own: missing or ``Any``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args
            for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
                name = arg.annotation.id if isinstance(arg.annotation, ast.Name) else None
                if arg.arg == "settings" and (name != typed if typed else name in (None, "Any")):
                    found.append((node.lineno, node.name))
    return found


def test_only_the_composition_root_builds_long_lived_objects() -> None:
    outside = [f"{path.relative_to(ROOT)}:{line} {name}" for path in _modules()
               if not str(path.relative_to(ROOT)).startswith(COMPOSITION_ROOT) and str(path.relative_to(ROOT)) not in EXEMPT
               for line, name in constructions(path.read_text(encoding="utf-8"))]
    assert outside == [], "build these in bot/compose/ and pass them down:\n" + "\n".join(outside)


def test_the_composition_root_builds_them() -> None:
    built = {name for path in sorted((ROOT / COMPOSITION_ROOT).glob("*.py"))
             for _, name in constructions(path.read_text(encoding="utf-8"))}
    assert {"fakeredis.FakeRedis", "bot.redis_client.connect", "bot.queue.make_queue", "bot.queue.RQDispatcher",
            "bot.worker.InlineDispatcher", "bot.worker.EdgeWorker", "bot.worker.WorkerDeps", "bot.queue.SweeperThread",
            "bot.scheduler.Scheduler", "bot.webhook.create_app", "skills.db.make_sql_engine", "runtime.engine.Engine",
            "skills.all_skills", "runtime.llm.build_llm"} <= built


@pytest.mark.parametrize(("folder", "typed"), [("bot", "Settings"), ("runtime", None), ("skills", None)])
def test_every_settings_parameter_is_typed(folder: str, typed: str | None) -> None:
    """Under bot/ a ``settings`` parameter is :class:`bot.settings.Settings`; runtime/ and skills/ never
    see those (they get what they need by keyword) and type their own (an LLM profile's)."""
    untyped = [f"{path.relative_to(ROOT)}:{line} {name}()" for path in sorted((ROOT / folder).rglob("*.py"))
               for line, name in untyped_settings(path.read_text(encoding="utf-8"), typed=typed)]
    assert untyped == [], f"annotate these `settings: {typed or 'a type of their own'}`:\n" + "\n".join(untyped)


def test_the_checks_see_what_they_look_for() -> None:
    """The gate itself: a module that builds its own queue and takes untyped settings is caught."""
    source = (
        "from typing import Any\nimport fakeredis\nfrom bot.queue import make_queue as mq\n"
        "def build(settings: Any, other: int) -> None:\n"
        "    mq(fakeredis.FakeRedis())\n"
        "def fine(settings: Settings) -> None:\n"
        "    from bot import compose\n"
        "    compose.queue(compose.redis_client(settings))\n"
    )
    assert sorted(constructions(source)) == [(5, "bot.queue.make_queue"), (5, "fakeredis.FakeRedis")]
    assert untyped_settings(source) == [(4, "build")]
    assert untyped_settings(source, typed=None) == [(4, "build")]
