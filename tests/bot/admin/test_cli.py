"""wxbot replay / replay --rerun / inspect / reset / stats against real Redis DB 5."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.cli import main
from bot.compose import core, rerun_sandbox, transcript
from bot.settings import Settings
from runtime import keys
from runtime.transcript import TranscribedTurns, Transcript, TurnEntry
from runtime.turn import Inbound
from tests.bot.admin.conftest import REAL_REDIS_URL, make_turn

pytestmark = pytest.mark.redis
URL = ["--redis-url", REAL_REDIS_URL]


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings.from_env({"REDIS_URL": REAL_REDIS_URL, "DATA_DIR": str(tmp_path), "WEATHER_FAKE": "true"})


def _talk(settings: Settings, real_redis, user: str, texts: list[str]) -> TranscribedTurns:
    built = core(settings, redis=real_redis)
    engine = TranscribedTurns(built.engine, transcript(settings, real_redis))
    for i, text in enumerate(texts):
        engine.handle(Inbound(user=user, text=text, msg_id=f"{user}-{i}",
                              at=datetime(2026, 12, 1, 12, i, tzinfo=UTC)))
    return engine


def test_replay_prints_conversation_with_traces(settings, real_redis, capsys, monkeypatch) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    _talk(settings, real_redis, "alice", ["现在几点", "今天星期几"])
    Transcript(real_redis).record_delivery("alice", "现在是…", "passive", "sent", ref="alice-0")
    assert main(["replay", "alice", *URL]) == 0
    out = capsys.readouterr().out
    assert "user (text): 现在几点" in out and "user (text): 今天星期几" in out
    assert "trace: rules · datetime.query" in out and "no model" in out
    assert "[reply via passive: sent]" in out
    assert main(["replay", "alice", "--json", *URL]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["kind"] for x in lines] == ["turn", "turn", "delivery"]
    assert lines[0]["trace"]["intent"] == "datetime.query" and lines[0]["inbound"]["text"] == "现在几点"
    assert main(["replay", "nobody", *URL]) == 1


def test_rerun_diffs_against_current_code_without_touching_real_data(settings, real_redis, capsys) -> None:
    _talk(settings, real_redis, "bob", ["现在几点"])
    # a turn recorded by an "older version" that answered differently
    inbound, result = make_turn(user="bob", text="今天几号", intent="unknown", reply="不明白", msg_id="old-1")
    Transcript(real_redis).record_turn(inbound, result)
    before = {k: real_redis.dump(k) for k in real_redis.keys("*")}
    assert main(["replay", "bob", "--rerun", "--json", *URL]) == 0
    diffs = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [d["changed"] for d in diffs][0] == []
    assert "intent" in diffs[1]["changed"] and "reply" in diffs[1]["changed"]
    assert diffs[1]["rerun"]["intent"] == "datetime.query" and diffs[1]["recorded"]["reply"] == "不明白"
    assert {k: real_redis.dump(k) for k in real_redis.keys("*")} == before  # nothing written for real
    assert main(["replay", "bob", "--rerun", *URL]) == 0
    out = capsys.readouterr().out
    assert "- intent: unknown" in out and "+ intent: datetime.query" in out and "1 of 2 turns changed" in out


def test_rerun_runs_each_turn_at_its_original_time(settings, real_redis) -> None:
    from bot.admin.rerun import rerun

    _talk(settings, real_redis, "carol", ["现在几点"])
    turns = Transcript(real_redis).turns("carol")
    report = rerun("carol", turns, rerun_sandbox(settings))
    assert report.changed == 0 and "12" in report.turns[0].rerun.reply  # 12:00 UTC recorded → same answer
    moved = [TurnEntry.model_validate(turns[0].model_dump() | {
        "inbound": turns[0].inbound.model_copy(update={"at": datetime(2026, 12, 1, 3, 7, tzinfo=UTC)})})]
    assert rerun("carol", moved, rerun_sandbox(settings)).turns[0].changed == ["reply"]


def test_inspect_and_reset(settings, real_redis, capsys) -> None:
    engine = _talk(settings, real_redis, "dave", ["现在几点"])
    assert main(["inspect", "dave", *URL]) == 0
    out = capsys.readouterr().out
    assert "# context of dave (version 1" in out and '"user": "dave"' in out
    real_redis.set(keys.context_quarantine("dave"), "{broken")
    assert main(["inspect", "dave", *URL]) == 0
    assert "quarantined" in capsys.readouterr().out
    assert main(["reset", "dave", "--transcript", *URL]) == 0
    assert "context deleted; transcript deleted" in capsys.readouterr().out
    assert engine.engine.store.raw("dave") is None and Transcript(real_redis).read("dave") == []
    assert main(["inspect", "dave", *URL]) == 1


def test_stats_text_and_json(settings, real_redis, capsys) -> None:
    _talk(settings, real_redis, "erin", ["现在几点", "今天星期几"])
    assert main(["stats", *URL]) == 0
    out = capsys.readouterr().out
    assert "turns: 2" in out and "zero-model: 2 (100.0%)" in out and "rules=2" in out
    assert main(["stats", "--json", *URL]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["turns"]["by_stage"]["rules"] == 2 and data["queues"]["queues"] == []


def test_embedded_mode_explains_there_is_nothing_to_inspect(capsys, monkeypatch) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.chdir("/tmp")
    for command in (["stats"], ["replay", "u"], ["inspect", "u"], ["reset", "u"]):
        assert main(command) == 2
        assert "no REDIS_URL is set" in capsys.readouterr().err


def test_bad_since_is_a_clear_error(capsys) -> None:
    assert main(["replay", "u", "--since", "yesterday-ish", *URL]) == 2
    assert "--since" in capsys.readouterr().err
