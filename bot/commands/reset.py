"""``wxbot reset USER``: forget the user's conversation context (and, with --transcript, their transcript)."""

from __future__ import annotations

import argparse

from bot.settings import Settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from bot.admin.cli_support import add_redis_argument

    parser.add_argument("user", help="the user's openid")
    parser.add_argument("--transcript", action="store_true", help="also delete the user's transcript")
    add_redis_argument(parser)


def run(args: argparse.Namespace, settings: Settings) -> int:
    from bot.commands._admin_redis import connect
    from runtime import keys
    from runtime.transcript import Transcript

    redis = connect(args, settings, "reset", writes=True)
    if redis is None:
        return 2
    removed = int(redis.delete(keys.context(args.user), keys.context_quarantine(args.user)))
    done = [f"context {'deleted' if removed else 'was already empty'}"]
    if args.transcript:
        Transcript(redis).delete(args.user)
        done.append("transcript deleted")
    print(f"{args.user}: " + "; ".join(done))
    return 0
