"""bot.script.ScriptRunner in process: the DESIGN §3.7 contract, clock rules and bad lines."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot import cli
from bot.compose import core
from bot.script import ScriptRunner
from bot.settings import Settings
from runtime.clock import SettableClock

START = datetime(2026, 12, 1, 8, 0, tzinfo=ZoneInfo("Asia/Shanghai"))


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    built = core(Settings(data_dir=tmp_path_factory.mktemp("sr"), intent_model=False))
    yield built.engine
    built.services.db.dispose()


@pytest.fixture
def runner(engine: object) -> ScriptRunner:
    return ScriptRunner(engine, SettableClock(START))  # type: ignore[arg-type]


def _run(runner: ScriptRunner, **line: object) -> dict[str, object]:
    return runner.run_line(json.dumps(line, ensure_ascii=False))


def test_at_sets_the_clock_and_a_move_back_is_an_error_line(runner: ScriptRunner) -> None:
    assert _run(runner, user="c", text="今天几号", at="2026-12-03T09:00:00+08:00")["replies"] == \
        ["今天是2026年12月3日（星期四）。"]
    back = _run(runner, user="c", text="今天几号", at="2026-12-02T09:00:00+08:00")
    assert set(back) == {"line", "error", "input"} and "time only moves forward" in back["error"]
    assert back["line"] == 2 and "2026-12-02T09:00:00" in back["input"]
    out = _run(runner, advance_to="2026-12-05T10:00:00+08:00")
    assert out["line"] == 3 and out["advance_to"] == "2026-12-05T10:00:00+08:00"
    assert (out["replies"], out["pushes"], out["llm_calls"], out["prompt_tokens"], out["completion_tokens"]) == \
        ([], [], 0, 0, 0)
    assert "error" in _run(runner, advance_to="2026-12-04T10:00:00+08:00")
    assert _run(runner, user="c", text="今天几号")["replies"] == ["今天是2026年12月5日（星期六）。"]


def test_at_in_another_offset_is_answered_in_the_users_timezone(runner: ScriptRunner) -> None:
    out = _run(runner, user="tz", text="现在几点", at="2026-12-01T17:30:00+00:00")
    assert out["replies"] == ["现在是01:30，2026年12月2日（星期三）。"]


def test_subscribe_event_welcomes_with_what_the_bot_can_do(runner: ScriptRunner) -> None:
    out = _run(runner, user="new", event="subscribe")
    assert out["stage"] == "event" and out["replies"] and out["llm_calls"] == 0


def test_control_help(runner: ScriptRunner) -> None:
    out = _run(runner, user="h", text="帮助")
    assert out["stage"] == "control" and out["replies"]


@pytest.mark.parametrize("line", [
    "{", "[1]", '{"user": "u"}', '{"text": "hi"}', '{"user": "u", "text": "x", "event": "CLICK"}',
    '{"user": "u", "text": "x", "bogus": 1}', '{"user": "u", "text": "x", "at": "2026-12-01T20:00:00"}',
    '{"user": "u", "text": "x", "at": "not a time"}', '{"advance_to": "2026-12-03T21:00:30+08:00", "user": "u"}',
])
def test_bad_lines_yield_one_error_object(runner: ScriptRunner, line: str) -> None:
    out = runner.run_line(line, number=7)
    assert set(out) == {"line", "error", "input"} and isinstance(out["error"], str) and out["error"]
    assert out["line"] == 7 and out["input"] == line.strip()[:60]


def test_naive_advance_to_is_a_bad_line_not_a_crash(runner: ScriptRunner) -> None:
    out = runner.run_line('{"advance_to": "2026-12-03T21:00:30"}')
    assert set(out) == {"line", "error", "input"}


def test_overlong_user_id_is_a_bad_line_not_a_crash(runner: ScriptRunner) -> None:
    out = runner.run_line(json.dumps({"user": "x" * 200, "text": "hi"}))
    assert set(out) == {"line", "error", "input"} and out["input"].endswith("…") and len(out["input"]) == 60


def test_chat_script_leaves_no_temporary_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("INTENT_MODEL", "false")
    for name in ("REDIS_URL", "DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    script = tmp_path / "s.jsonl"
    script.write_text('{"user": "u", "text": "今天几号"}\n', encoding="utf-8")
    assert cli.main(["chat", "--script", str(script), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["intent"] == "datetime.query"
    assert list(scratch.iterdir()) == []


SCRIPT_AROUND = [
    "# a comment and a blank line count as lines but yield nothing",
    "",
    '{"user": "t", "text": "今天几号"}',
    '{"user": "t", "text": "明天星期几", "at": "%(year)s-03-10T09:00:00+08:00"}',
    '{"user": "t", "text": "10分钟后提醒我关火"}',
    '{"advance_to": "%(year)s-03-10T09:10:30+08:00"}',
    '{"user": "t", "text": "现在几点"}',
]


def _fresh_run(year: int) -> list[dict[str, object]]:
    built = core(Settings(data_dir=Path(tempfile.mkdtemp(prefix="sr-")), intent_model=False))
    try:
        from skills.reminders import run_due

        runner = ScriptRunner(built.engine, due_pushes=lambda now: run_due(built.services, now))
        return list(runner.run_lines([line % {"year": year} for line in SCRIPT_AROUND]))
    finally:
        built.services.db.dispose()


@pytest.mark.parametrize("year", [2025, 2027])
def test_a_script_gives_the_same_output_whatever_day_it_runs(year: int) -> None:
    import time_machine

    runs = []
    for wall in ("2026-01-15T12:00:00+00:00", "2026-11-30T03:00:00+00:00", "2028-07-01T23:59:00+00:00"):
        with time_machine.travel(datetime.fromisoformat(wall), tick=False):
            runs.append(_fresh_run(year))
    assert runs[0] == runs[1] == runs[2]
    first = runs[0]
    assert [o["line"] for o in first] == [3, 4, 5, 6, 7]
    assert first[0]["replies"] == [f"今天是{year}年3月10日（星期{'一二三四五六日'[datetime(year, 3, 10).weekday()]}）。"]
    assert first[3]["pushes"] and "关火" in first[3]["pushes"][0]["text"]
    assert first[4]["replies"][0].startswith("现在是09:10")


def test_now_starts_the_clock_and_an_earlier_at_is_an_error(engine: object) -> None:
    runner = ScriptRunner(engine, start=datetime(2030, 5, 1, 8, 0, tzinfo=ZoneInfo("Asia/Shanghai")))  # type: ignore[arg-type]
    out = list(runner.run_lines(['{"user": "n", "text": "今天几号"}',
                                 '{"user": "n", "text": "今天几号", "at": "2030-04-30T08:00:00+08:00"}']))
    assert out[0]["replies"] == ["今天是2030年5月1日（星期三）。"]
    assert out[1]["line"] == 2 and "error" in out[1]


def test_the_words_that_end_the_local_chat_are_messages_here_as_in_wechat(runner: ScriptRunner) -> None:
    """``退出``, ``再见``, ``quit`` and ``exit`` end only the interactive ``wxbot chat``."""
    from bot.commands.chat import GOODBYE, LEAVE_WORDS

    for word in sorted(LEAVE_WORDS):
        out = _run(runner, user="leaver", text=word)
        assert out["replies"] and not any(GOODBYE in reply for reply in out["replies"]), (word, out)  # type: ignore[union-attr]
