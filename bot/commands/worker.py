"""``wxbot worker``: an RQ worker (non-forking) that drains per-user mailboxes."""

from __future__ import annotations

import argparse
import sys

from bot.compose import DEFAULT_ENGINE_FACTORY
from bot.queue import QUEUE_NAME
from bot.settings import Settings
from bot.stopping import StopRequest, end_process, stop_signals
from bot.upgrade import current_engine_factory


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engine", default=DEFAULT_ENGINE_FACTORY, help="engine factory module:callable(settings, redis)")
    parser.add_argument("--queue", default=QUEUE_NAME)
    parser.add_argument("--lease-ttl", type=float, default=3.0,
                        help="per-user lease seconds, renewed while the user is drained (a dead worker's users "
                             "are picked up after about this long; default 3)")
    parser.add_argument("--typing-after", type=float, default=3.0,
                        help="seconds before showing 'typing…' during a slow turn (0: never)")
    parser.add_argument("--lanes", type=int, default=2,
                        help="users drained side by side per worker process (threads; default 2)")
    parser.add_argument("--burst", action="store_true", help="exit when the queue is empty")
    parser.add_argument("--name", default=None, help="worker name shown in `rq info`")


def run(args: argparse.Namespace, settings: Settings, stop: StopRequest) -> int:
    """Work until SIGTERM/SIGINT (``stop``: the process's stop request, installed before the start): the turn
    in flight finishes, the rest of its drainer's users go back to the ready list for other workers,
    and the exit code is 0."""
    from bot import compose

    if settings.embedded:
        print("wxbot worker needs REDIS_URL or REDIS_SENTINELS (embedded mode runs the worker inside `wxbot serve`)")
        return 2
    from bot.commands.db import schema_gate
    from bot.logs import configure_logging, log_startup

    # a custom --engine brings its own storage; the default one uses the business tables
    if current_engine_factory(args.engine) == DEFAULT_ENGINE_FACTORY and (refusal := schema_gate(settings, "worker")) is not None:
        print(refusal, file=sys.stderr)
        return 2
    configure_logging(settings)
    process = compose.worker_process(settings, engine_ref=args.engine, queue_name=args.queue,
                                     lease_ttl_ms=int(args.lease_ttl * 1000), typing_after_s=args.typing_after,
                                     lanes=args.lanes, name=args.name, stop=stop)
    stop.started()  # from now on a stop lets the worker finish its turns in flight
    process.sweeper.start()
    log_startup("worker", settings, instance=process.worker.name, queues=[process.queue.name],
                lanes=process.deps.lanes, engine=args.engine, lease_ttl_s=args.lease_ttl)
    try:
        process.worker.work(burst=args.burst, logging_level="WARNING")
    finally:
        process.sweeper.stop()
        if process.deps.sql_engine is not None:
            process.deps.sql_engine.dispose()
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run without the ``wxbot`` CLI: ``python -m bot.commands.worker``."""
    parser = argparse.ArgumentParser(prog="wxbot worker")
    add_arguments(parser)
    with stop_signals() as stop:
        return run(parser.parse_args(argv), Settings.from_env(), stop)


if __name__ == "__main__":
    end_process(main(), fast=True)
