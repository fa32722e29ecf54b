"""``wxbot inspect USER``: the user's conversation context as pretty JSON, plus any quarantined blob."""

from __future__ import annotations

import argparse
import json

from bot.settings import Settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from bot.admin.cli_support import add_redis_argument

    parser.add_argument("user", help="the user's openid")
    add_redis_argument(parser)


def pretty(blob: str) -> str:
    """Indented JSON when ``blob`` parses, else the blob as is (a corrupt one must stay visible)."""
    try:
        return json.dumps(json.loads(blob), ensure_ascii=False, indent=2, sort_keys=True)
    except ValueError:
        return blob


def run(args: argparse.Namespace, settings: Settings) -> int:
    from bot.commands._admin_redis import connect
    from runtime import keys
    from runtime.store import RedisContextStore

    redis = connect(args, settings, "inspect")
    if redis is None:
        return 2
    store = RedisContextStore(redis)
    blob, bad = store.raw(args.user), store.quarantined(args.user)
    if blob is None and bad is None:
        print(f"no context stored for {args.user}")
        return 1
    if blob is not None:
        version = redis.hget(keys.context(args.user), "v")
        ttl = redis.ttl(keys.context(args.user))
        print(f"# context of {args.user} (version {int(version or 0)}, expires in {ttl} s)")
        print(pretty(blob))
    if bad is not None:
        print(f"# quarantined (corrupt) blob of {args.user}, kept for inspection:")
        print(pretty(bad))
    return 0
