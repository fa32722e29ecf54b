"""The pipeline bench's verdict (pure): every target of the report, and its own process figures."""

from __future__ import annotations

import argparse
import os
from typing import Any

from bot.bench import cpu_seconds, resident_mb
from bot.bench.pipeline import _report


def _run(sent: int, passive: int, *, p99: float = 5.0, statuses: dict[str, int] | None = None) -> dict[str, Any]:
    return {"sent": sent, "passive_replies": passive, "seconds": sent / 2000, "statuses": statuses or {"200": sent},
            "latency": {"p50_ms": 1.0, "p90_ms": 2.0, "p99_ms": p99, "max_ms": p99}}


def _verdict(cpu: dict[str, float], *, p99: float = 5.0, statuses: dict[str, int] | None = None,
             unanswered: int = 0) -> dict[str, Any]:
    args = argparse.Namespace(workers=2, lanes=2, passive_rate=500.0)
    flat = _run(10000, 9000, statuses=statuses) | {"cpu_ms_per_turn": cpu}  # 1,000 through the API
    return _report(args, flat, 1000 - unanswered, _run(2500, 2500, p99=p99), 0, {"jobs_per_s": 100.0}, [])


LEAN = {"webhook": 0.2, "workers": 0.45, "redis": 0.18}


def test_a_run_within_every_target_says_so() -> None:
    report = _verdict(LEAN)
    assert report["figures"]["turns_per_s"] == 2000.0 and report["figures"]["x_forking_baseline"] == 20.0
    assert report["within_target"]


def test_each_target_missed_fails_the_run() -> None:
    assert not _verdict(LEAN | {"workers": 0.51})["within_target"]
    assert not _verdict(LEAN | {"webhook": 0.3})["within_target"]
    assert not _verdict(LEAN | {"redis": 0.21})["within_target"]
    assert not _verdict(LEAN, p99=20.5)["within_target"]
    assert not _verdict(LEAN, statuses={"200": 9999, "503": 1})["within_target"]
    lost = _verdict(LEAN, unanswered=1)  # not passive, and its reply never came through the API either
    assert lost["figures"]["lost"] == 1 and not lost["within_target"]


def test_process_figures_come_from_proc() -> None:
    assert resident_mb(os.getpid()) > 1.0
    assert cpu_seconds(os.getpid()) > 0.0
    assert resident_mb(2**22 + 7) == 0.0  # no such process
