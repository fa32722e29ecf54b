"""``wxbot chat``: talk to the bot in the terminal, or run a dialogue script (``--script FILE --json``).

Interactive chat keeps its conversation in a local folder (``DATA_DIR/chat`` unless ``--state DIR``;
``--fresh`` starts clean), prints due reminders at their time while the prompt waits, and writes log
lines to a file in that folder (stderr only with ``--verbose``). A script run starts from fresh state
unless ``--state DIR`` is given, and its clock starts at the script's first ``at`` (or ``--now``).
"""

from __future__ import annotations

import argparse
import io
import logging
import shutil
import sys
import tempfile
import threading
import uuid
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from bot.localstate import LOG_FILE, LocalState
from bot.settings import Settings

TICK_SECONDS = 0.5
PROMPT = "你："
# words that end the local chat (as Ctrl-D does); only here: in WeChat they are ordinary messages
LEAVE_WORDS = frozenset({"quit", "exit", "退出", "再见"})
GOODBYE = "再见！对话已保存，下次运行 wxbot chat 接着聊。"


def leaves_chat(line: str) -> bool:
    """Whether a line typed at the local chat's prompt ends it: quit, exit, 退出 or 再见, in any case,
    with trailing punctuation ("再见！", "exit.")."""
    return line.strip().rstrip("。.!！~～ ").lower() in LEAVE_WORDS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--script", metavar="FILE", help="run a JSON Lines dialogue script ('-' = stdin)")
    parser.add_argument("--json", action="store_true", help="with --script: print one JSON object per line")
    parser.add_argument("--state", metavar="DIR",
                        help="keep conversation state and data in DIR (interactive default: DATA_DIR/chat)")
    parser.add_argument("--fresh", action="store_true", help="interactive: forget the saved conversation first")
    parser.add_argument("--now", metavar="ISO", help="start the clock at this moment (e.g. 2026-12-01T10:00+08:00)")
    parser.add_argument("--fake-weather", action="store_true",
                        help="answer weather from a deterministic offline fake (also WEATHER_FAKE=true)")
    parser.add_argument("--user", default="me", help="user id for the interactive chat")
    parser.add_argument("--verbose", action="store_true", help="log lines to stderr instead of the log file")


def run(args: argparse.Namespace, settings: Settings) -> int:
    if args.json and not args.script:
        print("wxbot chat: --json needs --script FILE (the interactive chat prints text)", file=sys.stderr)
        return 2
    try:
        start = _parse_now(args.now)
    except ValueError as exc:
        print(f"wxbot chat: --now: {exc}", file=sys.stderr)
        return 2
    if args.fake_weather:
        settings = settings.model_copy(update={"weather_fake": True})
    if args.script:
        return _run_script(args, settings, start)
    return _interactive(args, settings, start)


def _parse_now(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(f"not an ISO time: {value!r}") from None
    if moment.tzinfo is None:
        raise ValueError(f"{value!r} needs a UTC offset, e.g. 2026-12-01T10:00:00+08:00")
    return moment


# -- wiring --------------------------------------------------------------------------------------
class _Session:
    """The engine of one chat run, on a local state folder."""

    def __init__(self, settings: Settings, directory: Path, *, verbose: bool) -> None:
        from bot import compose
        from runtime.store import RedisContextStore
        from runtime.transcript import TranscribedTurns

        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        self._restore_logs = _route_logs(directory, verbose)
        self.state = LocalState.open(directory, compose.embedded_redis())
        local = settings.model_copy(update={"data_dir": directory})
        self.core = compose.core(local, store=RedisContextStore(self.state.redis), redis=self.state.redis,
                                 database_url=settings.database_url or None)
        self.transcript = compose.transcript(settings, self.state.redis)
        self.turns = TranscribedTurns(self.core.engine, self.transcript)
        self.lock = threading.Lock()

    def due(self) -> Callable[[datetime], list[Any]] | None:
        try:
            from skills.reminders import run_due
        except ImportError:
            return None
        return lambda now: run_due(self.core.services, now)

    def touch(self) -> Callable[[str], str | None] | None:
        try:
            from skills.reminders import touch_notice
        except ImportError:
            return None
        return lambda user: touch_notice(self.core.services, user)

    def close(self, *, keep: bool) -> None:
        if keep:
            self.state.save()
        self.core.services.db.dispose()
        self._restore_logs()


def _route_logs(directory: Path, verbose: bool) -> Callable[[], None]:
    """Log lines go to a file in the state folder, never into the conversation (stderr with --verbose).
    Returns the function that puts the process's logging back as it was."""
    root = logging.getLogger()
    before, level = list(root.handlers), root.level
    for old in before:
        root.removeHandler(old)
    handler: logging.Handler = (logging.StreamHandler(sys.stderr) if verbose
                                else logging.FileHandler(directory / LOG_FILE, encoding="utf-8"))
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    root.addHandler(handler)
    if verbose:
        root.setLevel(logging.DEBUG)

    def restore() -> None:
        root.removeHandler(handler)
        handler.close()
        for old in before:
            root.addHandler(old)
        root.setLevel(level)

    return restore


# -- scripts -------------------------------------------------------------------------------------
def _run_script(args: argparse.Namespace, settings: Settings, start: datetime | None) -> int:
    from bot.script import ScriptRunner, dumps

    try:  # a file is read whole first: an unreadable or non-UTF-8 one is told before the engine is built
        stream = sys.stdin if args.script == "-" else io.StringIO(Path(args.script).read_bytes().decode("utf-8"))
    except OSError as exc:
        print(f"wxbot chat: cannot read {args.script}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as exc:
        print(f"wxbot chat: {args.script} is not UTF-8 text ({exc.reason})", file=sys.stderr)
        return 2
    scratch = None if args.state else tempfile.TemporaryDirectory(prefix="wxbot-chat-", ignore_cleanup_errors=True)
    directory = Path(args.state) if args.state else Path(scratch.name)  # type: ignore[union-attr]
    session = _Session(settings, directory, verbose=args.verbose)
    runner = ScriptRunner(session.turns, due_pushes=session.due(), touch_notice=session.touch(),
                          template_id=settings.wechat_template_id or None, start=start)
    code = 0
    try:
        with stream:
            for out in runner.run_lines(stream):
                print(dumps(out) if args.json else _human(out), flush=True)
    except UnicodeDecodeError as exc:
        print(f"wxbot chat: {args.script} is not UTF-8 text ({exc.reason})", file=sys.stderr)
        code = 2
    finally:
        session.close(keep=bool(args.state))
        if scratch is not None:
            scratch.cleanup()
    return code


def _human(out: dict[str, Any]) -> str:
    if "error" in out:
        return f"[第{out['line']}行 错误] {out['error']}"
    lines = [f"[推送 {push['channel']}] {push['text']}" for push in out.get("pushes", [])]
    lines.extend(f"机器人：{reply}" for reply in out.get("replies", []))
    return "\n".join(lines)


# -- interactive ---------------------------------------------------------------------------------
def _interactive(args: argparse.Namespace, settings: Settings, start: datetime | None) -> int:
    from runtime.clock import Clock, RunningClock, SystemClock
    from runtime.turn import Inbound

    directory = Path(args.state) if args.state else settings.data_dir / "chat"
    if args.fresh and directory.exists():
        shutil.rmtree(directory)
    resumed = LocalState.exists(directory)
    session = _Session(settings, directory, verbose=args.verbose)
    clock: Clock = RunningClock(start) if start is not None else SystemClock()
    where = directory.resolve()
    print(f"wxbot 本地对话（输入“帮助”看看我能做什么；输入“退出”或按 Ctrl-D 结束）\n"
          f"{'接着上次的对话；' if resumed else ''}对话保存在 {where}（--fresh 从头开始），"
          f"日志在 {where / LOG_FILE if not args.verbose else '标准错误输出'}", flush=True)
    stop = threading.Event()
    ticker = threading.Thread(target=_tick, args=(session, clock, args.user, stop), daemon=True)
    ticker.start()
    try:
        while True:
            try:
                text = input(PROMPT)
            except (EOFError, KeyboardInterrupt):
                print()
                break
            if not text.strip():
                continue
            if leaves_chat(text):
                print(f"机器人：{GOODBYE}", flush=True)
                break
            with session.lock:
                session.state.refresh()
                inbound = Inbound(user=args.user, text=text, msg_id=f"chat-{uuid.uuid4().hex[:16]}", at=clock.now())
                result = session.turns.handle(inbound)
                session.state.save()
            for reply in result.replies:
                print(f"机器人：{reply}", flush=True)
    finally:
        stop.set()
        ticker.join(timeout=2)
        with session.lock:
            session.close(keep=True)
    return 0


def _tick(session: _Session, clock: Any, user: str, stop: threading.Event) -> None:
    """Print due reminders at their time while the prompt waits (and record them in the transcript)."""
    due = session.due()
    if due is None:
        return
    while not stop.wait(TICK_SECONDS):
        with session.lock:
            try:
                pushes = due(clock.now())
                for push in pushes:
                    session.transcript.record_delivery(push.user, push.text, "chat", "shown", push=True)
                if pushes:
                    session.state.save()
            except Exception:  # a failing tick must not end the chat; the log says why
                logging.getLogger(__name__).exception("reminder tick failed")
                continue
        for push in pushes:
            _print_over_prompt(push.text)  # the reminder's own words say what it is ("⏰ 提醒：…")


def _print_over_prompt(line: str) -> None:
    """Print ``line`` above the prompt and redraw what the user was typing; when the output is not a
    terminal (a pipe, a file) just the line, without control codes."""
    if not sys.stdout.isatty():
        print(line, flush=True)
        return
    try:
        import readline

        typed = readline.get_line_buffer()
    except ImportError:  # pragma: no cover - platforms without readline
        typed = ""
    sys.stdout.write(f"\r\033[K{line}\n{PROMPT}{typed}")
    sys.stdout.flush()
