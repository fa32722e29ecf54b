"""``wxbot chat``: talk to the bot in the terminal, or run a dialogue script (``--script FILE --json``)."""

from __future__ import annotations

import argparse
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.settings import Settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--script", metavar="FILE", help="run a JSON Lines dialogue script ('-' = stdin)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per script line")
    parser.add_argument("--state", metavar="DIR", help="keep conversation state and data in DIR between runs")
    parser.add_argument("--user", default="me", help="user id for the interactive chat")


_SCRATCH: list[tempfile.TemporaryDirectory[str]] = []


def _scratch() -> tempfile.TemporaryDirectory[str]:
    """A throwaway directory removed when the process exits (runs without --state leave nothing)."""
    scratch = tempfile.TemporaryDirectory(prefix="wxbot-chat-", ignore_cleanup_errors=True)
    _SCRATCH.append(scratch)
    return scratch


def _runtime(settings: Settings, state: str | None) -> tuple[Any, Path]:
    from bot.app import build_runtime
    from bot.statefile import load_state

    directory = Path(state) if state else Path(_scratch().name)
    directory.mkdir(parents=True, exist_ok=True)
    local = settings.model_copy(update={"data_dir": directory})
    runtime = build_runtime(local, database_url=settings.database_url or None)
    if state:
        load_state(runtime.store, directory)
    return runtime, directory


def run(args: argparse.Namespace, settings: Settings) -> int:
    from bot.script import ScriptRunner, dumps
    from bot.statefile import save_state
    from runtime.clock import SettableClock

    if args.script:
        try:
            stream = sys.stdin if args.script == "-" else open(args.script, encoding="utf-8")  # noqa: SIM115
        except OSError as exc:
            print(f"wxbot chat: cannot read {args.script}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        settings = settings.model_copy(update={"weather_fake": True})
        runtime, directory = _runtime(settings, args.state)
        runner = ScriptRunner(runtime.engine, SettableClock(datetime.now(UTC)), due_pushes=_due(runtime),
                              touch_notice=_touch(runtime), template_id=settings.wechat_template_id or None)
        try:
            with stream:
                for out in runner.run_lines(stream):
                    if args.json:
                        print(dumps(out), flush=True)
                    else:
                        _print_human(out)
        except UnicodeDecodeError as exc:
            print(f"wxbot chat: {args.script} is not UTF-8 text ({exc.reason})", file=sys.stderr)
            return 2
        if args.state:
            save_state(runtime.store, directory)
        _close(runtime)
        return 0
    return _interactive(settings, args)


def _close(runtime: Any) -> None:
    """Release the database and remove the throwaway directory of a run without --state."""
    runtime.services.db.dispose()
    while _SCRATCH:
        _SCRATCH.pop().cleanup()


def _due(runtime: Any) -> Any:
    try:
        from skills.reminders import run_due
    except ImportError:
        return None
    return lambda now: run_due(runtime.services, now)


def _touch(runtime: Any) -> Any:
    try:
        from skills.reminders import touch_notice
    except ImportError:
        return None
    return lambda user: touch_notice(runtime.services, user)


def _print_human(out: dict[str, Any]) -> None:
    if "error" in out:
        print(f"[错误] {out['error']}")
        return
    for push in out.get("pushes", []):
        print(f"[推送 {push['channel']}] {push['text']}")
    for reply in out.get("replies", []):
        print(f"机器人：{reply}")


def _interactive(settings: Settings, args: argparse.Namespace) -> int:
    from bot.statefile import save_state
    from runtime.clock import SystemClock
    from runtime.turn import Inbound

    runtime, directory = _runtime(settings, args.state)
    clock = SystemClock()
    due = _due(runtime)
    print("wxbot 本地对话（输入“帮助”看看我能做什么，Ctrl-D 退出）")
    count = 0
    while True:
        try:
            text = input("你：")
        except (EOFError, KeyboardInterrupt):
            print()
            break
        if not text.strip():
            continue
        count += 1
        if due is not None:
            for push in due(clock.now()):
                print(f"[提醒] {push.text}")
        result = runtime.engine.handle(Inbound(user=args.user, text=text, msg_id=f"chat-{id(runtime)}-{count}",
                                               at=clock.now()))
        for reply in result.replies:
            print(f"机器人：{reply}")
    if args.state:
        save_state(runtime.store, directory)
    _close(runtime)
    return 0
