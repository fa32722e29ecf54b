"""The ``wxbot`` command line. Each subcommand lives in ``bot/commands/<name>.py`` and is imported lazily."""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence
from typing import Any

COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("bot.commands.serve", "run the webhook (embedded worker when no REDIS_URL)"),
    "worker": ("bot.commands.worker", "run an RQ worker that drains user mailboxes"),
    "scheduler": ("bot.commands.scheduler", "run the reminder scheduler (leader-elected)"),
    "chat": ("bot.commands.chat", "talk to the bot locally, or run a dialogue script"),
    "replay": ("bot.commands.replay", "print a user's transcript with traces (--rerun to diff)"),
    "inspect": ("bot.commands.inspect", "print a user's conversation context"),
    "reset": ("bot.commands.reset", "forget a user's conversation context"),
    "stats": ("bot.commands.stats", "turns by stage, model calls, latency, queues, deliveries"),
    "menu": ("bot.commands.menu", "the account's custom menu: show [FILE] or push FILE (keys are intent labels)"),
    "db": ("bot.commands.db", "database schema: upgrade (run the migrations) or status"),
    "bench": ("bot.commands.bench", "benchmarks: {benches}"),
}


# the long-lived processes: they take SIGTERM/SIGINT as a request to stop from their very start
# (bot.stopping); the other commands keep Python's own (Ctrl-C: KeyboardInterrupt)
LONG_LIVED = frozenset({"serve", "worker", "scheduler"})


def _help(name: str) -> str:
    text = COMMANDS[name][1]
    if "{benches}" in text:  # the benchmark list comes from the one place that declares them
        from bot.bench import BENCHES

        text = text.format(benches=", ".join(BENCHES))
    return text


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="wxbot", description="WeChat Official Account assistant")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        sub.add_parser(name, help=_help(name), add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the subcommand, load its module, run it with Settings from the environment; its exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    head, rest = _split(argv)
    args = parser.parse_args(head)
    if not args.command:
        parser.print_help()
        return 2
    if args.command in LONG_LIVED:
        from bot.stopping import stop_signals

        with stop_signals() as stop:  # before the imports and connections that take seconds
            return _run(args.command, rest, args.verbose, stop)
    return _run(args.command, rest, args.verbose)


def _run(command: str, rest: list[str], verbose: bool, stop: Any = None) -> int:
    """Load ``command``'s module, parse its arguments and run it (``stop``: a long-lived one's stop request)."""
    try:
        module = importlib.import_module(COMMANDS[command][0])
    except ModuleNotFoundError as exc:
        print(f"wxbot {command}: not available in this build ({exc.name})", file=sys.stderr)
        return 2
    sub = argparse.ArgumentParser(prog=f"wxbot {command}", description=_help(command))
    module.add_arguments(sub)
    sub_args = sub.parse_args(rest)
    logging.basicConfig(level=logging.DEBUG if verbose else logging.WARNING,
                        format="%(levelname)s %(name)s %(message)s")
    from pydantic import ValidationError

    from bot.settings import Settings

    try:
        settings = Settings.from_env()
    except ValidationError as exc:
        print(f"wxbot: bad setting: {exc.errors()[0]['loc'][0]}: {exc.errors()[0]['msg']}", file=sys.stderr)
        return 2
    try:
        if stop is not None:
            return int(module.run(sub_args, settings, stop) or 0)
        return int(module.run(sub_args, settings) or 0)
    except KeyboardInterrupt:
        return 130


def _split(argv: list[str]) -> tuple[list[str], list[str]]:
    for i, arg in enumerate(argv):
        if arg in COMMANDS:
            return argv[: i + 1], argv[i + 1:]
    return argv, []


def entry() -> None:
    """The ``wxbot`` program (the console script, ``python -m bot.cli``): :func:`main`, then the process
    ends, a long-lived command's without the interpreter's teardown (its own cleanup is done; freeing the
    engine's heap object by object would add a second or more of CPU to every stop)."""
    from bot.stopping import end_process

    argv = sys.argv[1:]
    head, _ = _split(argv)
    long_lived = bool(head) and head[-1] in LONG_LIVED
    try:
        code = main(argv)
    except SystemExit as exc:  # a usage error, or a start ended by a stop signal
        end_process(exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1), fast=False)
    end_process(code, fast=long_lived)


if __name__ == "__main__":
    entry()
