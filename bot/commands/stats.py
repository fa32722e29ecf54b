"""``wxbot stats``: turns by stage, zero-model share, model calls and tokens, latency, queues, deliveries."""

from __future__ import annotations

import argparse
import json
from typing import Any

from bot.settings import Settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from bot.admin.cli_support import add_redis_argument

    parser.add_argument("--json", action="store_true", help="one JSON object")
    add_redis_argument(parser)


def collect(redis: Any) -> dict[str, Any]:
    """Everything ``wxbot stats`` shows, as plain data (also served by /admin/api/stats)."""
    from bot.admin.overview import collect_stats

    return collect_stats(redis)


def render(data: dict[str, Any]) -> list[str]:
    """Human lines for :func:`collect`'s data."""
    t, q = data["turns"], data["queues"]
    lines = [f"turns: {t['turns']}   zero-model: {t['zero_model']} ({t['zero_model_share']:.1%})   "
             f"with errors: {t['turns_with_errors']}"]
    lines.append("by stage: " + "  ".join(f"{k}={v}" for k, v in t["by_stage"].items()))
    lines.append(f"model calls: {t['llm_calls']}   tokens: {t['prompt_tokens']} prompt + "
                 f"{t['completion_tokens']} completion   by stage: "
                 + ("  ".join(f"{k}={v}" for k, v in t["llm_calls_by_stage"].items()) or "-"))
    lat = t["latency"]
    lines.append(f"latency (last {lat['samples']} turns): p50 {lat['p50']:.1f} ms  p90 {lat['p90']:.1f} ms  "
                 f"p99 {lat['p99']:.1f} ms  max {lat['max']:.1f} ms")
    if q["queues"]:
        for queue in q["queues"]:
            lines.append(f"queue {queue['name']}: {queue['queued']} queued, {queue['started']} running, "
                         f"{queue['failed']} failed, {queue['scheduled']} scheduled")
    else:
        lines.append("queues: none (embedded mode or no worker has run yet)")
    lines.append(f"mailboxes: {q['mailboxes']} users waiting, {q['mailbox_messages']} messages")
    lines.append("deliveries: " + ("  ".join(f"{k}={v}" for k, v in t["deliveries"].items()) or "none recorded"))
    lines.append(f"uncertain sends (no known outcome; the user may have the text twice): "
                 f"{t.get('uncertain_deliveries', 0)}")
    return lines


def run(args: argparse.Namespace, settings: Settings) -> int:
    from bot.commands._admin_redis import connect

    redis = connect(args, settings, "stats")
    if redis is None:
        return 2
    data = collect(redis)
    print(json.dumps(data, ensure_ascii=False) if args.json else "\n".join(render(data)))
    return 0
