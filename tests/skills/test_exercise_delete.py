"""Taking back a logged workout, through the engine: by "刚才那条", by activity, by a number from a list."""

from __future__ import annotations

from pathlib import Path

from bot.compose import core
from bot.script import ScriptRunner
from bot.settings import Settings

SCRIPT = [
    '{"user": "u", "text": "今天跑了5公里", "at": "2026-12-01T20:00:00+08:00"}', '{"user": "u", "text": "确认"}',
    '{"user": "u", "text": "游泳40分钟"}', '{"user": "u", "text": "好"}',
    '{"user": "u", "text": "刚才那条运动记录记错了，删了吧"}', '{"user": "u", "text": "确认"}',
    '{"user": "u", "text": "删掉运动记录"}', '{"user": "u", "text": "跑步那条"}', '{"user": "u", "text": "先留着吧"}',
    '{"user": "u", "text": "这周运动记录"}',
]


def test_delete_the_latest_workout_and_keep_the_other(tmp_path: Path) -> None:
    runtime = core(Settings(data_dir=tmp_path, intent_model=False))
    try:
        out = list(ScriptRunner(runtime.engine).run_lines(SCRIPT))
    finally:
        runtime.services.db.dispose()
    assert out[4]["state"]["pending_confirmation"] == "exercise.log"  # the public label of the delete
    assert "游泳" in out[5]["replies"][0] and "已删除" in out[5]["replies"][0]
    assert out[6]["state"]["expected_field"] == "target"
    assert out[7]["state"]["pending_confirmation"] == "exercise.log" and "跑步" in out[7]["replies"][0]
    assert out[8]["state"]["pending_confirmation"] is None  # "先留着吧" is a no
    week = out[9]["replies"][0]
    assert "跑步 1次" in week and "游泳" not in week
