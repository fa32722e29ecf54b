"""``wxbot bench NAME [options]``: run one benchmark, each in its own lazily imported module.

``bench script|tokens|reminders|webhook|pipeline`` imports ``bot.bench.<name>`` only when
asked for, builds its options with the module's ``add_arguments`` and calls its ``run(args, settings)``.
A benchmark whose module is not in this build says so and exits 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from bot.bench import BENCHES
from bot.settings import Settings

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``NAME`` picks the benchmark; everything after it goes to that benchmark's own options."""
    lines = "\n".join(f"  {name:<10} {text}" for name, text in BENCHES.items())
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = f"benchmarks:\n{lines}\n\n`wxbot bench NAME --help` shows a benchmark's options."
    parser.add_argument("bench", nargs="?", choices=sorted(BENCHES), metavar="NAME", help="which benchmark to run")
    parser.add_argument("options", nargs=argparse.REMAINDER, help="options of that benchmark")


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Import the chosen benchmark, parse its options and run it; 2 when it is not available."""
    if args.bench is None:
        print("usage: wxbot bench NAME [options]; NAME is one of: " + ", ".join(BENCHES), file=sys.stderr)
        return 2
    module_name = f"bot.bench.{args.bench}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = "" if exc.name == module_name else f" (missing {exc.name})"
        print(f"wxbot bench {args.bench}: not available in this build{missing}", file=sys.stderr)
        return 2
    parser = argparse.ArgumentParser(prog=f"wxbot bench {args.bench}", description=BENCHES[args.bench])
    module.add_arguments(parser)
    return int(module.run(parser.parse_args(args.options), settings) or 0)
