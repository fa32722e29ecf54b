"""``wxbot scheduler``: fire due reminders (leader-elected through a Redis lease; run one or more)."""

from __future__ import annotations

import argparse
import sys

from bot.settings import Settings
from bot.stopping import StopRequest

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--sink rq`` queues a delivery job per push for the workers; ``inline`` delivers in-process."""
    parser.add_argument("--sink", choices=("rq", "inline"), default=None,
                        help="rq (default with REDIS_URL) or inline (deliver from this process)")
    parser.add_argument("--tick", type=float, default=0.5, help="seconds between ticks (default 0.5)")
    parser.add_argument("--lease-ttl", type=float, default=10.0, help="leader lease seconds (default 10)")
    parser.add_argument("--name", default=None, help="lease token / name of this scheduler")


def run(args: argparse.Namespace, settings: Settings, stop: StopRequest) -> int:
    """Run until SIGTERM/SIGINT (``stop``: the process's stop request, installed before the start): the tick
    in flight finishes, the lease is given up, and the exit code is 0. A standby waits for the lease."""
    from bot import compose
    from bot.commands.db import schema_gate
    from bot.logs import configure_logging, log_startup
    from bot.scheduler import DeliverySink, PushSink, RQPushSink
    from runtime.clock import SystemClock

    if (refusal := schema_gate(settings, "scheduler")) is not None:
        print(refusal, file=sys.stderr)
        return 2
    configure_logging(settings)
    redis = compose.redis_client(settings)
    sql = compose.sql_engine(settings, create_tables=False)  # the schema gate made it ready
    sink_name = args.sink or ("inline" if settings.embedded else "rq")
    sink: PushSink = (RQPushSink(compose.queue(redis)) if sink_name == "rq"
                      else DeliverySink(compose.delivery(settings, redis), sql))
    loop = compose.scheduler(sql, redis, sink, SystemClock().now, ttl_ms=int(args.lease_ttl * 1000),
                             tick_seconds=args.tick, name=args.name)
    stop.started()  # from now on a stop lets the tick in flight finish
    log_startup("scheduler", settings, instance=loop.name, sink=sink_name, lease_ttl_s=args.lease_ttl,
                tick_s=args.tick)
    try:
        loop.run(stop.event)
    finally:
        sql.dispose()
    return 0
