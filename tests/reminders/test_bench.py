"""The reminder benchmark runs and hands every reminder over exactly once (small count)."""

from __future__ import annotations

from bot.bench.reminders import bench


def test_bench_small_count() -> None:
    report = bench(2000, batch=500)
    assert report["pushed"] == 2000
    assert report["duplicates"] == 0
    assert report["claim_and_enqueue_seconds"] > 0


def test_bench_with_rq_sink_into_embedded_redis() -> None:
    report = bench(200, sink="rq")
    assert report["pushed"] == 200 and report["duplicates"] == 0
