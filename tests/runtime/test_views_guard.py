"""Frozen views (DESIGN §3.5) and the anti-degradation checks that fail the build (DESIGN §6)."""

from __future__ import annotations

import ast
import dataclasses
import re
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from runtime.context import ConversationRuntimeContext, PausedTask, SkillSession
from runtime.summary import MAX_SUMMARY_CHARS, build_model_summary
from runtime.views import ExecView, ModelSummary, RouterView, make_exec_view
from skills import registry
from tests.runtime.contexts import OPENID, rich_context

ROOT = Path(__file__).resolve().parents[2]
NOW = datetime(2026, 12, 1, 20, 0, tzinfo=ZoneInfo("Asia/Shanghai"))


# -- immutability ------------------------------------------------------------------------------------

def test_router_view_is_frozen() -> None:
    view = RouterView(text="今天几号", origin="text")
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.text = "别的"  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        view.extra = 1  # type: ignore[attr-defined]


def test_exec_view_is_frozen_and_its_mappings_are_read_only() -> None:
    source = {"people": 3, "dietary": ["香菜"]}
    view = make_exec_view(user="u", msg_id="m", now=NOW, tz="Asia/Shanghai", params=source,
                          entities={"dish": "番茄炒蛋"})
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.params = {}  # type: ignore[misc]
    with pytest.raises(TypeError):
        view.params["people"] = 4  # type: ignore[index]
    with pytest.raises(TypeError):
        del view.params["people"]  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        view.entities["dish"] = "x"  # type: ignore[index]
    source["people"] = 99  # the caller's dict is copied, not shared
    assert view.params["people"] == 3


def test_with_params_leaves_the_original_alone() -> None:
    view = make_exec_view(user="u", msg_id="m", now=NOW, tz="Asia/Shanghai", params={"a": 1})
    other = view.with_params({"a": 2})
    assert view.params["a"] == 1 and other.params["a"] == 2
    with pytest.raises(TypeError):
        other.params["a"] = 3  # type: ignore[index]


def test_exec_view_has_no_origin_and_model_summary_is_frozen() -> None:
    assert "origin" not in {f.name for f in dataclasses.fields(ExecView)}
    summary = ModelSummary(text="x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        summary.text = "y"  # type: ignore[misc]


# -- anti-degradation: the source scans ---------------------------------------------------------------

def _modules(folder: str) -> list[Path]:
    found = sorted((ROOT / folder).rglob("*.py"))
    assert found, f"nothing to scan under {folder}"
    return found


def _names(tree: ast.AST) -> set[str]:
    """Every identifier a module imports, names or reads as an attribute."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            out.add(node.id)
        elif isinstance(node, ast.Attribute):
            out.add(node.attr)
        elif isinstance(node, ast.ImportFrom | ast.Import):
            out.update(a.name.rsplit(".", 1)[-1] for a in node.names)
            out.update(a.asname for a in node.names if a.asname)
        elif isinstance(node, ast.keyword) and node.arg:
            out.add(node.arg)
    return out


@pytest.mark.parametrize("path", _modules("runtime/resolve"), ids=lambda p: p.name)
def test_no_router_module_touches_the_exec_view(path: Path) -> None:
    names = _names(ast.parse(path.read_text(encoding="utf-8")))
    assert not names & {"ExecView", "make_exec_view", "with_params"}, f"{path} reads the exec view"


@pytest.mark.parametrize("path", _modules("skills"), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_skill_reads_where_a_request_came_from(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = _names(tree)
    assert not names & {"origin", "Origin", "RouterView"}, f"{path} branches on the origin"
    keys = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    assert "origin" not in keys, f"{path} looks up an 'origin' key"


def test_the_scans_would_catch_a_violation() -> None:
    bad_router = "from runtime.views import ExecView\ndef f(v): return v\n"
    bad_skill = "def run(view, params, services):\n    return view.origin == 'menu'\n"
    assert "ExecView" in _names(ast.parse(bad_router))
    assert "origin" in _names(ast.parse(bad_skill))
    assert "origin" in _names(ast.parse("f(origin='menu')"))


# -- model summary: a templated sentence, never JSON or ids --------------------------------------------

_OPENID_LIKE = re.compile(r"o[A-Za-z0-9_-]{20,}")
_JSONISH = ("{", "}", "[", "]", '"user"', "'user'", '":', "':")


def _assert_clean(text: str) -> None:
    assert 0 < len(text) <= MAX_SUMMARY_CHARS
    for token in _JSONISH:
        assert token not in text, f"{token!r} in model summary: {text}"
    assert not _OPENID_LIKE.search(text), text


def test_model_summary_of_a_full_context_is_a_short_clean_sentence() -> None:
    ctx = rich_context(OPENID)
    text = build_model_summary(ctx, registry().task_name).text
    _assert_clean(text)
    assert OPENID not in text and "3人" in text and "预算100元" in text


def test_model_summary_stays_short_when_everything_is_long() -> None:
    ctx = rich_context(OPENID)
    for i in range(10):
        ctx.summary.constraints[f"k{i}"] = {"nested": [OPENID] * 5}
        ctx.push_paused(PausedTask(session=SkillSession(skill="s", action="a", intent="dinner.plan",
                                                         params={"user": OPENID}),
                                   resume_question="继续吗", paused_at=NOW))
    ctx.summary.goal = "减脂" * 50
    _assert_clean(build_model_summary(ctx, registry().task_name).text)


def test_model_summary_of_a_new_conversation() -> None:
    _assert_clean(build_model_summary(ConversationRuntimeContext.empty(OPENID), registry().task_name).text)


def test_model_summary_never_copies_json_typed_by_the_user() -> None:
    ctx = rich_context(OPENID)
    assert ctx.active is not None
    ctx.active.params["content"] = '{"user":1}'
    _assert_clean(build_model_summary(ctx, registry().task_name).text)
