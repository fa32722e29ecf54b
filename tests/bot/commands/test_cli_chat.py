"""``wxbot chat`` end to end, as a user runs it: subprocesses of the installed console script."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.commands.chat import GOODBYE, leaves_chat
from tests.harness.tiers import LONG

ROOT = Path(__file__).resolve().parents[3]
WXBOT = Path(sys.executable).with_name("wxbot")

CONTRACT_KEYS = {"line", "user", "replies", "stage", "intent", "skill", "llm_calls", "prompt_tokens",
                 "completion_tokens", "state", "pushes"}
STATE_KEYS = {"active_skill", "expected_field", "paused", "pending_confirmation"}
STAGES = {"event", "control", "expected_input", "rules", "intent_model", "llm_router", "fallback"}
EXAMPLE = [
    {"user": "u1", "text": "周四晚上9点提醒我倒垃圾", "at": "2026-12-01T20:00:00+08:00"},
    {"user": "u1", "event": "CLICK", "key": "dinner.plan"},
    {"advance_to": "2026-12-03T21:00:30+08:00"},
]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("REDIS_", "DATABASE_", "OPENAI_", "WECHAT_", "WXBOT_", "INTENT_"))}
    env["PYTHONPATH"] = str(ROOT)
    return {**env, **extra}


def wxbot(*args: str, cwd: Path, stdin: str | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    """Run the console script in an embedded environment (no servers, no model)."""
    exe = [str(WXBOT)] if WXBOT.exists() else [sys.executable, "-m", "bot.cli"]
    return subprocess.run([*exe, *args], input=stdin, cwd=cwd, env=_env(**env), capture_output=True, text=True,
                          timeout=60, check=False)


def _lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _script(path: Path, lines: list[object]) -> Path:
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x, ensure_ascii=False) for x in lines)
                    + "\n", encoding="utf-8")
    return path


def _assert_contract(out: dict[str, object]) -> None:
    assert set(out) == CONTRACT_KEYS, out
    assert isinstance(out["replies"], list) and all(isinstance(r, str) and r for r in out["replies"])
    assert out["stage"] in STAGES and isinstance(out["intent"], str)
    assert out["skill"] is None or isinstance(out["skill"], str)
    for key in ("llm_calls", "prompt_tokens", "completion_tokens"):
        assert isinstance(out[key], int) and out[key] >= 0
    state = out["state"]
    assert isinstance(state, dict) and set(state) == STATE_KEYS and isinstance(state["paused"], list)
    assert isinstance(out["pushes"], list)


def test_design_example_bad_line_and_more(tmp_path: Path) -> None:
    script = _script(tmp_path / "s.jsonl", [
        *EXAMPLE, "this is not json", {"user": "u1"}, "",
        {"user": "u2", "text": "今天几号", "at": "2026-12-03T21:05:00+08:00"},
        {"user": "u2", "text": "现在几点", "at": "2026-12-01T08:00:00+08:00"},  # time never goes back
    ])
    done = wxbot("chat", "--script", str(script), "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = _lines(done.stdout)
    assert len(out) == 7  # one per non-blank input line, in order
    assert [o["line"] for o in out] == [1, 2, 3, 4, 5, 7, 8]  # the blank line 6 still counts

    first, click, advance = out[:3]
    _assert_contract(first)
    assert first["user"] == "u1" and first["replies"]
    _assert_contract(click)
    assert (click["stage"], click["intent"]) == ("event", "dinner.plan")
    assert set(advance) == CONTRACT_KEYS | {"advance_to"}  # the whole contract, as no user's turn
    assert (advance["user"], advance["stage"], advance["intent"]) == (None, None, None)
    assert (advance["llm_calls"], advance["prompt_tokens"], advance["completion_tokens"]) == (0, 0, 0)
    assert set(advance["state"]) == STATE_KEYS
    assert advance["advance_to"] == "2026-12-03T21:00:30+08:00" and advance["replies"] == []

    assert set(out[3]) == {"line", "error", "input"} and "JSON" in str(out[3]["error"])
    assert out[3]["input"] == "this is not json"
    assert set(out[4]) == {"line", "error", "input"} and "text" in str(out[4]["error"])

    date_q, time_q = out[5], out[6]
    _assert_contract(date_q)
    assert date_q["replies"] == ["今天是2026年12月3日（星期四）。"]
    assert (date_q["stage"], date_q["intent"], date_q["skill"], date_q["llm_calls"]) == \
        ("rules", "datetime.query", "datetime", 0)
    assert set(time_q) == {"line", "error", "input"} and "time only moves forward" in str(time_q["error"])


def test_unreadable_file_is_a_one_line_error(tmp_path: Path) -> None:
    name = "missing.jsonl"
    done = wxbot("chat", "--script", name, "--json", cwd=tmp_path)
    assert done.returncode != 0
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and name in done.stderr


def test_non_utf8_file_is_a_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "gbk.jsonl"
    path.write_bytes('{"user": "u1", "text": "今天几号"}\n'.encode("gbk"))
    done = wxbot("chat", "--script", str(path), "--json", cwd=tmp_path, INTENT_MODEL="false")
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_state_dir_keeps_the_context_between_runs(tmp_path: Path) -> None:
    state = tmp_path / "state"
    script = _script(tmp_path / "s.jsonl", [{"user": "keep", "text": "今天几号"}])
    for run in (1, 2):
        done = wxbot("chat", "--script", str(script), "--json", "--state", str(state), cwd=tmp_path,
                     INTENT_MODEL="false")
        assert done.returncode == 0, done.stderr
        shown = wxbot("inspect", "keep", "--state", str(state), cwd=tmp_path)
        assert shown.returncode == 0, shown.stderr
        assert f"(version {run}," in shown.stdout  # the second run started from the first run's context


def test_interactive_chat_answers_todays_date_and_quit_leaves_it(tmp_path: Path) -> None:
    before = datetime.now(ZoneInfo("Asia/Shanghai"))
    done = wxbot("chat", cwd=tmp_path, stdin="今天几号\n\n退出\n帮我安排晚饭\n")
    after = datetime.now(ZoneInfo("Asia/Shanghai"))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    expected = {f"今天是{d.year}年{d.month}月{d.day}日" for d in (before, after, before + timedelta(0))}
    assert any(e in done.stdout for e in expected), done.stdout
    # 退出 ends the chat: a goodbye, and the line after it is never answered
    assert done.stdout.count("机器人：") == 2 and GOODBYE in done.stdout, done.stdout
    assert "几个人" not in done.stdout and "预算" not in done.stdout, done.stdout


def test_json_without_a_script_is_a_usage_error(tmp_path: Path) -> None:
    done = wxbot("chat", "--json", cwd=tmp_path, stdin="")
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "--script" in done.stderr


def test_bad_now_is_a_one_line_error(tmp_path: Path) -> None:
    done = wxbot("chat", "--now", "2026-12-01T10:00", cwd=tmp_path, stdin="")
    assert done.returncode == 2 and "UTC offset" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.skipif(not LONG, reason="set WXBOT_LONG=1 (CI): eight starts of wxbot; every run keeps a script's "
                                     "context across two runs")
def test_interactive_chat_survives_a_restart_and_replay_reads_it(tmp_path: Path) -> None:
    first = wxbot("chat", "--now", "2026-12-01T10:00:00+08:00", cwd=tmp_path, stdin="帮我安排晚饭\n")
    assert first.returncode == 0, first.stderr
    assert str((tmp_path / ".wxbot" / "chat").resolve()) in first.stdout  # where the state is kept
    second = wxbot("chat", "--now", "2026-12-01T10:01:00+08:00", cwd=tmp_path, stdin="4个人\n")
    assert "接着上次的对话" in second.stdout and "预算" in second.stdout  # the task went on after the restart
    replay = wxbot("replay", "me", cwd=tmp_path)
    assert replay.returncode == 0, replay.stderr
    assert "帮我安排晚饭" in replay.stdout and "4个人" in replay.stdout
    stats = wxbot("stats", "--json", cwd=tmp_path)
    assert json.loads(stats.stdout)["turns"]["turns"] == 2
    assert wxbot("reset", "me", cwd=tmp_path).returncode == 0
    gone = wxbot("inspect", "me", cwd=tmp_path)
    assert gone.returncode == 1 and "no context" in gone.stdout
    fresh = wxbot("chat", "--fresh", cwd=tmp_path, stdin="")
    assert "接着上次的对话" not in fresh.stdout


def test_admin_commands_without_redis_or_local_chat_explain_themselves(tmp_path: Path) -> None:
    done = wxbot("replay", "me", cwd=tmp_path)
    assert done.returncode == 2 and "wxbot chat" in done.stderr and "Traceback" not in done.stderr


def test_the_same_script_gives_the_same_answers_on_every_run(tmp_path: Path) -> None:
    lines: list[object] = [{"user": "u1", "text": "你好", "at": "2026-12-01T20:00:00+08:00"}]
    lines += [{"user": "u1", "text": t} for t in ("嗯", "哦哦", "好吧", "行吧", "嗯嗯", "随便聊聊", "哈哈")]
    script = _script(tmp_path / "s.jsonl", lines)
    runs = []
    for run in ("a", "b"):
        done = wxbot("chat", "--script", str(script), "--json", "--state", str(tmp_path / run), cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        runs.append([o["replies"] for o in _lines(done.stdout)])
    assert runs[0] == runs[1]
    assert len({r[0] for r in runs[0] if r}) > 1  # and small talk still varies from turn to turn


@pytest.mark.parametrize("line", ["quit", "exit", "退出", "再见", "  Quit ", "EXIT", "再见！", "退出。"])
def test_the_leave_words_end_the_local_chat(line: str) -> None:
    assert leaves_chat(line)


@pytest.mark.parametrize("line", ["退出提醒", "再见了朋友", "quit smoking", "我想退出", "不要退出", ""])
def test_other_lines_with_those_words_are_messages(line: str) -> None:
    assert not leaves_chat(line)
