"""ConversationRuntimeContext: pure (de)serialisation, bounds, migration and corrupt input."""

from __future__ import annotations

import json

import pytest

from runtime.context import (
    MAX_PAUSED,
    MAX_RECENT,
    SCHEMA_VERSION,
    ContextCorrupt,
    ConversationRuntimeContext,
    PausedTask,
    SkillSession,
    dump_context,
    load_context,
)
from tests.runtime.contexts import NOW, rich_context


def test_dump_load_round_trip_is_pure_and_lossless() -> None:
    ctx = rich_context("u1")
    ctx.version = 12
    text = dump_context(ctx)
    assert json.loads(text)["schema_version"] == SCHEMA_VERSION
    again = load_context("u1", text)
    assert again == ctx
    assert dump_context(again) == text  # stable
    assert load_context("u1", text.encode()) == ctx  # bytes from Redis read the same
    assert ctx == rich_context("u1").model_copy(update={"version": 12})  # dumping changed nothing


def test_load_takes_the_user_from_the_key_not_the_blob() -> None:
    text = dump_context(rich_context("someone-else"))
    assert load_context("u2", text).user == "u2"


def test_empty_factory() -> None:
    ctx = ConversationRuntimeContext.empty("u3", version=4)
    assert (ctx.user, ctx.version, ctx.active, ctx.paused, ctx.recent) == ("u3", 4, None, [], [])
    assert ctx.summary.constraints == {} and ctx.pending_confirmation is None


def test_paused_stack_is_bounded_and_keeps_the_newest() -> None:
    ctx = ConversationRuntimeContext.empty("u")
    for i in range(MAX_PAUSED + 3):
        session = SkillSession(skill="s", action="a", intent=f"i{i}")
        ctx.push_paused(PausedTask(session=session, resume_question=f"q{i}", paused_at=NOW))
    assert len(ctx.paused) == MAX_PAUSED
    assert [p.session.intent for p in ctx.paused] == [f"i{i}" for i in range(3, MAX_PAUSED + 3)]


def test_recent_is_bounded_and_truncates_long_text() -> None:
    ctx = ConversationRuntimeContext.empty("u")
    for i in range(MAX_RECENT * 2):
        ctx.remember("user" if i % 2 else "bot", f"m{i}", NOW)
    assert len(ctx.recent) == MAX_RECENT
    assert ctx.recent[-1].text == f"m{MAX_RECENT * 2 - 1}" and ctx.recent[0].text == f"m{MAX_RECENT}"
    ctx.remember("user", "长" * 1000, NOW)
    assert len(ctx.recent[-1].text) == 200


@pytest.mark.parametrize("raw", ["", "{", "null", "[]", "42", '{"version": "x"}', '{"paused": 3}',
                                 '{"schema_version": 999}', '{"schema_version": 0}', '{"schema_version": "abc"}'])
def test_unreadable_blobs_raise_context_corrupt_with_the_raw_text(raw: str) -> None:
    with pytest.raises(ContextCorrupt) as info:
        load_context("u", raw)
    assert info.value.raw == raw and info.value.user == "u" and info.value.reason


def test_v1_migration_wraps_bare_paused_sessions_and_text_summary() -> None:
    v1 = {"schema_version": 1, "paused": [{"skill": "dinner", "action": "plan", "intent": "dinner.plan"},
                                          {"session": {"skill": "x", "action": "y", "intent": "z"},
                                           "resume_question": "继续吗", "paused_at": NOW.isoformat()}],
          "summary": ""}
    ctx = load_context("u", json.dumps(v1))
    assert [p.session.skill for p in ctx.paused] == ["dinner", "x"]
    assert ctx.paused[1].resume_question == "继续吗"
    assert ctx.summary.open_items == []
