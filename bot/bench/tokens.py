"""``wxbot bench tokens``: prompt tokens of our prompts vs a naive baseline, on a fixed set of turns.

Runs offline: the real router and fallback agent talk to a local fake OpenAI server, and the same
token estimate counts both sides. Prints one JSON object; exits 1 when the ratio is above 1/3.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--pretty`` indents the JSON; ``--summary`` leaves out the per-turn figures."""
    parser.add_argument("--pretty", action="store_true", help="indent the JSON output")
    parser.add_argument("--summary", action="store_true", help="print only the totals and the ratio")


def run(args: argparse.Namespace, settings: Any) -> int:
    """Run the bench and print its JSON report; 0 when our prompts cost at most 1/3 of the baseline."""
    from runtime.llm.bench import run_bench

    report = run_bench().model_dump()
    if getattr(args, "summary", False):
        report.pop("turns")
    print(json.dumps(report, ensure_ascii=False, indent=2 if getattr(args, "pretty", False) else None))
    return 0 if report["within_target"] else 1
