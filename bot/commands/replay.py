"""``wxbot replay USER``: the user's transcript with traces; ``--rerun`` diffs it against the current code."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bot.settings import Settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from bot.admin.cli_support import add_redis_argument

    parser.add_argument("user", help="the user's openid")
    parser.add_argument("--since", help="from this time (ISO, or 30m / 2h / 7d ago, or a stream id)")
    parser.add_argument("--limit", type=int, default=500, help="at most this many entries (default 500)")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--rerun", action="store_true",
                        help="replay the inbound messages through the current code in a sandbox and diff")
    parser.add_argument("--llm", action="store_true", help="with --rerun: let the sandbox call the configured model")
    add_redis_argument(parser)


def run(args: argparse.Namespace, settings: Settings) -> int:
    from bot import compose
    from bot.admin.cli_support import format_entry, parse_since
    from bot.commands._admin_redis import connect

    try:
        since = parse_since(args.since)
    except argparse.ArgumentTypeError as exc:
        print(f"wxbot replay: {exc}", file=sys.stderr)
        return 2
    redis = connect(args, settings, "replay")
    if redis is None:
        return 2
    transcript = compose.transcript(settings, redis)
    if args.rerun:
        return _rerun(args, settings, transcript, since)
    entries = transcript.read(args.user, since, args.limit)
    if not entries:
        print(f"no transcript for {args.user}" + (" in that period" if since else ""))
        return 1
    for entry in entries:
        if args.json:
            print(json.dumps(entry.model_dump(mode="json"), ensure_ascii=False))
        else:
            print("\n".join(format_entry(entry, settings.wxbot_tz)))
    return 0


def _rerun(args: argparse.Namespace, settings: Settings, transcript: Any, since: Any) -> int:
    from bot import compose
    from bot.admin.rerun import rerun

    turns = transcript.turns(args.user, since, args.limit)
    if not turns:
        print(f"no recorded turns for {args.user}")
        return 1
    report = rerun(args.user, turns, compose.rerun_sandbox(settings), with_llm=args.llm)
    if args.json:
        for diff in report.turns:
            print(json.dumps(diff.model_dump(mode="json"), ensure_ascii=False))
        return 0
    from bot.admin._labels import local_time

    for d in report.turns:
        mark = "CHANGED " + ",".join(d.changed) if d.changed else "same"
        print(f"#{d.index} {local_time(d.at, settings.wxbot_tz)}  {d.said}   [{mark}]")
        after = d.rerun
        for name in ("stage", "intent", "reply"):
            before = getattr(d.recorded, name)
            if after is None or name not in d.changed:
                if after is not None:
                    print(f"    {name}: {before}")
                continue
            print(f"  - {name}: {before}")
            print(f"  + {name}: {getattr(after, name)}")
        if d.error:
            print(f"  ! error: {d.error}")
    print(f"{report.changed} of {len(report.turns)} turns changed"
          + ("" if report.with_llm else " (sandbox without a model: pass --llm to allow model calls)"))
    return 0
