"""``wxbot bench script``: dialogue-script throughput of the engine in one process.

Generates single-turn utterances (date/time questions, chit-chat, things the bot cannot do — only
intents of registered skills), runs them through :class:`bot.script.ScriptRunner` exactly as
``wxbot chat --script --json`` does, and prints one JSON object with the rate. The same lines are
also just parsed and dumped as JSON, as a baseline measured in the same run on the same machine.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.settings import Settings

__all__ = ["TARGET_PER_SECOND", "add_arguments", "make_script", "run"]

TARGET_PER_SECOND = 300

_DATETIME = ("今天几号", "现在几点", "今天星期几", "今天是工作日吗", "元旦放假吗", "明天几号", "后天星期几",
             "几点了", "今年是哪年", "国庆放假吗", "明天要上班吗", "今天几月几号")
_WEEKDAYS = "一二三四五六日"
_CHITCHAT = ("你好", "谢谢", "在吗", "早上好", "晚安", "哈哈", "你是谁", "再见", "辛苦了", "嗨")
_UNKNOWN = ("给我讲个笑话", "量子力学是什么", "帮我写一首诗", "股票明天会涨吗", "asdfgh", "嗯……",
            "随便聊聊", "你觉得人生有意义吗", "帮我订机票", "翻译一下hello", "我有点无聊", "1234")


def _utterance(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.5:
        kind = rng.randrange(3)
        if kind == 0:
            return rng.choice(_DATETIME)
        if kind == 1:
            return f"{rng.choice(('下', '这', '下下', ''))}周{rng.choice(_WEEKDAYS)}是几号"
        return f"{rng.randint(1, 12)}月{rng.randint(1, 28)}日是星期几"
    if roll < 0.75:
        return rng.choice(_CHITCHAT)
    return rng.choice(_UNKNOWN)


def make_script(count: int, *, seed: int = 7, users: int | None = None) -> list[str]:
    """``count`` JSON script lines, one utterance each; by default every line is its own user's only turn."""
    rng = random.Random(seed)
    spread = users or count
    return [json.dumps({"user": f"bench-{i % spread}", "text": _utterance(rng)}, ensure_ascii=False)
            for i in range(count)]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: how many utterances, the seed, where to write the script, profiling."""
    parser.add_argument("-n", "--count", type=int, default=2000, help="utterances (default 2000)")
    parser.add_argument("--seed", type=int, default=7, help="random seed of the generator")
    parser.add_argument("--write", metavar="FILE", help="also write the generated script to FILE")
    parser.add_argument("--profile", action="store_true", help="profile the run with pyinstrument (stderr)")
    parser.add_argument("--pretty", action="store_true", help="indent the JSON output")


def _baseline(lines: list[str]) -> float:
    from bot.script import dumps

    started = time.perf_counter()
    for raw in lines:
        dumps(json.loads(raw))
    return time.perf_counter() - started


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Run the benchmark and print its JSON report; 0 when it reaches the target rate."""
    from bot.compose import core
    from bot.script import ScriptRunner, dumps
    from runtime.clock import SettableClock

    lines = make_script(args.count, seed=args.seed)
    if args.write:
        Path(args.write).write_text("\n".join(lines) + "\n", encoding="utf-8")
    with tempfile.TemporaryDirectory(prefix="wxbot-bench-") as directory:
        local = settings.model_copy(update={"data_dir": Path(directory), "weather_fake": True})
        built = core(local, database_url=settings.database_url or None)
        runner = ScriptRunner(built.engine, SettableClock(datetime.now(UTC)))
        profiler = _profiler() if args.profile else None
        stages: Counter[str] = Counter()
        llm_calls = errors = 0
        started = time.perf_counter()
        for out in runner.run_lines(lines):
            dumps(out)
            stages[str(out.get("stage", "error"))] += 1
            llm_calls += int(out.get("llm_calls", 0))
            errors += "error" in out
        seconds = time.perf_counter() - started
        if profiler is not None:
            profiler.stop()
            print(profiler.output_text(unicode=True, color=False), file=sys.stderr)
        built.services.db.dispose()
    baseline = _baseline(lines)
    per_second = len(lines) / seconds if seconds else float("inf")
    report = {
        "utterances": len(lines), "seconds": round(seconds, 3), "per_second": round(per_second, 1),
        "baseline_json_roundtrip_per_second": round(len(lines) / baseline, 1) if baseline else None,
        "target_per_second": TARGET_PER_SECOND, "within_target": per_second >= TARGET_PER_SECOND,
        "stages": dict(sorted(stages.items())), "llm_calls": llm_calls, "errors": errors,
    }
    print(json.dumps(report, ensure_ascii=False, indent=2 if args.pretty else None))
    return 0 if report["within_target"] else 1


def _profiler() -> Any:
    from pyinstrument import Profiler

    profiler = Profiler()
    profiler.start()
    return profiler
